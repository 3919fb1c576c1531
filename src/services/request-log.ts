import type { Ctx } from './context.js';
import { listTable, type Condition } from '../store/list.js';
import { keyPrefix } from '../store/api-keys.js';
import { countRequestLogRows, dropOldestRequestLogs, findRequestLogRow, insertRequestLogRows } from '../store/request-log.js';
import type { Row } from '../store/rows.js';
import { bookkeepingWrite } from '../store/list-json.js';
import { notFound } from '../errors.js';
import type { RequestLog, RequestLogListQuery } from '../schemas/request-log.js';
import { mayHoldSecrets, redactedJson, redactText } from './redact.js';
import type { RequestSource } from '../schemas/request-source.js';

/** How many requests the log keeps (docs/dashboard.md#the-request-log), and how much of each body. */
export const KEEP = 10_000;
export const BODY_LIMIT = 64 * 1024;

/**
 * A body as the log keeps it: redacted JSON text, cut at 64 KB; non-JSON text only redacted of
 * known key shapes. A parsed body may come with its `text` as sent.
 */
export function logBody(body: unknown, text?: string): string | null {
  if (body === undefined || body === null || body === '') return null;
  // The text as it came, cut, when nothing in what is kept can be a secret: a write's response is
  // the server's own JSON, and a bulk call's ~60 KB of results (and the first 64 KB of its ~300 KB
  // body) were parsed or copied member by member for nothing (~2 ms a call). A secret cut in two at
  // the end leaves at most its first characters, never enough to be one.
  const sent = typeof body === 'string' ? body : text;
  if (sent !== undefined) {
    const kept = sent.slice(0, BODY_LIMIT);
    if (!mayHoldSecrets(kept)) return kept.length < sent.length ? ownCopy(kept) : kept;
  }
  if (typeof body !== 'string') return redactedJson(body, BODY_LIMIT);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return redactText(body).slice(0, BODY_LIMIT);
  }
  return redactedJson(parsed, BODY_LIMIT);
}

/**
 * A string of its own with the same characters: V8 makes a slice of a long string a view that keeps
 * all of it alive, and a bulk body's ~300 KB would stay in memory until the log is written (up to
 * 500 requests later). UTF-16 both ways: any string, lone surrogates included, comes back the same.
 */
const ownCopy = (text: string): string => Buffer.from(text, 'utf16le').toString('utf16le');

export interface RequestRecord {
  id: string;
  method: string;
  path: string;
  query: string | null;
  status: number;
  duration_ms: number;
  key_id: string | null;
  idempotency_key: string | null;
  idempotent_replayed: boolean;
  source: RequestSource;
  request_body: string | null;
  response_body: string | null;
  created_at: string;
}

/** Records wait this long at most, or until there are this many, before one transaction writes them. */
const FLUSH_MS = 50;
const FLUSH_AT = 500;

/**
 * Writes the log, dropping the oldest rows past 10,000 (the count is kept in memory after one
 * query at start). Records are written in batches, one transaction per 50 ms or 500 records: a
 * commit per request was 13 % of the server's CPU under a list load (docs/benchmarks.md). Readers
 * flush first, so a request is in the log the moment anyone can ask for it; a SIGKILL loses at
 * most the last 50 ms of the log (never data: the log is a record of requests, not of writes).
 */
export class RequestLogWriter {
  private count: number;
  private pending: RequestRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly prefixes = new Map<string, string | null>();

  constructor(private readonly ctx: Ctx) {
    this.count = countRequestLogRows(ctx.db);
  }

  record(r: RequestRecord): void {
    this.pending.push(r);
    if (this.pending.length >= FLUSH_AT) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const db = this.ctx.db;
    if (this.pending.length === 0 || !db.open) return;
    const batch = this.pending;
    this.pending = [];
    const rows = batch.map((r) => ({
      id: r.id,
      method: r.method,
      path: r.path,
      query: r.query,
      status: r.status,
      duration_ms: r.duration_ms,
      key_id: r.key_id,
      key_prefix: this.prefix(r.key_id),
      idempotency_key: r.idempotency_key,
      idempotent_replayed: r.idempotent_replayed ? 1 : 0,
      source: r.source,
      request_body: r.request_body,
      response_body: r.response_body,
      created_at: r.created_at,
    }));
    // No list page is made of the log: its writes keep them (every 50 ms under load).
    bookkeepingWrite(
      db,
      db.transaction(() => {
        insertRequestLogRows(db, rows); // a hundred a statement
        this.count += batch.length;
        if (this.count > KEEP) {
          dropOldestRequestLogs(db, this.count - KEEP);
          this.count = countRequestLogRows(db);
        }
      }),
    );
  }

  /** A key's prefix, for the log's key column (keys never change their prefix: cached). */
  private prefix(keyId: string | null): string | null {
    if (!keyId?.startsWith('key_')) return null;
    if (!this.prefixes.has(keyId)) this.prefixes.set(keyId, keyPrefix(this.ctx.db, keyId) ?? null);
    return this.prefixes.get(keyId)!;
  }
}

const view = (row: Row): RequestLog => ({
  id: row.id as string,
  method: row.method as string,
  path: row.path as string,
  query: (row.query as string | null) ?? null,
  status: row.status as number,
  duration_ms: row.duration_ms as number,
  key_id: (row.key_id as string | null) ?? null,
  key_prefix: (row.key_prefix as string | null) ?? null,
  idempotency_key: (row.idempotency_key as string | null) ?? null,
  idempotent_replayed: row.idempotent_replayed === 1,
  source: row.source as RequestSource,
  created_at: row.created_at as string,
});

export function listRequestLogs(ctx: Ctx, q: RequestLogListQuery) {
  const conditions: Condition[] = [];
  if (q.status !== undefined) conditions.push(['status = ?', [q.status]]);
  if (q.method !== undefined) conditions.push(['method = ?', [q.method]]);
  // substr, not LIKE: a prefix with % or _ in it means itself.
  if (q.path_prefix !== undefined) conditions.push(['substr(path, 1, ?) = ?', [q.path_prefix.length, q.path_prefix]]);
  if (q.key_id !== undefined) conditions.push(['key_id = ?', [q.key_id]]);
  if (q.source !== undefined) conditions.push(['source = ?', [q.source]]);
  if (q.created_after !== undefined) conditions.push(['created_at > ?', [new Date(q.created_after).toISOString()]]);
  return listTable(ctx.db, ctx.cursorSecret, 'request_logs', q, conditions, (rows) => rows.map(view));
}

export function getRequestLog(ctx: Ctx, id: string) {
  const row = findRequestLogRow(ctx.db, id);
  if (!row) throw notFound('request log entry', id);
  return { ...view(row), request_body: parse(row.request_body), response_body: parse(row.response_body) };
}

/** Bodies come back as JSON when they are whole JSON, else as the (cut) text. */
function parse(text: unknown): unknown {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
