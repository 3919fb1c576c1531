import { describe, expect, it } from 'vitest';
import { waitNotes, waitState } from '../../src/cli/commands/sync/wait-notes.js';

/** A long job prints one line when a wait begins, not one per retried request (docs/sync.md). */
function recorder() {
  const lines: string[] = [];
  return { lines, progress: { update() {}, note: (m: string) => void lines.push(m), stop() {} } };
}

describe('wait notes', () => {
  it('say a wait once, however many requests retry through it', () => {
    const { lines, progress } = recorder();
    const notes = waitNotes(progress, 6);
    for (let attempt = 1; attempt <= 6; attempt++) {
      for (const port of [4010, 4010, 4010, 4010]) notes.onRetry({ attempt, delayMs: 250, reason: `connect ECONNREFUSED 127.0.0.1:${port}` });
    }
    expect(lines).toEqual(['waiting: nothing answers at the server address (connection refused); retrying each request up to 6 times…']);
  });

  it('say a new line when the reason changes, or when a wait begins again after work went on', () => {
    const { lines, progress } = recorder();
    const notes = waitNotes(progress, 3);
    notes.onRetry({ attempt: 1, delayMs: 1, reason: '503 unavailable' });
    notes.onRetry({ attempt: 2, delayMs: 1, reason: '503 unavailable' });
    notes.onRetry({ attempt: 1, delayMs: 1, reason: '429 rate_limited' });
    notes.settled();
    notes.onRetry({ attempt: 1, delayMs: 1, reason: '429 rate_limited' });
    expect(lines.map((l) => l.split(';')[0])).toEqual([
      'waiting: the server is failing (503 unavailable)',
      'waiting: the server asks to slow down (429 rate_limited)',
      'waiting: the server asks to slow down (429 rate_limited)',
    ]);
  });

  it('name the usual reasons in words', () => {
    expect(waitState('409 idempotency_key_in_use')).toContain('still being written');
    expect(waitState('other side closed')).toBe('the connection to the server was cut');
    expect(waitState('Headers Timeout Error')).toBe('the server did not answer in time');
  });
});
