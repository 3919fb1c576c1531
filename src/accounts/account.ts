import { IdGenerator } from '../domain/ids.js';
import { RateLimiter } from '../domain/rate-limit.js';
import type { Ctx } from '../services/context.js';
import { RequestLogWriter } from '../services/request-log.js';
import { UsageMeter } from '../services/usage.js';
import { readClockOffset, writeClockOffset } from '../store/account-clock.js';
import type { AccountRow } from '../store/account-registry.js';
import { metaValue, type Db } from '../store/db.js';
import type { WebhookWorker } from '../webhooks/worker.js';
import { planLimits, planPolicies, type PlanLimits, type StartLimits } from '../domain/plans.js';

/**
 * One open account: its own database and everything that works per account (its clock, ids,
 * usage, request log, rate limits by plan, webhook worker). The clock is real time plus the
 * account's offset (a test clock moved forward); the offset lives in the account's database, so
 * a snapshot holds it and a restart keeps it.
 */
export class Account {
  readonly ctx: Ctx;
  readonly meter: UsageMeter;
  readonly requestLog: RequestLogWriter;
  limiter: RateLimiter;
  worker: Promise<WebhookWorker | undefined> = Promise.resolve(undefined);
  offsetMs: number;

  constructor(
    public row: AccountRow,
    readonly db: Db,
    /** The file of its database (the sandbox's main one for the default account); null in memory. */
    readonly file: string | null,
    private readonly start: StartLimits,
    baseUrl: () => string,
  ) {
    this.offsetMs = readClockOffset(db);
    const clock = () => Date.now() + this.offsetMs;
    this.ctx = { db, ids: new IdGenerator(clock), clock, wallClock: Date.now, cursorSecret: metaValue(db, 'cursor_secret'), baseUrl };
    this.meter = new UsageMeter(db, clock);
    this.requestLog = new RequestLogWriter(this.ctx);
    this.limiter = new RateLimiter(planPolicies(row.plan, start), clock);
  }

  get id(): string {
    return this.row.id;
  }

  get isDefault(): boolean {
    return this.row.is_default === 1;
  }

  /** Reads the clock offset again (after a snapshot restored another). */
  reloadClock(): void {
    this.offsetMs = readClockOffset(this.db);
  }

  /** Moves the account's clock to `to` (ms since the epoch); forward only, checked by the caller. */
  setClock(to: number): void {
    this.offsetMs = to - Date.now();
    writeClockOffset(this.db, this.offsetMs);
  }

  get limits(): PlanLimits {
    return planLimits(this.row.plan, this.start);
  }

  /** A new plan brings its rate limits (counts start afresh, as after a plan change anywhere). */
  setPlan(row: AccountRow): void {
    const changed = row.plan !== this.row.plan;
    this.row = row;
    if (changed) this.limiter = new RateLimiter(planPolicies(row.plan, this.start), this.ctx.clock);
  }
}
