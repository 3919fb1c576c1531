// The dashboard talks to the public /v1 API with its session cookie (HttpOnly: this script never
// sees it). Every request carries X-CRM-Dashboard: 1, without which the server ignores the cookie.
import { signal } from '@preact/signals';
import { hasScope } from '../../src/domain/scopes.js';

export interface Me {
  key_id: string;
  scopes: string[];
}

export const me = signal<Me | null | undefined>(undefined);

/** One entry of an RFC 9457 problem's `errors` (validation): `path` is dotted, e.g. `address.country`. */
export interface FieldProblem {
  path: string;
  code: string;
  message: string;
}

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors: FieldProblem[] = [],
    /** Seconds to wait before asking again (Retry-After of a 429 or 503), when the answer said. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

export async function api<T = any>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const response = await send(method, path, body, extraHeaders);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const parsed = text && /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  if (!response.ok) throw problemOf(response, path, parsed);
  return parsed as T;
}

/**
 * A request whose answer is read as it arrives (the assistant's Server-Sent Events, which an
 * EventSource cannot ask for: it only GETs): the response once its status is a success, else the
 * API's problem, thrown as `api` throws it.
 */
export async function apiStream(method: string, path: string, body: unknown, signal: AbortSignal): Promise<Response> {
  const response = await send(method, path, body, { accept: 'text/event-stream' }, signal);
  if (response.ok) return response;
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  throw problemOf(response, path, parsed);
}

function send(method: string, path: string, body: unknown, extraHeaders: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { ...extraHeaders, 'x-crm-dashboard': '1' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
  });
}

function problemOf(response: Response, path: string, parsed: unknown): ApiProblem {
  if (response.status === 401 && path !== '/dashboard/session') me.value = null;
  const problem = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { code?: string; detail?: string; errors?: unknown };
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  return new ApiProblem(
    response.status,
    problem.code ?? 'error',
    problem.detail ?? `HTTP ${response.status}`,
    errors,
    retryAfterSeconds(response.headers.get('retry-after')),
  );
}

/** Retry-After as seconds: a number of seconds or an HTTP date (RFC 9110); undefined when absent or unreadable. */
function retryAfterSeconds(header: string | null): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Whether the signed-in key holds `scope`, by the server's own rule. */
export const can = (scope: string): boolean => hasScope(me.value?.scopes ?? [], scope);

/** Every record of a /v1 list, 1000 a page: for the few lists that stay small (API keys). */
export async function all<T>(path: string): Promise<T[]> {
  const sep = path.includes('?') ? '&' : '?';
  let cursor: string | null = null;
  let kept: T[] = [];
  do {
    const page: { data: T[]; next_cursor: string | null } = await api('GET', `${path}${sep}limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    kept = [...kept, ...page.data];
    cursor = page.next_cursor;
  } while (cursor);
  return kept;
}

/** The newest `count` (≤ 1000) entries of a /v1 list that takes `order=desc`, newest first. */
export async function newest<T>(path: string, count: number): Promise<T[]> {
  const sep = path.includes('?') ? '&' : '?';
  const page: { data: T[] } = await api('GET', `${path}${sep}order=desc&limit=${count}`);
  return page.data;
}

/**
 * A fresh Idempotency-Key (docs/reference/limits.md#idempotency) for one create. crypto.getRandomValues, not randomUUID: the
 * latter exists only in secure contexts, and a sandbox on a LAN address is served over plain http.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dashboard-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
