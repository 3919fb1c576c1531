import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { CrmApiError, CrmNetworkError, isConnectionRefused } from './errors.js';
import { Pacer } from './pacer.js';
import { utf8Text } from './utf8.js';
import { DEFAULT_RETRY, decideRetry, type RetryPolicy } from './retry.js';

export interface ClientOptions {
  baseUrl: string;
  apiKey?: string | undefined;
  retry?: Partial<RetryPolicy>;
  /** Per attempt; the server's own limit is 15–30 s. */
  timeoutMs?: number;
  /** Parallel connections kept alive to the server. */
  connections?: number;
  /**
   * false: a refused connection fails at once instead of being retried. For commands a person waits
   * on: nothing listening will not start listening in the next second (the sandbox is not running).
   */
  retryRefused?: boolean;
  /** Told about every retry (progress output shows them). */
  onRetry?: (info: { method: string; path: string; attempt: number; delayMs: number; reason: string }) => void;
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The body already serialised as JSON, or its UTF-8 bytes, instead of `body` (sync hashes the exact bytes it sends). */
  bodyText?: string | Buffer;
  /** For writes; one is generated when absent, so that every retry of a write is safe. */
  idempotencyKey?: string;
}

type Headers = Record<string, string | string[] | undefined>;

/**
 * The typed HTTP client every command uses, for any server with this API (docs/reference/README.md): a keep-alive
 * connection pool, an Idempotency-Key on every write, retries with backoff and jitter on network
 * errors and 5xx, waits on 429 and on 409 idempotency_key_in_use, pacing by the server's
 * RateLimit fields (pacer.ts), and cursor pagination.
 */
