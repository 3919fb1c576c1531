import type { FastifyInstance } from 'fastify';
import type { CrmClient } from '../client/client.js';
import { CrmApiError } from '../client/errors.js';

/**
 * How MCP tools reach the API. Both transports go through the REST API itself, so a tool call
 * gets exactly the validation, scopes, idempotency and events of the equivalent HTTP request:
 * stdio (`crm mcp`) uses the typed client against any --base-url; the sandbox's /mcp endpoint
 * injects the request into its own app with the caller's Authorization header.
 */
interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  idempotencyKey?: string | undefined;
}

export interface McpBackend {
  call<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, options?: CallOptions): Promise<T>;
}

export function clientBackend(client: CrmClient): McpBackend {
  return {
    call: (method, path, options = {}) =>
      client.request(method, path, {
        ...(options.query ? { query: options.query } : {}),
        ...(options.body !== undefined ? { body: options.body } : {}),
        ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      }),
  };
}

/**
 * Calls into the app itself with the caller's credential: its Authorization header, or the
 * dashboard's session (cookie, X-CRM-Dashboard, Origin and Host) for the assistant in the browser.
 */
export function injectBackend(app: FastifyInstance, credential: Record<string, string>): McpBackend {
  return {
    async call(method, path, options = {}) {
      const query = Object.fromEntries(
        Object.entries(options.query ?? {})
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      );
      const headers: Record<string, string> = { ...credential };
      if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
      const response = await app.inject({
        method,
        url: path,
        query,
        headers,
        ...(options.body !== undefined ? { payload: options.body as object } : {}),
      });
      const body = response.body ? JSON.parse(response.body) : undefined;
      if (response.statusCode >= 400) {
        throw new CrmApiError(
          response.statusCode,
          body?.code ?? `http_${response.statusCode}`,
          body?.detail ?? response.body,
          body?.request_id,
          body?.errors,
          response.headers as Record<string, string | string[] | undefined>,
        );
      }
      return body;
    },
  };
}
