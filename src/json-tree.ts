/** Arrays longer than this are never a small tree: a bulk body's records are written one by one. */
const MAX_ITEMS = 64;

/**
 * Whether a value is a small tree of JSON: at most `depth` levels of objects and arrays (a
 * primitive is a tree of depth 0), no array of more than 64 items, plain objects only (as
 * JSON.parse makes them), and every object's member names accepted by `namesOk`.
 *
 * The writers that copy a request body on the hot path (the idempotency fingerprint's canonical
 * JSON, the request log's redacted copy) hand such a tree to JSON.stringify when `namesOk` says
 * its text would be theirs too: native, that is several times faster than their member-by-member
 * loops, and each record of a bulk batch is such a tree. The bounds keep the check cheap and the
 * strings small (a whole batch as one string would be a large object in V8's heap).
 */
export function isSmallTree(value: unknown, depth: number, namesOk: (names: string[]) => boolean): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value !== 'object') return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  if (depth === 0) return false;
  if (Array.isArray(value)) {
    if (value.length > MAX_ITEMS) return false;
    for (const item of value) if (!isSmallTree(item, depth - 1, namesOk)) return false;
    return true;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false; // a Date's toJSON would change its text
  const object = value as Record<string, unknown>;
  const names = Object.keys(object);
  if (!namesOk(names)) return false;
  for (const name of names) if (!isSmallTree(object[name], depth - 1, namesOk)) return false;
  return true;
}

/**
 * A record with its members in name order, their values as they are (the order inside
 * custom_fields or an address is the user's: the server keeps it, and compares by it). Name order
 * is the order of the server's idempotency fingerprint (canonical JSON): a record `crm sync` sends
 * so, with nothing unordered inside, takes the JSON.stringify path above.
 */
export function inNameOrder(record: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(record);
  if (isSorted(names)) return record;
  const copy: Record<string, unknown> = {};
  for (const name of names.sort()) copy[name] = record[name];
  return copy;
}

/** Whether names are in the order Array.prototype.sort puts them (UTF-16 code units). */
export function isSorted(names: readonly string[]): boolean {
  for (let i = 1; i < names.length; i++) if (names[i - 1]! > names[i]!) return false;
  return true;
}
