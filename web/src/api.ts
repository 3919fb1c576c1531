/**
 * The dashboard is a client of the public API (API.md §11): same-origin requests to /v1 that carry
 * `X-CRM-Dashboard: 1`, so that the sandbox accepts the HttpOnly session cookie for them. Writes send
 * an Idempotency-Key like any client. Nothing is stored in the browser but that cookie.
 */
export class ApiFailure extends Error {
  constructor(readonly status: number, message: string, readonly code?: string) {
    super(message);
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'x-crm-dashboard': '1', accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['idempotency-key'] = crypto.randomUUID();
  const response = await fetch(path, { method, headers, credentials: 'same-origin', ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!response.ok) throw new ApiFailure(response.status, String(parsed.detail ?? parsed.title ?? `HTTP ${response.status}`), parsed.code as string | undefined);
  return parsed as T;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface Session {
  signed_in: boolean;
  scopes?: string[];
  base_url?: string;
}

export const session = {
  get: () => api<Session>('GET', '/dashboard/session'),
  signIn: (body: { token: string } | { api_key: string }) => api<{ signed_in: true }>('POST', '/dashboard/session', body),
  signOut: () => api<{ signed_in: false }>('DELETE', '/dashboard/session'),
};

/** True when the session's scopes include `scope` (`x:write` implies `x:read`, `*` everything). */
export function allows(scopes: string[] | undefined, scope: string): boolean {
  if (!scopes) return false;
  const [resource, access] = scope.split(':');
  return scopes.includes('*') || scopes.includes(scope) || (access === 'read' && scopes.includes(`${resource}:write`));
}
