/**
 * The hand-written core: one `request` that every generated resource method calls. It adds the key,
 * an Idempotency-Key on every write (the caller's or a fresh UUID, the same on each retry), retries
 * network errors, 408, 409 idempotency_key_in_use, 429 and 5xx (waiting Retry-After when given, else
 * 0.5 s doubling to 8 s with jitter), turns error responses into CrmError classes, and attaches the
 * HTTP response to what it returns (`lastResponse`). `stream` opens a streamed method the same way.
 */
import { ConnectionError, CrmError, errorFromResponse } from './errors.js';
import { EventStream } from './streaming.js';

export const VERSION = '0.1.0';

export interface ClientOptions {
  /** Defaults to the CRM_API_KEY environment variable. */
  apiKey?: string;
  /** Defaults to CRM_BASE_URL, else http://127.0.0.1:4010. */
  baseUrl?: string;
  /** Retries of a failed request (default 2). */
  maxRetries?: number;
  /** Milliseconds per attempt (default 60 000). */
  timeout?: number;
}

export interface RequestOptions {
  idempotencyKey?: string;
  apiKey?: string;
  maxRetries?: number;
  timeout?: number;
  headers?: Record<string, string>;
}

/** The HTTP response an object came from. */
export interface LastResponse {
  status: number;
  headers: Headers;
  requestId: string | null;
  /** From X-RateLimit-*: the policy nearest exhaustion. */
  rateLimit: { limit: number | null; remaining: number | null; reset: number | null };
}

export type WithResponse<T> = T & { lastResponse: LastResponse };

const WRITES = new Set(['POST', 'PATCH', 'DELETE']);
const MAX_RETRY_AFTER_S = 60; // a longer Retry-After falls back to the backoff: never sleep minutes unasked
const env = (name: string): string | undefined => (typeof process === 'undefined' ? undefined : process.env[name]) || undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Core {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly maxRetries: number;
  private readonly timeout: number;
  private readonly userAgent: string;

  constructor(options: ClientOptions = {}) {
    this.apiKey = options.apiKey ?? env('CRM_API_KEY');
    this.baseUrl = (options.baseUrl ?? env('CRM_BASE_URL') ?? 'http://127.0.0.1:4010').replace(/\/+$/, '');
    this.maxRetries = options.maxRetries ?? 2;
    this.timeout = options.timeout ?? 60_000;
    const runtime = typeof process !== 'undefined' ? `node ${process.version}` : 'unknown runtime';
    this.userAgent = `crm-sdk-typescript/${VERSION} (${runtime})`;
  }

  /** Any endpoint: `rawRequest('GET', '/v1/leads', undefined, { … })`. The body is JSON. */
  async request<T>(
    method: string,
    path: string,
    init: { query?: object | undefined; body?: unknown } = {},
    options: RequestOptions = {},
  ): Promise<WithResponse<T>> {
    const { response, deadline } = await this.send(method, path, init, options, 'application/json');
    try {
      return withResponse(parseBody(await response.text(), response.headers) as T, response);
    } catch (cause) {
      throw new ConnectionError(`Reading the answer of ${this.baseUrl}: ${(cause as Error).message}`, { cause });
    } finally {
      deadline.clear();
    }
  }

  /** A streamed method: its events, the request sent when iteration starts (streaming.ts). */
  stream<T>(method: string, path: string, init: { query?: object | undefined; body?: unknown } = {}, options: RequestOptions = {}): EventStream<T> {
    return new EventStream<T>(async () => {
      const { response, deadline } = await this.send(method, path, init, options, 'text/event-stream');
      if (!response.body) throw new CrmError(`${method} ${path} answered ${response.status} without a body`);
      return {
        body: response.body,
        lastResponse: lastResponseOf(response),
        touch: () => deadline.restart(),
        close: () => deadline.abort(),
      };
    });
  }

  /**
   * Sends the request, retrying as the header comment says, and returns the first 2xx response
   * with its body unread; an error answer throws. The deadline runs until cleared: the caller
   * clears it once the body is read, or restarts it on each piece of a stream.
   */
  private async send(
    method: string,
    path: string,
    init: { query?: object | undefined; body?: unknown },
    options: RequestOptions,
    accept: string,
  ): Promise<{ response: Response; deadline: Deadline }> {
    const apiKey = options.apiKey ?? this.apiKey;
    if (!apiKey) throw new CrmError('No API key: pass apiKey to new Crm({ apiKey }) or set CRM_API_KEY.');
    const url = this.baseUrl + path + queryString(init.query);
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, accept, 'user-agent': this.userAgent };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (WRITES.has(method)) headers['idempotency-key'] = options.idempotencyKey ?? crypto.randomUUID();
    Object.assign(headers, options.headers);
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const maxRetries = options.maxRetries ?? this.maxRetries;
    const timeout = options.timeout ?? this.timeout;

    for (let attempt = 0; ; attempt++) {
      const deadline = new Deadline(timeout);
      let response: Response;
      try {
        response = await fetch(url, { method, headers, ...(body !== undefined ? { body } : {}), signal: deadline.signal });
      } catch (cause) {
        deadline.clear();
        if (attempt < maxRetries) {
          await sleep(backoff(attempt));
          continue;
        }
        throw new ConnectionError(`Could not reach ${this.baseUrl}: ${(cause as Error).message}`, { cause });
      }
      if (response.ok) return { response, deadline };
      let text: string;
      try {
        text = await response.text();
      } finally {
        deadline.clear();
      }
      const error = errorFromResponse(response.status, response.headers, parseBody(text, response.headers));
      if (attempt < maxRetries && retryable(response.status, error.code)) {
        await sleep(retryDelay(response.headers, attempt));
        continue;
      }
      throw error;
    }
  }
}

