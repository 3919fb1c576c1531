import { createHash } from 'node:crypto';
import type { CrmClient } from '../../client/client.js';
import { CrmApiError } from '../../client/errors.js';
import type { BulkResponse } from '../../schemas/bulk.js';
import { MissingReference, bodyOf, type SourceRecord, type TargetIds } from './records.js';
import type { TargetContact, TargetIndex } from './target.js';
import type { CopyResource, Masker } from '../mask/rules.js';
import { classifyFailure } from '../send-failure.js';

/**
 * One page of clients, leads or deals into the target: each record made into its body (references
 * rewritten, masked), cut into bulk batches (`mode: upsert`, `match_on: external_id`) sent
 * --concurrency at a time, as `crm sync import` sends them. Each batch's Idempotency-Key is the
 * run's id and a hash of the batch, so a --resume replays what the killed run already sent (and
 * gets the same answers, hence exact counts), while a new run makes new requests (and learns
 * which records are unchanged). Converted leads are then converted into their copied client.
 */
type Status = 'created' | 'updated' | 'unchanged' | 'failed';
export interface Outcome {
  sourceId: string;
  status: Status;
  targetId?: string;
  code?: string;
  message?: string;
}

/** An id in a URL path: whatever a server answered, it stays one segment. */
export const seg = (id: string): string => encodeURIComponent(id);

/**
 * The Idempotency-Key of one step of one record in a run: the record's id hashed (a source's ids are
 * its own to choose; hashed, none can put a line break into a header or make the key too long).
 */
export const copyKey = (runId: string, recordId: string, step: string, payload = ''): string =>
  `crm-copy-${runId}-${createHash('sha256').update(recordId).digest('hex').slice(0, 24)}-${step}${payload ? `-${createHash('sha256').update(payload).digest('hex').slice(0, 32)}` : ''}`;

/** The target stopped taking requests (down past retries, or the key refused): the copy stops here, --resume goes on. */
export class CopyStopped extends Error {}

/**
 * A plan's record without the values of fields the plan would define: the target's dry run does not
 * know them yet, and would count the record failed where the copy will create it.
 */
function withoutPlannedFields(w: PageWriter, resource: string, body: Record<string, unknown>): Record<string, unknown> {
  const custom = body.custom_fields as Record<string, unknown> | undefined;
  if (!custom || !w.plannedFields?.size) return body;
  const object = resource.replace(/s$/, '');
  return { ...body, custom_fields: Object.fromEntries(Object.entries(custom).filter(([key]) => !w.plannedFields!.has(`${object}.${key}`))) };
}

/** In a plan, a reference to a record the plan would create: it has no id yet. */
class PlannedReference extends Error {}

export interface PageWriter {
  target: CrmClient;
  runId: string;
  plan: boolean;
  batchSize: number;
  concurrency: number;
  masker: Masker;
  index: TargetIndex;
  /** A plan: `object.key` of the fields it would define, which the target does not know yet. */
  plannedFields?: ReadonlySet<string>;
}

export async function writeBulkPage(w: PageWriter, resource: Exclude<CopyResource, 'invoices'>, records: SourceRecord[]): Promise<Outcome[]> {
  const ids: TargetIds = (to, id) => {
    const entry = w.index.get(to, id);
    if (entry && !entry.id) throw new PlannedReference();
    return entry?.id;
  };
  const outcomes: Outcome[] = [];
  const ready: { record: SourceRecord; body: Record<string, unknown> }[] = [];
  for (const record of records) {
    try {
      ready.push({ record, body: w.masker.mask(resource, bodyOf(resource, record, ids)) });
    } catch (error) {
      if (error instanceof PlannedReference) outcomes.push({ sourceId: record.id, status: 'created' });
      else if (error instanceof MissingReference) outcomes.push({ sourceId: record.id, status: 'failed', code: 'missing_reference', message: error.message });
      else throw error;
    }
  }
  const batches: (typeof ready)[] = [];
  for (let i = 0; i < ready.length; i += w.batchSize) batches.push(ready.slice(i, i + w.batchSize));
  await inPool(batches, w.concurrency, async (batch) => void outcomes.push(...(await sendBatch(w, resource, batch))));
  if (resource === 'deals') await reopenDeals(w, ready, outcomes);
  if (resource === 'clients') await dropLeftContacts(w, ready, outcomes);
  for (const o of outcomes)
    if (o.status !== 'failed')
      w.index.set(resource, o.sourceId, { id: o.targetId ?? '', ...(resource === 'leads' && o.status === 'created' ? { status: 'new' } : {}) });
  if (resource === 'leads') await convertLeads(w, records, outcomes);
  return outcomes;
}

