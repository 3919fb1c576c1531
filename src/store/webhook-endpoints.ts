import type { WebhookEndpoint } from '../schemas/webhook.js';
import type { Db } from './db.js';
import { listPage } from './list.js';
import { deleteRow, getRow, insertRow, json, parseJson, stmt, updateRow, type Row } from './rows.js';

/** An endpoint as stored: with its signing secret, and the previous one during a rotation. */
export type EndpointRecord = WebhookEndpoint & { secret: string; previous_secret: string | null };

function fromRow(row: Row): EndpointRecord {
  return {
    id: String(row.id),
    url: String(row.url),
    description: row.description as string | null,
    enabled_events: parseJson<string[]>(row.enabled_events as string, ['*']),
    status: row.status as WebhookEndpoint['status'],
    disabled_reason: row.disabled_reason as string | null,
    previous_secret_expires_at: row.previous_secret_expires_at as string | null,
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
    secret: String(row.secret),
    previous_secret: row.previous_secret as string | null,
  };
}

function toRow(e: EndpointRecord): Row {
  return { ...e, enabled_events: json(e.enabled_events) };
}

export function findEndpoint(db: Db, id: string): EndpointRecord | undefined {
  const row = getRow(db, 'webhook_endpoints', id);
  return row && fromRow(row);
}

export const insertEndpoint = (db: Db, e: EndpointRecord): void => insertRow(db, 'webhook_endpoints', toRow(e));

/** Writes every field of a stored endpoint. */
export const writeEndpoint = (db: Db, e: EndpointRecord): void => updateRow(db, 'webhook_endpoints', toRow(e));

/** Deletes the endpoint; its delivery attempts go with it (ON DELETE CASCADE). */
export const deleteEndpointRow = (db: Db, id: string): boolean => deleteRow(db, 'webhook_endpoints', id);

export function listEndpointPage(db: Db, cursorSecret: string, q: { limit: number; cursor?: string | undefined }) {
  const page = listPage(db, {
    table: 'webhook_endpoints',
    conditions: [],
    filters: {},
    sort: 'created',
    limit: q.limit,
    cursor: q.cursor,
    secret: cursorSecret,
  });
  return { records: page.rows.map(fromRow), next_cursor: page.next_cursor };
}

/** The enabled endpoints with the event types each takes (JSON text); `byId` orders them by id. */
export const enabledEndpoints = (db: Db, byId = false): { id: string; enabled_events: string }[] =>
  (byId
    ? stmt(db, "SELECT id, enabled_events FROM webhook_endpoints WHERE status = 'enabled' ORDER BY id").all()
    : stmt(db, "SELECT id, enabled_events FROM webhook_endpoints WHERE status = 'enabled'").all()) as { id: string; enabled_events: string }[];

export function disableEndpoint(db: Db, id: string, reason: string, now: string): void {
  stmt(db, "UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ?, updated_at = ? WHERE id = ?").run(reason, now, id);
}
