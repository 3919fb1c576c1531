import { sumToMajor, toMajor, toMinor } from '../domain/money.js';
import { STAGES, STAGE_PROBABILITY, checkTransition, type Stage, type StageChange } from '../domain/pipeline.js';
import { fieldError, notFound } from '../errors.js';
import type { Deal, DealCreate, DealListQuery, DealSummary, DealSummaryQuery, DealUpdate } from '../schemas/deal.js';
import type { EventType } from '../schemas/event.js';
import { dealStageTotals } from '../store/deal-summary.js';
import { dealJsonSql, deleteDealRow, findDeal, insertDeal, writeDeal } from '../store/deals.js';
import { unlinkInvoicesFromDeal } from '../store/invoices.js';
import { commonConditions, type Condition } from '../store/list.js';
import { listTableJson, type JsonBody } from '../store/list-json.js';
import type { WithCustomFields } from '../domain/custom-field-query.js';
import { customFieldList } from './custom-field-filters.js';
import { recordExists } from '../store/records.js';
import { searchCondition } from '../store/search-index.js';
import { changedAttributes, sentFields } from './changes.js';
import { valuesForCreate, valuesForUpdate } from './custom-field-values.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { assertExternalIdFree } from './external-ids.js';
import { inTransaction } from './transactions.js';
import { recordEvent } from './events.js';

export function getDeal(ctx: Ctx, id: string): Deal {
  const deal = findDeal(ctx.db, id);
  if (!deal) throw notFound('deal', id);
  return deal;
}

function assertClientExists(ctx: Ctx, clientId: string | null | undefined, path = 'client_id'): void {
  // `!= null`, not truthiness: an empty string names no client and must be refused, not stored.
  if (clientId != null && !recordExists(ctx.db, 'clients', clientId)) throw fieldError(path, 'not_found', `No client with id '${clientId}'.`);
}

/** won_at / lost_at follow the stage: set when a deal enters won or lost, cleared when it leaves. */
function closingTimes(stage: Stage, before: Pick<Deal, 'won_at' | 'lost_at'> | undefined, now: string) {
  return {
    won_at: stage === 'won' ? (before?.won_at ?? now) : null,
    lost_at: stage === 'lost' ? (before?.lost_at ?? now) : null,
  };
}

export function createDeal(ctx: Ctx, input: DealCreate): Deal {
  const valueMinor = toMinor(input.value, input.currency, 'value');
  return inTransaction(ctx, () => {
    assertExternalIdFree(ctx, 'deals', input.external_id);
    assertClientExists(ctx, input.client_id);
    const now = nowIso(ctx);
    const deal: Deal = {
      id: ctx.ids.next('deal'),
      external_id: input.external_id ?? null,
      title: input.title,
      // As stored, so 0.1 + 0.2 comes back as 0.3, the same as every later read.
      value: toMajor(valueMinor, input.currency),
      currency: input.currency,
      stage: input.stage,
      win_probability: input.win_probability ?? STAGE_PROBABILITY[input.stage],
      client_id: input.client_id ?? null,
      expected_close_date: input.expected_close_date ?? null,
      ...closingTimes(input.stage, undefined, now),
      lost_reason: input.lost_reason ?? null,
      tags: input.tags ?? [],
      custom_fields: valuesForCreate(ctx, 'deal', input.custom_fields),
      created_at: now,
      updated_at: now,
    };
    insertDeal(ctx.db, deal, valueMinor);
    recordEvent(ctx, 'deal.created', deal);
    if (deal.stage === 'won') recordEvent(ctx, 'deal.won', deal);
    if (deal.stage === 'lost') recordEvent(ctx, 'deal.lost', deal);
    return deal;
  });
}

/**
 * Every change to a deal goes through here: a PATCH, and the win/lose/reopen actions. A move
 * into won or lost emits deal.won / deal.lost (once, with the changed fields); any other change
 * emits deal.updated; a change that changes nothing writes nothing.
 */