async function sendBatch(w: PageWriter, resource: string, batch: { record: SourceRecord; body: Record<string, unknown> }[]): Promise<Outcome[]> {
  const records = w.plan ? batch.map((b) => withoutPlannedFields(w, resource, b.body)) : batch.map((b) => b.body);
  const body = Buffer.from(JSON.stringify({ mode: 'upsert', match_on: 'external_id', records, ...(w.plan ? { dry_run: true } : {}) }));
  const key = `crm-copy-${w.runId}-${createHash('sha256').update(`${resource}\n`).update(body).digest('hex').slice(0, 40)}`;
  let response: BulkResponse;
  try {
    response = await w.target.request<BulkResponse>('POST', `/v1/${resource}/bulk`, { bodyText: body, idempotencyKey: key });
  } catch (error) {
    const failure = classifyFailure(error);
    if (failure.stops) throw new CopyStopped(failure.message);
    return batch.map((b) => ({ sourceId: b.record.id, status: 'failed', code: failure.code, message: failure.message }));
  }
  return response.results.map((r) => {
    const sourceId = batch[r.index]!.record.id;
    if (r.status === 'failed') return { sourceId, status: 'failed', code: r.error?.code ?? 'failed', message: r.error?.message ?? '' };
    return { sourceId, status: r.status, ...(r.id ? { targetId: r.id } : {}) };
  });
}

/**
 * Contact persons the source client no longer has: the bulk upsert never deletes one (docs/api.md#bulk-api),
 * so the copy does (DELETE /v1/clients/{id}/contacts/{contact_id}), matching as the server matches
 * (email, else first and last name; twins in order) against the target's contacts before the write.
 */
async function dropLeftContacts(w: PageWriter, ready: { record: SourceRecord; body: Record<string, unknown> }[], outcomes: Outcome[]): Promise<void> {
  const byId = new Map(outcomes.map((o) => [o.sourceId, o]));
  for (const { record, body } of ready) {
    const outcome = byId.get(record.id);
    const before = w.index.get('clients', record.id)?.contacts;
    if (!outcome || outcome.status === 'failed' || outcome.status === 'created' || !before?.length) continue;
    const left = leftOver(before, (body.contacts ?? []) as ContactBody[]);
    if (left.length === 0) continue;
    outcome.status = 'updated';
    if (w.plan) continue;
    for (const contact of left) {
      try {
        await w.target.request('DELETE', `/v1/clients/${seg(outcome.targetId!)}/contacts/${seg(contact.id)}`, {
          idempotencyKey: copyKey(w.runId, contact.id, 'delete'),
        });
      } catch (error) {
        if (error instanceof CrmApiError && error.status === 404) continue; // gone already
        const failure = classifyFailure(error);
        if (failure.stops) throw new CopyStopped(failure.message);
        Object.assign(outcome, {
          status: 'failed',
          code: failure.code,
          message: `Copied, but a contact person the source no longer has was not deleted: ${failure.message}`,
        });
      }
    }
  }
}

type ContactBody = { first_name?: string | null; last_name?: string | null; email?: string | null };

function leftOver(existing: TargetContact[], incoming: ContactBody[]): TargetContact[] {
  const taken = new Set<string>();
  for (const c of incoming) {
    const same = (e: TargetContact) =>
      c.email ? e.email?.toLowerCase() === c.email.toLowerCase() : e.first_name === (c.first_name ?? null) && e.last_name === (c.last_name ?? null);
    const match = existing.find((e) => !taken.has(e.id) && same(e));
    if (match) taken.add(match.id);
  }
  return existing.filter((e) => !taken.has(e.id));
}

