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
  if (!isPlainObject(value)) return false; // a Date's toJSON would change its text
  const object = value as Record<string, unknown>;
  const names = Object.keys(object);
  if (!namesOk(names)) return false;
  for (const name of names) if (!isSmallTree(object[name], depth - 1, namesOk)) return false;
  return true;
}

/**
 * A record with its members in name order, and those of the objects inside it (an address, each
 * contact) too, so that a record `crm sync` sends takes the JSON.stringify path above: a client
 * with an address and a contact from CSV columns did not, and its fingerprint cost ~1.5x a sorted
 * one's. The values are kept as they are, and so is the order inside the members named in
 * `keepOrder` (custom_fields: a map whose order is the user's, which the server stores and compares
 * by); the server stores every other object in its schema's order whatever order it came in. What
 * is sorted already is returned as it is, not copied.
 */
export function inNameOrder(record: Record<string, unknown>, keepOrder: ReadonlySet<string> = FREE_FORM_MAPS): Record<string, unknown> {
  return withMembersInNameOrder(record, (name, value) => (keepOrder.has(name) ? value : inNameOrderDeep(value, MAX_SORT_DEPTH)));
}

/** The members named so in a record are free-form maps, whose order is the user's. */
const FREE_FORM_MAPS: ReadonlySet<string> = new Set(['custom_fields']);

/** Deeper than a small tree is: left as it is (a JSON Lines record may nest without bound). */
const MAX_SORT_DEPTH = 3;

/** A value with every plain object inside it in name order (arrays keep theirs); itself when nothing moves. */
function inNameOrderDeep(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth === 0) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const ordered = inNameOrderDeep(value[i], depth - 1);
      if (copy === undefined && ordered !== value[i]) copy = value.slice(0, i);
      if (copy !== undefined) copy.push(ordered);
    }
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  return withMembersInNameOrder(value as Record<string, unknown>, (_name, member) => inNameOrderDeep(member, depth - 1));
}

/** The object with its members in name order, each value as `order` makes it; the object itself when nothing changes. */
function withMembersInNameOrder(object: Record<string, unknown>, order: (name: string, value: unknown) => unknown): Record<string, unknown> {
  const names = Object.keys(object);
  const sorted = isSorted(names);
  let copy: Record<string, unknown> | undefined;
  for (const name of sorted ? names : names.sort()) {
    const value = object[name];
    const ordered = order(name, value);
    if (copy === undefined && (!sorted || ordered !== value)) {
      copy = {};
      // Only when sorted: the members before this one, unchanged (unsorted, this is the first).
      for (const before of names) {
        if (before === name) break;
        copy[before] = object[before];
      }
    }
    if (copy !== undefined) copy[name] = ordered;
  }
  return copy ?? object;
}

/** An object as JSON.parse makes them (or Object.create(null)), not a Date, Map or class instance. */
function isPlainObject(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Whether names are in the order Array.prototype.sort puts them (UTF-16 code units). */
export function isSorted(names: readonly string[]): boolean {
  for (let i = 1; i < names.length; i++) if (names[i - 1]! > names[i]!) return false;
  return true;
}
