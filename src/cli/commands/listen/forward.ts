import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import { backoffMs } from '../../../client/retry.js';
import { postSigned, type PostResult } from '../../../webhooks/send.js';
import { CliError, dim, green, printJson, red, terminalSafe } from '../../output.js';
import { EXIT } from '../../exit-codes.js';

/**
 * Forwarding events to a local URL, signed exactly as the sandbox's webhook worker signs (the
 * same code), with the listen secret: what `crm listen` and `crm events resend|replay
 * --forward-to` do. Retries with backoff; 2xx is success.
 */
export interface ForwardTarget {
  url: string;
  secret: string;
  /** Further attempts after a failed one (0: one attempt only). */
  retries: number;
  json: boolean;
  signal?: AbortSignal;
}

export interface Forwarded {
  id: string;
  type: string;
  ok: boolean;
  result: PostResult;
  attempts: number;
}

const RETRY = { maxRetries: Infinity, baseDelayMs: 500, maxDelayMs: 10_000 };

export function checkForwardUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliError(`--forward-to must be a URL such as http://localhost:3000/webhooks, not '${url}'.`, EXIT.usage);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new CliError('--forward-to must be an http or https URL.', EXIT.usage);
  return parsed.toString();
}

export class EventForwarder {
  private readonly agent = new Agent({ connections: 4, keepAliveTimeout: 4_000 });

  constructor(private readonly target: ForwardTarget) {}

  /** Sends one event until it succeeds or the retries are used up; prints one line per attempt. */
  async forward(event: { id: string; type: string; body: string }): Promise<Forwarded> {
    for (let attempt = 1; ; attempt++) {
      const result = await postSigned(this.agent, { url: this.target.url, id: event.id, body: event.body, secrets: [this.target.secret] });
      const ok = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
      const last = ok || attempt > this.target.retries || this.target.signal?.aborted === true;
      const delayMs = last ? 0 : backoffMs(attempt - 1, RETRY);
      this.print(event, result, attempt, ok, last ? undefined : delayMs);
      if (last) return { id: event.id, type: event.type, ok, result, attempts: attempt };
      await sleep(delayMs, undefined, this.target.signal ? { signal: this.target.signal } : {}).catch(() => undefined);
    }
  }

  private print(event: { id: string; type: string }, r: PostResult, attempt: number, ok: boolean, retryInMs: number | undefined): void {
    const time = new Date(r.startedAt).toISOString();
    const ms = Math.round(r.durationMs);
    if (this.target.json) {
      printJson({ time, type: event.type, id: event.id, status: r.statusCode, duration_ms: ms, attempt, ok, error: r.error, retry_in_ms: retryInMs ?? null });
      return;
    }
    const status = r.statusCode === null ? red('ERR') : ok ? green(String(r.statusCode)) : red(String(r.statusCode));
    const note = [r.error, retryInMs === undefined ? (ok ? '' : 'giving up') : `retry in ${(retryInMs / 1000).toFixed(1)} s`].filter(Boolean).join('; ');
    // The type, id and error came from the server or the receiver: shown escaped (output.ts).
    const [type, id, said] = [event.type.padEnd(16), event.id, note].map((text) => terminalSafe(text, true));
    process.stdout.write(
      `${dim(time)}  ${type}  ${id}  → ${status}  ${ms} ms${attempt > 1 ? dim(` (attempt ${attempt})`) : ''}${said ? dim(`  ${said}`) : ''}\n`,
    );
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