const CLOSED = new Set(['won', 'lost']);

/**
 * A deal won or lost in the target that the source has since reopened (or closed the other way)
 * is refused by the upsert (a closed deal moves only through reopen): it is reopened in the
 * target (POST /v1/deals/{id}/reopen, to the source's stage, or to negotiation on its way to the
 * other closed stage) and sent again, so its stage follows the source's as the API allows.
 */
async function reopenDeals(w: PageWriter, ready: { record: SourceRecord; body: Record<string, unknown> }[], outcomes: Outcome[]): Promise<void> {
  const byId = new Map(outcomes.map((o) => [o.sourceId, o]));
  const refused = ready.filter((r) => {
    const outcome = byId.get(r.record.id);
    return outcome?.status === 'failed' && outcome.code === 'invalid_transition' && w.index.get('deals', r.record.id)?.id;
  });
  if (refused.length === 0) return;
  const again = new Set(refused.map((r) => r.record.id));
  const kept = outcomes.filter((o) => !again.has(o.sourceId));
  if (w.plan) {
    kept.push(...refused.map((r) => ({ sourceId: r.record.id, status: 'updated' as const, targetId: w.index.get('deals', r.record.id)!.id })));
  } else {
    for (const r of refused) {
      const stage = String(r.record.stage);
      const to = CLOSED.has(stage) ? 'negotiation' : stage;
      try {
        await w.target.request('POST', `/v1/deals/${seg(w.index.get('deals', r.record.id)!.id)}/reopen`, {
          body: { stage: to },
          idempotencyKey: copyKey(w.runId, r.record.id, 'reopen'),
        });
      } catch (error) {
        const failure = classifyFailure(error);
        if (failure.stops) throw new CopyStopped(failure.message);
      }
    }
    kept.push(...(await sendBatch(w, 'deals', refused)).map((o) => (o.status === 'unchanged' ? { ...o, status: 'updated' as const } : o)));
  }
  outcomes.splice(0, outcomes.length, ...kept);
}

/**
 * A converted source lead: its target lead is converted into the target's copy of its client
 * (POST /v1/leads/{id}/convert with client_id), once; after that a rerun finds it converted.
 */
async function convertLeads(w: PageWriter, records: SourceRecord[], outcomes: Outcome[]): Promise<void> {
  const byId = new Map(outcomes.map((o) => [o.sourceId, o]));
  for (const record of records) {
    const outcome = byId.get(record.id);
    if (record.status !== 'converted' || !outcome || outcome.status === 'failed') continue;
    const current = w.index.get('leads', record.id);
    if (current?.status === 'converted') continue;
    const client = w.index.get('clients', String(record.converted_client_id ?? ''));
    if (!client) {
      Object.assign(outcome, {
        status: 'failed',
        code: 'missing_reference',
        message: `Copied, but not converted: its client ${String(record.converted_client_id)} is not in the target (not copied, or failed).`,
      });
      continue;
    }
    if (outcome.status === 'unchanged') outcome.status = 'updated';
    if (w.plan || !outcome.targetId) continue;
    try {
      await w.target.request('POST', `/v1/leads/${seg(outcome.targetId)}/convert`, {
        body: { client_id: client.id },
        idempotencyKey: copyKey(w.runId, record.id, 'convert'),
      });
    } catch (error) {
      if (error instanceof CrmApiError && error.code === 'invalid_transition') continue; // converted meanwhile: what was wanted
      const failure = classifyFailure(error);
      if (failure.stops) throw new CopyStopped(failure.message);
      Object.assign(outcome, { status: 'failed', code: failure.code, message: `Copied, but not converted: ${failure.message}` });
    }
    w.index.set('leads', record.id, { id: outcome.targetId, status: 'converted' });
  }
}

/**
 * Runs `work` over the items, `width` at a time. After a failure no new item starts, and the
 * failure is thrown only once every item in flight has settled: nothing of this page may still be
 * writing when the caller closes its files (a late write could land in a reused descriptor).
 */
export async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      try {
        await work(items[next++]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  if (failure) throw failure.error;
}
