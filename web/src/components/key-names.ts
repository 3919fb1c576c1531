// API keys by name, not id (docs/dashboard.md#pages): the request log and the usage report name keys by id;
// the pages show the name the user gave the key, when the session may list keys (keys:read).
import { useEffect, useState } from 'preact/hooks';
import { all, can } from '../api.js';

export interface KeyInfo {
  id: string;
  name: string;
  prefix: string;
  last4: string;
}

export function useKeyNames(): Map<string, KeyInfo> {
  const [keys, setKeys] = useState<Map<string, KeyInfo>>(new Map());
  useEffect(() => {
    if (!can('keys:read')) return;
    void all<KeyInfo>('/v1/api_keys').then(
      (list) => setKeys(new Map(list.map((k) => [k.id, k]))),
      () => undefined,
    );
  }, []);
  return keys;
}

/** The key's name, else its prefix (a key this session may not list), else its id. */
export function keyLabel(keys: Map<string, KeyInfo>, id: string | null, prefix?: string | null): string {
  if (!id) return '—';
  return keys.get(id)?.name ?? prefix ?? id;
}