/** An attempt's timeout: aborts its request when it runs out; a stream restarts it on each piece. */
class Deadline {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ms: number) {
    this.restart();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  restart(): void {
    this.clear();
    const reason = new DOMException(`No answer within the timeout (${this.ms} ms)`, 'TimeoutError');
    this.timer = setTimeout(() => this.controller.abort(reason), this.ms);
    // A pending timeout must not keep Node running (AbortSignal.timeout does not either).
    (this.timer as { unref?: () => void }).unref?.();
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  abort(): void {
    this.clear();
    this.controller.abort();
  }
}

function retryable(status: number, code: string | undefined): boolean {
  return status === 408 || status === 429 || status >= 500 || (status === 409 && code === 'idempotency_key_in_use');
}

/** 0.5 s doubling to 8 s, less up to a quarter at random so that clients retrying together spread out. */
function backoff(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8000) * (1 - Math.random() * 0.25);
}

function retryDelay(headers: Headers, attempt: number): number {
  const seconds = Number(headers.get('retry-after'));
  return headers.has('retry-after') && Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_RETRY_AFTER_S ? seconds * 1000 : backoff(attempt);
}

function parseBody(text: string, headers: Headers): unknown {
  if (!/json/.test(headers.get('content-type') ?? '') || !text) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function lastResponseOf(response: Response): LastResponse {
  const number = (name: string) => (response.headers.has(name) ? Number(response.headers.get(name)) : null);
  return {
    status: response.status,
    headers: response.headers,
    requestId: response.headers.get('x-request-id'),
    rateLimit: { limit: number('x-ratelimit-limit'), remaining: number('x-ratelimit-remaining'), reset: number('x-ratelimit-reset') },
  };
}

function withResponse<T>(value: T, response: Response): WithResponse<T> {
  const lastResponse = lastResponseOf(response);
  const target = (typeof value === 'object' && value !== null ? value : { value }) as object;
  // Not enumerable: JSON.stringify(lead) stays the API's record.
  Object.defineProperty(target, 'lastResponse', { value: lastResponse, enumerable: false });
  return target as WithResponse<T>;
}

function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}
