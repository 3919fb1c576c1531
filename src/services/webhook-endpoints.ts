import { notFound } from '../errors.js';
import type { WebhookEndpoint, WebhookEndpointCreate, WebhookEndpointUpdate } from '../schemas/webhook.js';
import {
  deleteEndpointRow,
  disableEndpoint,
  findEndpoint,
  insertEndpoint,
  listEndpointPage,
  writeEndpoint,
  type EndpointRecord,
} from '../store/webhook-endpoints.js';
import { generateWebhookSecret } from '../domain/webhook-signature.js';
import { sentFields } from './changes.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { inTransaction } from './transactions.js';
import { signalOutbox } from './outbox-signal.js';

/** After a rotation the old secret keeps signing beside the new one this long (docs/webhooks.md). */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** The endpoint as the API shows it: secrets only at creation and rotation. */
function view(e: EndpointRecord): WebhookEndpoint {
  const { secret: _s, previous_secret: _p, ...shown } = e;
  return shown;
}

function getRecord(ctx: Ctx, id: string): EndpointRecord {
  const record = findEndpoint(ctx.db, id);
  if (!record) throw notFound('webhook endpoint', id);
  return record;
}

export const getWebhookEndpoint = (ctx: Ctx, id: string): WebhookEndpoint => view(getRecord(ctx, id));

/** The secrets a delivery is signed with right now: the current one, and the previous one within 24 h of a rotation. */
export function signingSecrets(e: { secret: string; previous_secret: string | null; previous_secret_expires_at: string | null }, now: number): string[] {
  const previousValid = e.previous_secret && e.previous_secret_expires_at && Date.parse(e.previous_secret_expires_at) > now;
  return previousValid ? [e.secret, e.previous_secret!] : [e.secret];
}

export function createWebhookEndpoint(ctx: Ctx, input: WebhookEndpointCreate): WebhookEndpoint & { secret: string } {
  const now = nowIso(ctx);
  const record: EndpointRecord = {
    id: ctx.ids.next('we'),
    url: input.url,
    description: input.description ?? null,
    enabled_events: input.enabled_events,
    status: 'enabled',
    disabled_reason: null,
    previous_secret_expires_at: null,
    created_at: now,
    updated_at: now,
    secret: generateWebhookSecret(),
    previous_secret: null,
  };
  insertEndpoint(ctx.db, record);
  return { ...view(record), secret: record.secret };
}

export function listWebhookEndpoints(ctx: Ctx, q: { limit: number; cursor?: string | undefined }) {
  const page = listEndpointPage(ctx.db, ctx.cursorSecret, q);
  return { data: page.records.map(view), next_cursor: page.next_cursor };
}

export function updateWebhookEndpoint(ctx: Ctx, id: string, patch: WebhookEndpointUpdate): WebhookEndpoint {
  return inTransaction(ctx, () => {
    const before = getRecord(ctx, id);
    const after: EndpointRecord = { ...before, ...sentFields(patch), updated_at: nowIso(ctx) };
    if (patch.status === 'enabled') after.disabled_reason = null;
    writeEndpoint(ctx.db, after);
    // Re-enabled: deliveries held while it was disabled are due again.
    if (before.status === 'disabled' && after.status === 'enabled') signalOutbox(ctx.db);
    return view(after);
  });
}

export function deleteWebhookEndpoint(ctx: Ctx, id: string): { id: string; deleted: true } {
  getRecord(ctx, id);
  deleteEndpointRow(ctx.db, id); // its delivery attempts go with it (ON DELETE CASCADE)
  return { id, deleted: true as const };
}

/**
 * A new secret, shown once; the old one keeps signing beside it for 24 h so receivers can switch
 * without losing a delivery — unless `expireOld`: a leaked secret must stop signing at once, and
 * so must one still in its 24 h from an earlier rotation.
 */
export function rotateWebhookSecret(ctx: Ctx, id: string, expireOld = false): WebhookEndpoint & { secret: string } {
  return inTransaction(ctx, () => {
    const before = getRecord(ctx, id);
    const after: EndpointRecord = {
      ...before,
      secret: generateWebhookSecret(),
      previous_secret: expireOld ? null : before.secret,
      previous_secret_expires_at: expireOld ? null : new Date(ctx.clock() + ROTATION_OVERLAP_MS).toISOString(),
      updated_at: nowIso(ctx),
    };
    writeEndpoint(ctx.db, after);
    return { ...view(after), secret: after.secret };
  });
}

/** Called by the worker when an endpoint answers 410 Gone: it asked to receive nothing more. */
export function disableGoneEndpoint(ctx: Ctx, id: string): void {
  disableEndpoint(ctx.db, id, 'The endpoint answered 410 Gone.', nowIso(ctx));
}
