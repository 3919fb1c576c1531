import { ApiError } from '../errors.js';
import { externalIdHolder, type RecordTable } from '../store/records.js';
import type { Ctx } from './context.js';

/** external_id is unique per resource: a second record with the same one is a 409 conflict. */
export function assertExternalIdFree(ctx: Ctx, table: RecordTable, externalId: string | null | undefined, exceptId = ''): void {
  if (externalId === null || externalId === undefined) return;
  const holder = externalIdHolder(ctx.db, table, externalId, exceptId);
  if (holder) throw new ApiError('conflict', `external_id '${externalId}' is already used by ${String(holder)}.`);
}
