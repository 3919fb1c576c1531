import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { CrmApiError } from './errors.js';
import { backoffMs } from './retry.js';
import { parseSse } from './sse.js';

export type StreamItem =
  /** Where the stream starts, sent first when no position was given (an id-only message). */
  { kind: 'position'; id: string } | { kind: 'event'; id: string; type: string; data: string };

export interface FollowOptions {
  baseUrl: string;
  apiKey: string;
  /** Resume after this event id; undefined: from now. */
  after: string | undefined;
  signal: AbortSignal;
  onConnected?: () => void;
  onDisconnected?: (reason: string, retryInMs: number) => void;
}

/** Three missed heartbeats (every 15 s) mean the connection is dead, even if TCP has not noticed. */
const IDLE_TIMEOUT_MS = 45_000;
const RECONNECT = { maxRetries: Infinity, baseDelayMs: 500, maxDelayMs: 10_000 };

/**
 * Follows GET /v1/events/stream of any server, reconnecting whenever it drops, each time with
 * Last-Event-ID set to the last id it saw, so that nothing is skipped or repeated across
 * reconnects. Ends when `signal` aborts; a 401 or 403 ends it with the API error (retrying
 * would not help).
 */
export async function* followEvents(options: FollowOptions): AsyncGenerator<StreamItem> {
  const agent = new Agent({ connections: 1 });
  let lastId = options.after;
  let failures = 0;
  try {
    while (!options.signal.aborted) {
      let reason = 'the server closed the stream';
      try {
        const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${options.apiKey}`, 'user-agent': 'crm-listen' };
        if (lastId !== undefined) headers['last-event-id'] = lastId;
        const response = await request(`${options.baseUrl.replace(/\/+$/, '')}/v1/events/stream`, {
          dispatcher: agent,
          headers,
          signal: options.signal,
          headersTimeout: 15_000,
          bodyTimeout: IDLE_TIMEOUT_MS,
        });
        if (response.statusCode !== 200) {
          const text = await response.body.text();
          const problem = safeJson(text);
          const error = new CrmApiError(
            response.statusCode,
            problem.code ?? `http_${response.statusCode}`,
            problem.detail ?? text.slice(0, 200),
            problem.request_id,
            undefined,
            response.headers,
          );
          throw error;
        } else {
          failures = 0;
          options.onConnected?.();
          for await (const message of parseSse(response.body)) {
            if (message.id === undefined) continue;
            lastId = message.id;
            yield message.hasData ? { kind: 'event', id: message.id, type: message.event, data: message.data } : { kind: 'position', id: message.id };
          }
        }
      } catch (error) {
        if (options.signal.aborted) return;
        // A refused key or a bad position will not get better by retrying; the rest may.
        if (error instanceof CrmApiError && error.status !== 429 && error.status < 500) throw error;
        reason = (error as Error).message;
      }
      const delay = backoffMs(failures++, RECONNECT);
      options.onDisconnected?.(reason, delay);
      await sleep(delay, undefined, { signal: options.signal }).catch(() => undefined);
    }
  } finally {
    await agent.destroy();
  }
}

function safeJson(text: string): { code?: string; detail?: string; request_id?: string } {
  try {
    return JSON.parse(text) as { code?: string; detail?: string; request_id?: string };
  } catch {
    return {};
  }
}
