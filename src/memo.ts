/**
 * A function of a string, remembered for the strings it is asked about: the same few secrets,
 * field names and filter sets come back request after request. Bounded: a key longer than
 * `maxKeyLength` is computed but not kept, and everything is forgotten at once when `maxEntries`
 * are held (simpler than tracking which were used last, and as good for a set that small).
 */
export function memoize<T>(compute: (key: string) => T, limits: { maxEntries: number; maxKeyLength: number }): (key: string) => T {
  const memory = new Map<string, T>();
  return (key) => {
    let value = memory.get(key);
    if (value === undefined) {
      value = compute(key);
      if (key.length <= limits.maxKeyLength) {
        if (memory.size >= limits.maxEntries) memory.clear();
        memory.set(key, value);
      }
    }
    return value;
  };
}
