import type { Progress } from '../../progress.js';

/**
 * What a long job prints while the server makes it wait: one line when a wait begins ("the server
 * is unavailable (503); retrying…"), not one per retried request. With four batches in flight and
 * six retries each, a server down for a minute used to print thirty lines. A new line comes only
 * when the reason changes, or after work went on again (`settled`) and a new wait begins.
 */
export interface WaitNotes {
  onRetry(info: { attempt: number; delayMs: number; reason: string }): void;
  /** A request succeeded: the wait, if any, is over. */
  settled(): void;
}

export function waitNotes(progress: Progress, maxRetries: number): WaitNotes {
  let current: string | undefined;
  return {
    onRetry(info) {
      const state = waitState(info.reason);
      if (state === current) return;
      current = state;
      progress.note(`waiting: ${state}; retrying each request up to ${maxRetries} time${maxRetries === 1 ? '' : 's'}…`);
    },
    settled() {
      current = undefined;
    },
  };
}

/** The reason a request is retried, as a state: every refused connection is the same wait. */
export function waitState(reason: string): string {
  if (/ECONNREFUSED/.test(reason)) return 'nothing answers at the server address (connection refused)';
  if (/ECONNRESET|socket|closed/i.test(reason)) return 'the connection to the server was cut';
  if (/timeout/i.test(reason)) return 'the server did not answer in time';
  const status = /^(\d{3})\b\s*(\S*)/.exec(reason);
  if (status) {
    const [, code, name] = status;
    if (code === '429') return `the server asks to slow down (429${name ? ` ${name}` : ''})`;
    if (code === '409') return 'a batch is still being written by an earlier request (409 idempotency_key_in_use)';
    return `the server is failing (${code}${name ? ` ${name}` : ''})`;
  }
  return reason;
}