function changeDeal(ctx: Ctx, id: string, patch: DealUpdate, via: StageChange): Deal {
  return inTransaction(ctx, () => {
    const before = getDeal(ctx, id);
    const stage = patch.stage ?? before.stage;
    if (patch.stage !== undefined || via !== 'patch') checkTransition(before.stage, stage, via);
    assertExternalIdFree(ctx, 'deals', patch.external_id, id);
    if (patch.client_id !== undefined) assertClientExists(ctx, patch.client_id);
    const now = nowIso(ctx);
    const stageChanged = stage !== before.stage;
    const after: Deal = {
      ...before,
      ...sentFields(patch),
      stage,
      win_probability: patch.win_probability ?? (stageChanged ? STAGE_PROBABILITY[stage] : before.win_probability),
      ...closingTimes(stage, before, now),
      updated_at: now,
    };
    if (via === 'reopen') after.lost_reason = null;
    if (patch.custom_fields !== undefined) after.custom_fields = valuesForUpdate(ctx, 'deal', before.custom_fields, patch.custom_fields);
    const valueMinor = toMinor(after.value, after.currency, 'value');
    after.value = toMajor(valueMinor, after.currency); // as stored, so a float artefact is no change
    const previous = changedAttributes(before, after);
    if (!previous) return before;
    writeDeal(ctx.db, after, valueMinor);
    const type: EventType = stageChanged && stage === 'won' ? 'deal.won' : stageChanged && stage === 'lost' ? 'deal.lost' : 'deal.updated';
    recordEvent(ctx, type, after, previous);
    return after;
  });
}

export const updateDeal = (ctx: Ctx, id: string, patch: DealUpdate): Deal => changeDeal(ctx, id, patch, 'patch');
export const winDeal = (ctx: Ctx, id: string): Deal => changeDeal(ctx, id, { stage: 'won' }, 'win');
export const loseDeal = (ctx: Ctx, id: string, reason?: string): Deal =>
  changeDeal(ctx, id, reason === undefined ? { stage: 'lost' } : { stage: 'lost', lost_reason: reason }, 'lose');
export const reopenDeal = (ctx: Ctx, id: string, stage: Stage): Deal => changeDeal(ctx, id, { stage }, 'reopen');

export function deleteDeal(ctx: Ctx, id: string): { id: string; deleted: true } {
  return inTransaction(ctx, () => {
    const deal = getDeal(ctx, id);
    unlinkInvoicesFromDeal(ctx.db, id, nowIso(ctx));
    deleteDealRow(ctx.db, id);
    recordEvent(ctx, 'deal.deleted', deal);
    return { id, deleted: true as const };
  });
}

export function listDeals(ctx: Ctx, q: WithCustomFields<DealListQuery>): JsonBody {
  const conditions: Condition[] = commonConditions(q);
  if (q.stage) conditions.push(['stage = ?', [q.stage]]);
  if (q.client_id) conditions.push(['client_id = ?', [q.client_id]]);
  return listTableJson(ctx.db, ctx.cursorSecret, 'deals', q, conditions, dealJsonSql(ctx.db), [], customFieldList(ctx, 'deal', q));
}

/**
 * Each stage's count and value per currency, for the deals a list with the same filters would
 * return (GET /v1/deals/summary): what a board's column heads show without fetching every deal.
 * Exact totals, summed in SQL over the stored minor units (store/deal-summary.ts).
 */
export function summarizeDeals(ctx: Ctx, q: DealSummaryQuery): DealSummary {
  const conditions: Condition[] = commonConditions(q);
  if (q.client_id) conditions.push(['client_id = ?', [q.client_id]]);
  if (q.q !== undefined) conditions.push(searchCondition(ctx.db, 'deals', q.q, false).condition);
  const rows = dealStageTotals(ctx.db, conditions);
  const stages = STAGES.map((stage) => ({ stage, count: 0, totals: [] as DealSummary['stages'][number]['totals'] }));
  for (const row of rows) {
    const entry = stages.find((s) => s.stage === row.stage);
    if (!entry) continue; // only the API writes deals, always in one of the pipeline's stages
    entry.count += row.count;
    entry.totals.push({ currency: row.currency, count: row.count, value: sumToMajor(row.minor, row.currency) });
  }
  return { count: stages.reduce((n, s) => n + s.count, 0), stages };
}
