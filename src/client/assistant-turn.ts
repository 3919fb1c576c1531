import { Agent, request } from 'undici';
import type { AssistantStreamEvent } from '../schemas/assistant.js';
import { CrmApiError, CrmNetworkError } from './errors.js';
import { parseSse } from './sse.js';
import { utf8Text } from './utf8.js';

export interface AssistantTurnOptions {
  baseUrl: string;
  apiKey: string;
  /** Aborts the request under way (Ctrl+C): the stream then throws. */
  signal?: AbortSignal;
}

/**
 * No answer for this long ends the request. Longer than the sandbox's own limit on a silent model
 * provider (120 s by default, docs/assistant.md), which ends a turn with a problem or an `error`
 * event itself: this only catches a server that is gone without closing the connection.
 */
const SILENCE_MS = 300_000;

/**
 * The assistant's turns over HTTP (docs/assistant.md): a question (POST /v1/assistant/messages) or
 * the answer to a proposed write (POST /v1/assistant/confirmations/{id}), each read as the
 * Server-Sent Events of the turn, parsed, as they come. Neither is retried: a question costs a
 * model call, and an answer is accepted once. A refusal before the stream (503 when no model is
 * set, 502/504 from the provider) is a CrmApiError; no HTTP answer at all, a CrmNetworkError.
 */
export class AssistantTurns {
  private readonly baseUrl: string;
  private readonly agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });

  constructor(private readonly options: AssistantTurnOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  ask(message: { content: string; conversation_id?: string | undefined }): AsyncGenerator<AssistantStreamEvent> {
    return this.stream('/v1/assistant/messages', message);
  }

  answer(confirmationId: string, approve: boolean): AsyncGenerator<AssistantStreamEvent> {
    return this.stream(`/v1/assistant/confirmations/${encodeURIComponent(confirmationId)}`, { approve });
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }

  private async *stream(path: string, body: unknown): AsyncGenerator<AssistantStreamEvent> {
    let response: Awaited<ReturnType<typeof request>>;
    try {
      response = await request(this.baseUrl + path, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${this.options.apiKey}`,
          'content-type': 'application/json',
          'user-agent': 'crm-cli',
        },
        body: JSON.stringify(body),
        headersTimeout: SILENCE_MS,
        bodyTimeout: SILENCE_MS,
        ...(this.options.signal ? { signal: this.options.signal } : {}),
      });
    } catch (cause) {
      if (this.options.signal?.aborted) throw cause;
      throw new CrmNetworkError(this.baseUrl, cause);
    }
    if (response.statusCode !== 200) throw apiError(response.statusCode, utf8Text(Buffer.from(await response.body.arrayBuffer())), response.headers);
    for await (const message of parseSse(response.body)) {
      if (!message.hasData) continue;
      yield eventOf(message.event, message.data);
    }
  }
}

function eventOf(type: string, data: string): AssistantStreamEvent {
  let event: unknown;
  try {
    event = JSON.parse(data);
  } catch {
    throw new Error(`The server sent a "${type}" event that is not JSON: ${data.slice(0, 100)}`);
  }
  if (!event || typeof event !== 'object' || typeof (event as { type?: unknown }).type !== 'string') {
    throw new Error(`The server sent a "${type}" event without a type: ${data.slice(0, 100)}`);
  }
  return event as AssistantStreamEvent;
}

function apiError(status: number, text: string, headers: Record<string, string | string[] | undefined>): CrmApiError {
  let problem: { code?: unknown; detail?: unknown; request_id?: unknown } = {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed && typeof parsed === 'object') problem = parsed as typeof problem;
  } catch {
    // Not problem+json (a proxy's page): its start is the detail.
  }
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return new CrmApiError(status, str(problem.code) ?? `http_${status}`, str(problem.detail) ?? text.slice(0, 200), str(problem.request_id), undefined, headers);
}
