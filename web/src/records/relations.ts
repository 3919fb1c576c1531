// Names for ids: a deal shows its client's name, not cli_…. Each id is fetched once per page load
// and remembered; a live event about the record forgets it, so a renamed client shows its new name.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { onLiveEvent } from '../live.js';
import type { ResourceName } from './describe.js';
import { RESOURCES } from './resources/index.js';

const names = new Map<string, Promise<string | null>>();

/** The record's name, or null when it is gone (deleted) or this session may not read it. */
export function recordName(resource: ResourceName, id: string): Promise<string | null> {
  let name = names.get(id);
  if (!name) {
    const spec = RESOURCES[resource];
    name = api('GET', `${spec.path}/${encodeURIComponent(id)}`).then(
      (record) => spec.title(record),
      () => null,
    );
    names.set(id, name);
  }
  return name;
}

/** Forget what is known about a record (after an edit here or an event from elsewhere). */
export function forgetName(id: string): void {
  names.delete(id);
}

onLiveEvent((e) => {
  const id = e.data.object.id;
  if (typeof id === 'string') forgetName(id);
});

/** undefined while loading, null when unknown. */
export function useRecordName(resource: ResourceName, id: string | null | undefined): string | null | undefined {
  const [name, setName] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    if (!id) return setName(null);
    let live = true;
    setName(undefined);
    void recordName(resource, id).then((n) => live && setName(n));
    return () => void (live = false);
  }, [resource, id]);
  return name;
}
