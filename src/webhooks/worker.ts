import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent } from 'undici';
import type { Ctx } from '../services/context.js';
import { onOutbox } from '../services/outbox-signal.js';
import { dueAttempts, nextDueAfter, settleAttempt, type AttemptOutcome, type DueAttempt } from './queue.js';
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
 * them). An attempt's outcome is committed as soon as the status line arrives (before its body
 * is read; batched with others of the same event-loop turn), so "2xx received but not recorded"
 * shrinks to well under a millisecond — only a SIGKILL landing in that window can repeat a 2xx'd
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
  /** The last pump filled every free slot: more is probably due. */
  private backlogged = false;
  private stopping = false;
  private unsubscribe: () => void = () => undefined;
  private unsettled: { due: DueAttempt; result: AttemptOutcome; resolve: (retryScheduled: boolean) => void }[] = [];

  constructor(
    private readonly ctx: Ctx,
    options: WorkerOptions = {},
  ) {
    this.timeScale = options.timeScale ?? 1;
    this.concurrency = options.concurrency ?? 64;
    // One signal aborts every attempt in flight on stop: each holds a listener on it.
    setMaxListeners(this.concurrency + 10, this.abort.signal);
  }

  start(): void {
    this.unsubscribe = onOutbox(this.ctx.db, () => this.pump());
    this.pump();
  }

  /**
   * Starts what is due, up to the concurrency. Called on the outbox signal (new work), by the
   * timer (retries coming due), and, while a backlog lasts, whenever half the slots are free
   * again — in batches, so that a long queue costs one query per batch, not per delivery.
   */
  private pump(): void {
    if (this.stopping || this.pumping) return;
    this.pumping = true;
    try {
      const capacity = this.concurrency - this.inFlight.size;
      const due = capacity > 0 ? dueAttempts(this.ctx, this.ctx.clock(), capacity, new Set(this.inFlight.keys())) : [];
      for (const attempt of due) this.run(attempt);
      this.backlogged = capacity <= 0 || due.length === capacity;
      this.armTimer();
    } catch (error) {
      process.stderr.write(`webhooks: the worker could not read its queue: ${(error as Error).message}\n`);
      this.timer = setTimeout(() => this.pump(), MAX_IDLE_MS).unref();
    } finally {
      this.pumping = false;
    }
  }

  /** Wakes at the next attempt due later than now (a retry), or after MAX_IDLE_MS at most. */
  private armTimer(): void {
    clearTimeout(this.timer);
    const now = this.ctx.clock(); // the account's clock: a test clock moved forward makes retries due
    const next = nextDueAfter(this.ctx, now);
    const wait = next === undefined ? MAX_IDLE_MS : Math.min(MAX_IDLE_MS, Math.max(0, next - now));
    this.timer = setTimeout(() => this.pump(), wait).unref();
  }

  private run(due: DueAttempt): void {
    let settled = Promise.resolve(false);
    // postSigned times the attempt in real time; the account's clock may run ahead of it.
    const clockOffset = this.ctx.clock() - Date.now();
    const onStatus = (result: AttemptOutcome) => {
      if (this.stopping && result.statusCode === null) return; // aborted by stop(): stays pending
      settled = this.settleSoon(due, { ...result, startedAt: result.startedAt + clockOffset });
    };
    const post = { url: due.url, id: due.eventId, body: due.body, secrets: due.secrets };
    // Leaves the in-flight set only once its outcome is committed, so no pump can pick it again.
    const done = postSigned(this.agent, post, onStatus, this.abort.signal)
      .then(() => settled)
      .then((retryScheduled) => {
        this.inFlight.delete(due.id);
        if (this.stopping) return;
        if (this.backlogged && this.inFlight.size <= this.concurrency / 2) this.pump();
        else if (retryScheduled) this.pump(); // the retry may be due already (a test clock moved), or before the timer
      });
    this.inFlight.set(due.id, done);
  }

  /**
   * Outcomes are committed together, one transaction per turn of the event loop instead of one
   * each: under load that takes a good share of the worker's database time. An outcome waits at
   * most until the next turn (setImmediate), so "answered 2xx but not yet recorded" stays a
   * window of well under a millisecond. Resolves with whether a retry was scheduled.
   */
  private settleSoon(due: DueAttempt, result: AttemptOutcome): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.unsettled.push({ due, result, resolve }) === 1) setImmediate(() => this.commitOutcomes());
    });
  }

  private commitOutcomes(): void {
    const batch = this.unsettled.splice(0);
    let retries: boolean[] = [];
    try {
      retries = this.ctx.db.transaction(() => batch.map(({ due, result }) => settleAttempt(this.ctx, due, result, this.timeScale)))();
    } catch (error) {
      // Rolled back: those attempts stay pending and are made again (at-least-once).
      process.stderr.write(`webhooks: could not record ${batch.length} attempt(s): ${(error as Error).message}\n`);
    }
    batch.forEach((item, i) => item.resolve(retries[i] ?? false));
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
