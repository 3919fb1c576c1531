import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import type { Ctx } from '../services/context.js';
import { onOutbox } from '../services/outbox-signal.js';
import { dueAttempts, nextDueAt, settleAttempt, type DueAttempt } from './queue.js';
import { postSigned } from './send.js';

export interface WorkerOptions {
  /** Multiplies the retry schedule (--webhook-time-scale); 1 is real time. */
  timeScale?: number;
  /** Attempts in flight at once, over all endpoints. */
  concurrency?: number;
}

/** Even with nothing due, look again this often (a safety net: the outbox signal should have woken us). */
const MAX_IDLE_MS = 1000;
/** On stop, attempts under way get this long to finish before they are aborted. */
const STOP_GRACE_MS = 2000;

/**
 * The delivery worker: drains pending attempts from webhook_deliveries (see queue.ts).
 *
 * Guarantees. The attempt rows are written with the event (no loss: a committed event always has
 * its pending deliveries, and a crash at any later point leaves them pending, so a restart sends
 * them). An attempt's outcome is committed synchronously the moment the status line arrives,
 * before its body is read, so "2xx received but not recorded" shrinks to the microseconds between
 * the response and that commit — only a SIGKILL landing in that window can repeat a 2xx'd
 * delivery, which is the unavoidable at-least-once edge; receivers deduplicate by webhook-id,
 * which is the same on every attempt. Attempts aborted by a clean stop stay pending.
 *
 * Scheduling. New events wake the worker through the outbox signal; otherwise a timer waits for
 * the next due attempt (retries), at most MAX_IDLE_MS.
 */
export class WebhookWorker {
  private readonly timeScale: number;
  private readonly concurrency: number;
  private readonly agent = new Agent({ connections: 32, keepAliveTimeout: 4_000, pipelining: 1 });
  private readonly abort = new AbortController();
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private pumping = false;
  private stopping = false;
  private unsubscribe: () => void = () => undefined;

  constructor(
    private readonly ctx: Ctx,
    options: WorkerOptions = {},
  ) {
    this.timeScale = options.timeScale ?? 1;
    this.concurrency = options.concurrency ?? 64;
  }

  start(): void {
    this.unsubscribe = onOutbox(this.ctx.db, () => this.pump());
    this.pump();
  }

  private pump(): void {
    if (this.stopping || this.pumping) return;
    this.pumping = true;
    try {
      const capacity = this.concurrency - this.inFlight.size;
      const skip = new Set(this.inFlight.keys());
      const due = capacity > 0 ? dueAttempts(this.ctx, Date.now(), capacity, skip) : [];
      for (const attempt of due) this.run(attempt);
      this.armTimer();
    } catch (error) {
      process.stderr.write(`webhooks: the worker could not read its queue: ${(error as Error).message}\n`);
      this.timer = setTimeout(() => this.pump(), MAX_IDLE_MS).unref();
    } finally {
      this.pumping = false;
    }
  }

  private armTimer(): void {
    clearTimeout(this.timer);
    const next = nextDueAt(this.ctx, new Set(this.inFlight.keys()));
    const wait = next === undefined ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, Math.max(0, next - Date.now()));
    this.timer = setTimeout(() => this.pump(), wait).unref();
  }

  private run(due: DueAttempt): void {
    const settle = (result: Parameters<typeof settleAttempt>[2]) => {
      if (this.stopping && result.statusCode === null) return; // aborted by stop(): stays pending
      try {
        settleAttempt(this.ctx, due, result, this.timeScale);
      } catch (error) {
        process.stderr.write(`webhooks: could not record attempt ${due.id}: ${(error as Error).message}\n`);
      }
    };
    const done = postSigned(this.agent, { url: due.url, id: due.eventId, body: due.body, secrets: due.secrets }, settle, this.abort.signal).finally(() => {
      this.inFlight.delete(due.id);
      this.pump();
    });
    this.inFlight.set(due.id, done);
  }

  /** Stops taking work; attempts under way get a moment, then are aborted and stay pending for the next start. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.unsubscribe();
    clearTimeout(this.timer);
    const all = () => Promise.allSettled([...this.inFlight.values()]);
    await Promise.race([all(), sleep(STOP_GRACE_MS, undefined, { ref: false })]);
    this.abort.abort();
    await all();
    await this.agent.destroy();
  }
}
