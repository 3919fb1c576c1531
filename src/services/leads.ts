import { ApiError, notFound } from '../errors.js';
import type { Lead, LeadCreate, LeadListQuery, LeadUpdate } from '../schemas/lead.js';
import { commonConditions, type Condition } from '../store/list.js';
import { deleteLeadRow, findLead, insertLead, insertLeadRows, leadJsonSql, writeLead } from '../store/leads.js';
import { listTableJson, type JsonBody } from '../store/list-json.js';
import type { WithCustomFields } from '../domain/custom-field-query.js';
import { customFieldList } from './custom-field-filters.js';
import { sentFields } from './changes.js';
import { valuesForCreate, valuesForUpdate } from './custom-field-values.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { assertExternalIdFree } from './external-ids.js';
import { inTransaction } from './transactions.js';
import { recordEvent, recordEvents, saveUpdate } from './events.js';

export function getLead(ctx: Ctx, id: string): Lead {
  const lead = findLead(ctx.db, id);
  if (!lead) throw notFound('lead', id);
  return lead;
}

export function createLead(ctx: Ctx, input: LeadCreate): Lead {
  return inTransaction(ctx, () => {
    const lead = newLead(ctx, input);
    assertExternalIdFree(ctx, 'leads', input.external_id);
    insertLead(ctx.db, lead);
    recordEvent(ctx, 'lead.created', lead);
    return lead;
  });
}

/**
 * The lead a create makes, checked against the rules, before anything is written: createLead
 * writes one, and bulk writes a batch of them with insertLeads. external_id is the caller's to check.
 */
export function newLead(ctx: Ctx, input: LeadCreate): Lead {
  if (input.status === 'converted') {
    throw new ApiError('invalid_transition', 'A lead becomes converted only through POST /v1/leads/{id}/convert.');
  }
  const now = nowIso(ctx);
  return {
    id: ctx.ids.next('lead'),
    external_id: input.external_id ?? null,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    company: input.company ?? null,
    title: input.title ?? null,
    source: input.source ?? null,
    status: input.status ?? 'new',
    notes: input.notes ?? null,
    tags: input.tags ?? [],
    custom_fields: valuesForCreate(ctx, 'lead', input.custom_fields),
    converted_client_id: null,
    created_at: now,
    updated_at: now,
  };
}

/** Writes leads made by newLead, with their lead.created events, as createLead does one by one. */
export function insertLeads(ctx: Ctx, leads: Lead[]): void {
  insertLeadRows(ctx.db, leads);
  recordEvents(ctx, 'lead.created', leads);
}

/** Applies a partial update; a PATCH that changes nothing writes nothing and emits nothing. */
export function updateLead(ctx: Ctx, id: string, patch: LeadUpdate): Lead {
  return inTransaction(ctx, () => {
    const before = getLead(ctx, id);
    if (patch.status !== undefined && patch.status !== before.status) {
      if (patch.status === 'converted') {
        throw new ApiError('invalid_transition', 'A lead becomes converted only through POST /v1/leads/{id}/convert.');
      }
      if (before.status === 'converted') throw new ApiError('invalid_transition', 'A converted lead keeps its status.');
    }
    assertExternalIdFree(ctx, 'leads', patch.external_id, id);
    const after: Lead = { ...before, ...sentFields(patch), updated_at: nowIso(ctx) };
    if (patch.custom_fields !== undefined) after.custom_fields = valuesForUpdate(ctx, 'lead', before.custom_fields, patch.custom_fields);
    if (!after.first_name && !after.last_name && !after.email && !after.company) {
      throw new ApiError('validation_failed', 'A lead needs at least one of first_name, last_name, email or company.', {
        errors: [{ path: 'first_name', code: 'required', message: 'A lead needs at least one of first_name, last_name, email or company.' }],
      });
    }
    return saveUpdate(ctx, 'lead.updated', before, after, writeLead);
  });
}

export function deleteLead(ctx: Ctx, id: string): { id: string; deleted: true } {
  return inTransaction(ctx, () => {
    const lead = getLead(ctx, id);
    deleteLeadRow(ctx.db, id);
    recordEvent(ctx, 'lead.deleted', lead);
    return { id, deleted: true as const };
  });
}

/** A page of leads, as JSON text made by SQLite (store/list-json.ts: what export spends its server time on). */
export function listLeads(ctx: Ctx, q: WithCustomFields<LeadListQuery>): JsonBody {
  const conditions: Condition[] = commonConditions(q);
  if (q.status) conditions.push(['status = ?', [q.status]]);
  if (q.source) conditions.push(['source = ?', [q.source]]);
  return listTableJson(ctx.db, ctx.cursorSecret, 'leads', q, conditions, leadJsonSql(ctx.db), [], customFieldList(ctx, 'lead', q));
}

/** Marks a lead converted (called by the conversion use case, inside its transaction). */
export function markConverted(ctx: Ctx, lead: Lead, clientId: string): Lead {
  const after: Lead = { ...lead, status: 'converted', converted_client_id: clientId, updated_at: nowIso(ctx) };
  writeLead(ctx.db, after);
  return after;
}
