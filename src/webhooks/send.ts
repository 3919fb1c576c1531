import { type Agent, errors, request } from 'undici';
import { signedHeaders } from '../domain/webhook-signature.js';
import { parseRetryAfter } from './schedule.js';

/** How long a receiver has to answer (docs/reference/events.md#webhooks). */
const DELIVERY_TIMEOUT_MS = 15_000;

export interface SignedPost {
  url: string;
  /** The webhook-id: the event id, the same on every retry so receivers can deduplicate. */
  id: string;
  body: string;
  secrets: readonly string[];
}

export interface PostResult {
  startedAt: number;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  retryAfterMs?: number | undefined;
}

/**
 * POSTs a signed event once, for the worker and for `crm listen`. Never throws: a refused
 * connection or a timeout is an outcome too (statusCode null, error set). `onStatus` runs the
 * moment the status line arrives, before the body is read, so that the caller can record a 2xx
 * with the least possible delay (see worker.ts on why that matters).
 */
export async function postSigned(agent: Agent, post: SignedPost, onStatus?: (result: PostResult) => void, signal?: AbortSignal): Promise<PostResult> {
  const startedAt = Date.now();
  const began = performance.now();
  const elapsed = () => performance.now() - began;
  let result: PostResult;
  let response: Awaited<ReturnType<typeof request>> | undefined;
  try {
    response = await request(post.url, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'crm-webhooks/1',
        ...signedHeaders(post.secrets, post.id, post.body),
      },
      body: post.body,
      headersTimeout: DELIVERY_TIMEOUT_MS,
      bodyTimeout: DELIVERY_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    });
    result = { startedAt, statusCode: response.statusCode, durationMs: elapsed(), error: null, retryAfterMs: parseRetryAfter(response.headers['retry-after']) };
  } catch (error) {
    result = { startedAt, statusCode: null, durationMs: elapsed(), error: describe(error) };
  }
  onStatus?.(result);
  // The body is not needed, but must be read (or dropped) to free the connection for reuse.
  await response?.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
  return result;
}

function describe(error: unknown): string {
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError) {
    return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`;
  }
  const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e.code ?? e.cause?.code;
  return code ? `${code}: ${e.cause?.message ?? e.message}` : (e.message ?? String(error));
}
