/**
 * Ids for path parameters, taken from the real collection (its first 20 records, read once), so
 * generated requests name records that exist. `onFetch` hears of each read (the path fuzzer
 * counts requests, and these are not the ones it fuzzes).
 */
export type IdsAt = (collection: string) => Promise<string[]>;

export function idPools(baseUrl: string, apiKey: string, onFetch?: () => void): IdsAt {
  const pools = new Map<string, string[]>();
  return async (collection) => {
    if (!pools.has(collection)) {
      onFetch?.();
      const res = await fetch(`${baseUrl}${collection}?limit=20`, { headers: { authorization: `Bearer ${apiKey}` } });
      const body = res.ok ? ((await res.json()) as { data?: { id: string }[] }) : {};
      pools.set(collection, (body.data ?? []).map((r) => r.id).filter(Boolean));
    }
    return pools.get(collection)!;
  };
}
