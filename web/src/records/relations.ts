// Names for ids: a deal shows its client's name, not cli_…. Every name on screen comes from here, by
// one mechanism: the ids asked for while a page draws (a list's rows, the board's cards) are sent
// together, as one `GET /v1/clients?ids=…` per resource and 100 ids (not one request per row, which
// a rate limit refused half of), and each answer is remembered. A live event about the
// record updates its name; a record page's edit asks again.
import { signal, type Signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, ApiProblem } from '../api.js';
import { onLiveEvent } from '../live.js';
import type { ResourceName } from './describe.js';
import { RESOURCES } from './resources/index.js';

/** What is known about one id's name. Only `missing` means the record is not there. */
export type NameLookup =
  | { state: 'loading' }
  | { state: 'found'; name: string }
  /** Deleted, or never existed: a 404, or left out of the `?ids=` answer. */
  | { state: 'missing' }
  /** The session's key may not read this resource (403). */
  | { state: 'forbidden'; scope: string }
  /** A 429: asked again after Retry-After. */
  | { state: 'rate-limited' }
  /** A 5xx, a network error, or still rate limited after the retries: the name is unknown, not absent. */
  | { state: 'failed'; reason: string };

/** ids a `?ids=` request takes at most (the API's limit). */
const IDS_PER_REQUEST = 100;
/** How many times a batch refused with 429 is asked again before it says it could not load. */
const RATE_LIMIT_RETRIES = 5;
/** The wait when a 429 names none, and the longest one followed (a daily quota's would be hours). */
const DEFAULT_WAIT_S = 1;
const LONGEST_WAIT_S = 30;

interface Entry {
  resource: ResourceName;
  lookup: Signal<NameLookup>;
  /** Resolves on the first answer to the lookup's latest request (a 429 is one: retries go on). */
  answered: Promise<void>;
  answer: () => void;
}

const entries = new Map<string, Entry>();
const queued = new Map<ResourceName, Set<string>>();
let flushQueued = false;

function entry(resource: ResourceName, id: string): Entry {
  let e = entries.get(id);
  if (!e) {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    e = { resource, lookup: signal<NameLookup>({ state: 'loading' }), answered, answer };
    entries.set(id, e);
    enqueue(resource, id);
  }
  return e;
}

function set(e: Entry, lookup: NameLookup): void {
  e.lookup.value = lookup;
  if (lookup.state !== 'loading') e.answer();
}

/** Asks for the name in the next batch; the batch goes once the current task (a render's effects) is done. */
function enqueue(resource: ResourceName, id: string): void {
  let ids = queued.get(resource);
  if (!ids) queued.set(resource, (ids = new Set()));
  ids.add(id);
  if (flushQueued) return;
  flushQueued = true;
  queueMicrotask(() => {
    flushQueued = false;
    const batches = [...queued];
    queued.clear();
    for (const [res, set] of batches) {
      const all = [...set];
      for (let i = 0; i < all.length; i += IDS_PER_REQUEST) void fetchBatch(res, all.slice(i, i + IDS_PER_REQUEST), 0);
    }
  });
}

async function fetchBatch(resource: ResourceName, ids: string[], attempt: number): Promise<void> {
  const spec = RESOURCES[resource];
  const mine = ids.map((id) => entries.get(id)!);
  try {
    const page = await api<{ data: Record<string, any>[] }>('GET', `${spec.path}?ids=${ids.join(',')}&limit=${IDS_PER_REQUEST}`);
    const names = new Map(page.data.map((r) => [r.id as string, spec.title(r)]));
    mine.forEach((e, i) => set(e, names.has(ids[i]!) ? { state: 'found', name: names.get(ids[i]!)! } : { state: 'missing' }));
  } catch (err) {
    const problem = err instanceof ApiProblem ? err : undefined;
    if (problem?.status === 429 && attempt < RATE_LIMIT_RETRIES) {
      mine.forEach((e) => set(e, { state: 'rate-limited' }));
      const wait = Math.min(problem.retryAfter ?? DEFAULT_WAIT_S, LONGEST_WAIT_S);
      setTimeout(() => void fetchBatch(resource, ids, attempt + 1), Math.max(wait, DEFAULT_WAIT_S) * 1000);
      return;
    }
    const lookup: NameLookup =
      problem?.status === 403
        ? { state: 'forbidden', scope: `${spec.scope}:read` }
        : { state: 'failed', reason: problem ? (problem.status === 429 ? 'still rate limited' : `HTTP ${problem.status}`) : 'the sandbox did not answer' };
    mine.forEach((e) => set(e, lookup));
  }
}

/** Asks for these names now (in one batch per resource) and resolves once each has an answer. */
export async function loadNames(resource: ResourceName, ids: Iterable<string>): Promise<void> {
  await Promise.all([...new Set(ids)].map((id) => lookupOf(resource, id).answered));
}

/** The entry, asked again when its last answer was a failure (a page drawn later tries again). */
function lookupOf(resource: ResourceName, id: string): Entry {
  const e = entry(resource, id);
  retryFailed(e, id);
  return e;
}

function retryFailed(e: Entry, id: string): void {
  if (e.lookup.peek().state !== 'failed') return;
  e.lookup.value = { state: 'loading' };
  ask(e, id);
}

/** Asks again for a known id, keeping what it shows until the answer. */
function ask(e: Entry, id: string): void {
  e.answered = new Promise<void>((resolve) => (e.answer = resolve));
  enqueue(e.resource, id);
}

/** The record's name, or null when it is not there or could not be read (for a form's current value). */
export async function recordName(resource: ResourceName, id: string): Promise<string | null> {
  const e = lookupOf(resource, id);
  await e.answered;
  const l = e.lookup.peek();
  return l.state === 'found' ? l.name : null;
}

/** Asks again for a record's name (after an edit here), should anything show it. */
export function forgetName(id: string): void {
  const e = entries.get(id);
  if (e) ask(e, id);
}

// An event carries the record as it now is: its name, without asking.
onLiveEvent((event) => {
  const object = event.data.object as Record<string, any>;
  const e = typeof object.id === 'string' ? entries.get(object.id) : undefined;
  if (!e || !event.type.startsWith(`${RESOURCES[e.resource].singular}.`)) return;
  set(e, event.type.endsWith('.deleted') ? { state: 'missing' } : { state: 'found', name: RESOURCES[e.resource].title(object) });
});

/** What is known about the id's name; the component draws again when it changes. */
export function useRecordName(resource: ResourceName, id: string): NameLookup {
  const e = entry(resource, id);
  // A failure is asked again when a page shows it anew (after the render: a render sends nothing).
  useEffect(() => retryFailed(e, id), [resource, id]);
  return e.lookup.value;
}
