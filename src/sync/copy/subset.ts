import { createHash } from 'node:crypto';
import type { CrmClient } from '../../client/client.js';
import { referencesOf, type SourceRecord } from './records.js';
import { SyncUsageError } from '../errors.js';
import { PAGE_SIZE } from '../export/export.js';
import { COPY_RESOURCES, type CopyResource } from '../mask/rules.js';

/**
 * A subset of the source (`--where`, `--limit`, `--sample`), closed over references: whatever a
 * chosen record points at comes with it (a deal's client, an invoice's client and deal, a
 * converted lead's client), so every reference lands in the target. Chosen first, in one read of
 * the source that keeps ids only; the copy then sends the chosen records in its usual order.
 *
 * - `--where "deals:stage=won"`: the source's own list filters (docs/reference/basics.md#lists-and-pagination), per resource;
 * - `--limit N`: the N most recently updated records of each resource (as HubSpot's sandbox seeds);
 * - `--sample 10%`: a share of each resource chosen by a hash of the record's id, so the same
 *   records on every run (an incremental refresh keeps its subset) and on every machine.
 */
export interface SubsetSpec {
  where: Map<CopyResource, Record<string, string>>;
  limit?: number | undefined;
  sample?: number | undefined;
}

const RESERVED = new Set(['limit', 'cursor', 'sort', 'order']);

/** `resource:field=value[&field=value]`, once or more; several for one resource add up. */
export function parseWhere(values: readonly string[]): Map<CopyResource, Record<string, string>> {
  const where = new Map<CopyResource, Record<string, string>>();
  for (const value of values) {
    const match = /^([a-z]+):(.+)$/.exec(value.trim());
    const resource = match?.[1] as CopyResource | undefined;
    if (!match || !COPY_RESOURCES.includes(resource!))
      throw new SyncUsageError(`--where "${value}": expected resource:field=value, e.g. "leads:status=qualified" (resources: ${COPY_RESOURCES.join(', ')}).`);
    const filters = where.get(resource!) ?? {};
    for (const pair of match[2]!.split('&')) {
      const eq = pair.indexOf('=');
      const field = pair.slice(0, eq).trim();
      if (eq <= 0 || !field) throw new SyncUsageError(`--where "${value}": "${pair}" is not field=value.`);
      if (RESERVED.has(field)) throw new SyncUsageError(`--where "${value}": ${field} is set by the copy itself.`);
      filters[field] = pair.slice(eq + 1).trim();
    }
    where.set(resource!, filters);
  }
  return where;
}

/** --sample 10% (or 0.1): a share in (0, 1]. */
export function parseShare(value: string): number {
  const percent = value.trim().endsWith('%');
  const n = Number(percent ? value.trim().slice(0, -1) : value);
  const share = percent ? n / 100 : n;
  if (!Number.isFinite(share) || share <= 0 || share > 1)
    throw new SyncUsageError(`--sample ${value}: expected a share such as 10% or 0.1 (more than 0, at most 100%).`);
  return share;
}

/** Stable: the first 32 bits of SHA-256 of the id, below the share. */
export function inSample(id: string, share: number): boolean {
  return createHash('sha256').update(id).digest().readUInt32BE(0) < share * 0x1_0000_0000;
}

/**
 * With `since`, what is chosen among the records changed after it (an incremental refresh of a
 * subset); what they point at is chosen too, changed or not, and the copy fetches those the target
 * lacks (copy.ts).
 */
export async function selectSubset(
  source: CrmClient,
  resources: readonly CopyResource[],
  spec: SubsetSpec,
  since?: string,
  onRows: (rows: number) => void = () => {},
): Promise<Map<CopyResource, Set<string>>> {
  const chosen = new Map<CopyResource, Set<string>>(COPY_RESOURCES.map((r) => [r, new Set<string>()]));
  const pointedAt: [CopyResource, string][] = [];
  const dealClient = new Map<string, string | null>();
  let rows = 0;
  for (const resource of resources) {
    const query: Record<string, string | number> = { limit: spec.limit ? Math.min(spec.limit, PAGE_SIZE) : PAGE_SIZE, ...spec.where.get(resource) };
    if (spec.limit || since) Object.assign(query, { sort: 'updated_at', ...(spec.limit ? { order: 'desc' } : {}) });
    if (since) query.updated_after = since;
    let taken = 0;
    pages: for await (const page of source.pages<SourceRecord>(`/v1/${resource}`, query)) {
      for (const record of page.data) {
        if (resource === 'deals') dealClient.set(record.id, (record.client_id as string | null) ?? null);
        if (spec.sample !== undefined && !inSample(record.id, spec.sample)) continue;
        chosen.get(resource)!.add(record.id);
        pointedAt.push(...referencesOf(resource, record));
        if (spec.limit && ++taken >= spec.limit) break pages;
      }
      onRows((rows += page.data.length));
    }
  }
  // Closure: a deal brought in by an invoice brings its own client.
  for (const [resource, id] of pointedAt) {
    chosen.get(resource)!.add(id);
    if (resource !== 'deals') continue;
    let client = dealClient.get(id);
    if (client === undefined) client = (await source.get<{ client_id: string | null }>(`/v1/deals/${encodeURIComponent(id)}`)).client_id;
    if (client) chosen.get('clients')!.add(client);
  }
  return chosen;
}
