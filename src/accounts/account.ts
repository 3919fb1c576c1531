import { IdGenerator } from '../domain/ids.js';
import { RateLimiter } from '../domain/rate-limit.js';
import type { Ctx } from '../services/context.js';
import { RequestLogWriter } from '../services/request-log.js';
import { UsageMeter } from '../services/usage.js';
import { metaValue, type Db } from '../store/db.js';
import { stmt } from '../store/rows.js';
import type { WebhookWorker } from '../webhooks/worker.js';
import { planLimits, planPolicies, type Plan, type PlanLimits, type StartLimits } from '../domain/plans.js';

/** An account as the registry stores it (API.md §12). */
export interface AccountRow {
  id: string;
  name: string;
  plan: Plan;
  trial_ends_at: string | null;
  trial_used: number;
  is_default: number;
  created_at: string;
}

const CLOCK_KEY = 'clock_offset_ms';

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
    this.offsetMs = Number(stmt(db, 'SELECT value FROM meta WHERE key = ?').pluck().get(CLOCK_KEY) ?? 0);
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
    this.offsetMs = Number(stmt(this.db, 'SELECT value FROM meta WHERE key = ?').pluck().get(CLOCK_KEY) ?? 0);
  }

  /** Moves the account's clock to `to` (ms since the epoch); forward only, checked by the caller. */
  setClock(to: number): void {
    this.offsetMs = to - Date.now();
    stmt(this.db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(CLOCK_KEY, String(this.offsetMs));
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
