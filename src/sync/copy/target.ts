import type { CrmClient } from '../../client/client.js';
import type { Invoice } from '../../schemas/invoice.js';
import { PAGE_SIZE } from '../export/export.js';
import type { CopyResource } from '../mask/rules.js';

/**
 * What the target already holds of an earlier copy, read once per resource before it is written:
 * each copied record by its external_id (= the source record's id). It gives the id map for
 * references to records this run does not send (unchanged, or outside --since), the state a lead
 * or invoice is in (conversion and invoice transitions are not bulk upserts), and the records a
 * source deletion would prune. Records the copy did not make (no external_id, or one that is not a
 * source id of that resource) are never touched.
 */
export interface TargetEntry {
  id: string;
  /** leads: their status; invoices: theirs. */
  status?: string;
  /** invoices: the whole record, to compare a draft's fields. */
  invoice?: Invoice;
  /** clients: their contact persons, to find those the source no longer has. */
  contacts?: TargetContact[];
}

export interface TargetContact {
  id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}

/** Source ids of a resource: the id prefixes of docs/reference/basics.md#ids-times-money (lead_, cli_, deal_, inv_). */
const ID_PREFIX: Record<CopyResource, string> = { clients: 'cli_', leads: 'lead_', deals: 'deal_', invoices: 'inv_' };

export class TargetIndex {
  private readonly entries = new Map<CopyResource, Map<string, TargetEntry>>();

  static async read(
    client: CrmClient,
    resources: readonly CopyResource[],
    onPage: (resource: CopyResource, rows: number) => void = () => {},
  ): Promise<TargetIndex> {
    const index = new TargetIndex();
    for (const resource of resources) {
      const map = new Map<string, TargetEntry>();
      index.entries.set(resource, map);
      let rows = 0;
      for await (const page of client.pages<Record<string, unknown>>(`/v1/${resource}`, { limit: PAGE_SIZE })) {
        for (const record of page.data) {
          const external = record.external_id;
          if (typeof external !== 'string' || !external.startsWith(ID_PREFIX[resource])) continue;
          map.set(external, {
            id: record.id as string,
            ...(typeof record.status === 'string' ? { status: record.status } : {}),
            ...(resource === 'invoices' ? { invoice: record as unknown as Invoice } : {}),
            ...(resource === 'clients'
              ? { contacts: (record.contacts as TargetContact[]).map(({ id, first_name, last_name, email }) => ({ id, first_name, last_name, email })) }
              : {}),
          });
        }
        rows += page.data.length;
        onPage(resource, rows);
      }
    }
    return index;
  }

  get(resource: CopyResource, sourceId: string): TargetEntry | undefined {
    return this.entries.get(resource)?.get(sourceId);
  }

  /** After a write: the record now exists in the target under this id. */
  set(resource: CopyResource, sourceId: string, entry: TargetEntry): void {
    let map = this.entries.get(resource);
    if (!map) this.entries.set(resource, (map = new Map()));
    map.set(sourceId, { ...map.get(sourceId), ...entry });
  }

  sourceIds(resource: CopyResource): IterableIterator<string> {
    return (this.entries.get(resource) ?? new Map<string, TargetEntry>()).keys();
  }
}