export class CrmClient {
  readonly baseUrl: string;
  private readonly agent: Agent;
  private readonly policy: RetryPolicy;
  /** Spaces requests by the RateLimit fields the server sends (docs/sync.md#pacing-by-the-servers-limits). */
  private readonly pacer = new Pacer();

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.agent = new Agent({ connections: options.connections ?? 8, keepAliveTimeout: 30_000, pipelining: 1 });
  }

  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    return (await this.exchange<T>(method, path, opts)).body;
  }

  /** The request and the response's headers too (sync reads `Idempotent-Replayed`). */
  async exchange<T>(method: string, path: string, opts: RequestOptions = {}): Promise<{ body: T; headers: Headers }> {
    const { bytes, headers } = await this.send(method, path, opts);
    const text = utf8Text(bytes);
    return { body: (text ? JSON.parse(text) : undefined) as T, headers };
  }

  /** A successful answer's body as the bytes the server sent; failures, retries and pacing as for every request. */
  private async send(method: string, path: string, opts: RequestOptions): Promise<{ bytes: Buffer; headers: Headers }> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'crm-cli' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (method !== 'GET') headers['idempotency-key'] = opts.idempotencyKey ?? randomUUID();
    const body = opts.bodyText ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    if (body !== undefined) headers['content-type'] = 'application/json';

    for (let attempt = 0; ; attempt++) {
      let status: number;
      let responseHeaders: Headers;
      let bytes: Buffer;
      try {
        await this.pacer.acquire();
        const response = await request(url, {
          method: method as 'GET',
          headers,
          body,
          dispatcher: this.agent,
          headersTimeout: this.options.timeoutMs ?? 30_000,
          bodyTimeout: this.options.timeoutMs ?? 30_000,
        });
        status = response.statusCode;
        responseHeaders = response.headers;
        this.pacer.observe(responseHeaders);
        // An ArrayBuffer of the body's own: the export hands it to its render thread as it is.
        bytes = Buffer.from(await response.body.arrayBuffer());
      } catch (cause) {
        const decision =
          this.options.retryRefused === false && isConnectionRefused(cause)
            ? { retry: false as const }
            : decideRetry({ networkError: true }, attempt, this.policy);
        if (!decision.retry) throw new CrmNetworkError(this.baseUrl, cause);
        this.options.onRetry?.({ method, path, attempt: attempt + 1, delayMs: decision.delayMs, reason: (cause as Error).message });
        await sleep(decision.delayMs);
        continue;
      }
      if (status < 400) return { bytes, headers: responseHeaders };
      const text = utf8Text(bytes);
      const problem = parseProblem(text);
      if (status === 429 && problem.code === 'rate_limited') this.pacer.slowDown();
      const decision = decideRetry({ status, code: problem.code, headers: responseHeaders }, attempt, this.policy);
      if (!decision.retry) {
        throw new CrmApiError(
          status,
          problem.code ?? `http_${status}`,
          problem.detail ?? text.slice(0, 200),
          problem.request_id,
          problem.errors,
          responseHeaders,
        );
      }
      // A rate limit's Retry-After is whole seconds, rounded up (1 for a window of a second, however
      // little of it is left); the pacer may know the window ends sooner, and holds requests until then.
      const held = this.pacer.heldUntilMs - Date.now();
      const delayMs = status === 429 && problem.code === 'rate_limited' && held > 0 ? Math.min(decision.delayMs, held) : decision.delayMs;
      this.options.onRetry?.({ method, path, attempt: attempt + 1, delayMs, reason: `${status} ${problem.code ?? ''}`.trim() });
      await sleep(delayMs);
    }
  }

  get<T>(path: string, query?: RequestOptions['query']): Promise<T> {
    return this.request<T>('GET', path, query ? { query } : {});
  }

  post<T>(path: string, body?: unknown, idempotencyKey?: string): Promise<T> {
    return this.request<T>('POST', path, { body, ...(idempotencyKey ? { idempotencyKey } : {}) });
  }

  /** Every page of a list, following next_cursor until it is null. */
  async *pages<T>(path: string, query: RequestOptions['query'] = {}, startCursor?: string): AsyncGenerator<{ data: T[]; next_cursor: string | null }> {
    let cursor = startCursor;
    do {
      const page = await this.get<{ data: T[]; next_cursor: string | null }>(path, { ...query, cursor });
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** Every record of a list, its pages read one after the other: for lists short enough to hold (keys, webhook endpoints). */
  async all<T>(path: string, query: RequestOptions['query'] = {}): Promise<T[]> {
    const records: T[] = [];
    for await (const page of this.pages<T>(path, query)) records.push(...page.data);
    return records;
  }

  /**
   * Every page of a list as the bytes of its JSON, for a reader that parses them elsewhere (the
   * export's render thread, sync/export/render-thread.ts). The next page is asked for with the cursor
   * read from the body's end, where the sandbox writes it (`…,"next_cursor":"…"}`); from a server
   * that writes it elsewhere, the page is parsed here to find it.
   */
  async *pageBodies(path: string, query: RequestOptions['query'] = {}, startCursor?: string): AsyncGenerator<{ bytes: Buffer; next_cursor: string | null }> {
    let cursor = startCursor;
    do {
      const { bytes } = await this.send('GET', path, { query: { ...query, cursor } });
      const next_cursor = trailingCursor(bytes) ?? (JSON.parse(utf8Text(bytes)) as { next_cursor?: string | null }).next_cursor ?? null;
      yield { bytes, next_cursor };
      cursor = next_cursor ?? undefined;
    } while (cursor);
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function parseProblem(text: string): { code?: string; detail?: string; request_id?: string; errors?: CrmApiError['errors'] } {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    return typeof body === 'object' && body ? (body as ReturnType<typeof parseProblem>) : {};
  } catch {
    return {};
  }
}

/**
 * The next_cursor of a list page when it is the last member of the page's object: a JSON string
 * (escapes and all) or null right before the final `}`. In valid JSON that member can only be the
 * top-level object's (a nested object would close before it). undefined when the body does not end
 * so. Its last 4 KB read as Latin-1: a cursor is ASCII, and no byte of a UTF-8 sequence is a quote.
 */
const TRAILING_CURSOR = /"next_cursor":(null|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

export function trailingCursor(body: Buffer): string | null | undefined {
  const match = TRAILING_CURSOR.exec(body.toString('latin1', Math.max(0, body.length - 4096)));
  if (!match || /[^\x20-\x7e]/.test(match[1]!)) return undefined; // not there, or not ASCII: the page is parsed
  return JSON.parse(match[1]!) as string | null;
}
