import type { Db } from '../store/db.js';
import { addUsageCounts, usageOfDay, type UsageCount } from '../store/usage.js';
import { bookkeepingWrite } from '../store/list-json.js';
import { REQUEST_SOURCES, type RequestSource } from '../schemas/request-source.js';

/**
 * Usage metering (docs/reference/limits.md#usage). Requests are counted in memory on the hot path and written to
 * SQLite about once a second, so a request never waits for a usage write; reports merge both.
 * A ring of per-second counts gives the last five minutes' request rate.
 */
const RING_SECONDS = 300;

export interface UsageRow {
  subject: string;
  source: RequestSource;
  endpoint: string;
  status: number;
  requests: number;
}

/** The status classes the live chart shows (429 apart from the other 4xx: it means "slow down", not "fix the request"). */
export const STATUS_CLASSES = ['2xx', '4xx', '429', '5xx'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

function statusClass(status: number): StatusClass | undefined {
  if (status === 429) return '429';
  if (status >= 200 && status < 300) return '2xx';
  if (status >= 400 && status < 500) return '4xx';
  if (status >= 500) return '5xx';
  return undefined;
}

/** A source's per-second counts: all its requests, and by status class. */
interface Rings {
  all: number[];
  byClass: Record<StatusClass, number[]>;
}
const newRings = (): Rings => ({
  all: new Array<number>(RING_SECONDS).fill(0),
  byClass: Object.fromEntries(STATUS_CLASSES.map((c) => [c, new Array<number>(RING_SECONDS).fill(0)])) as Record<StatusClass, number[]>,
});

export class UsageMeter {
  private pending = new Map<string, number>();
  /** Per source, so the live chart can leave the dashboard's own requests out (docs/dashboard.md#the-request-log). */
  private readonly rings = Object.fromEntries(REQUEST_SOURCES.map((s) => [s, newRings()])) as Record<RequestSource, Rings>;
  private ringSecond = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: () => number = Date.now,
  ) {}

  record(subject: string, endpoint: string, status: number, source: RequestSource = 'api'): void {
    const key = `${day(this.clock())}\u0000${subject}\u0000${source}\u0000${endpoint}\u0000${status}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
    this.advanceRing();
    const rings = this.rings[source];
    rings.all[this.ringSecond % RING_SECONDS]! += 1;
    const cls = statusClass(status);
    if (cls) rings.byClass[cls][this.ringSecond % RING_SECONDS]! += 1;
  }

  /** Writes pending counts in one transaction. */
  flush(): void {
    if (this.pending.size === 0 || !this.db.open) return;
    const batch = this.pending;
    this.pending = new Map();
    const counts: UsageCount[] = [];
    for (const [key, count] of batch) {
      const [d, subject, source, endpoint, status] = key.split('\u0000') as [string, string, string, string, string];
      counts.push({ day: d, subject, source, endpoint, status: Number(status), count });
    }
    bookkeepingWrite(
      this.db,
      this.db.transaction(() => addUsageCounts(this.db, counts)),
    );
  }

  /** Counts for one UTC day (today by default), stored and pending together; of one source, or of all. */
  rows(forDay = day(this.clock()), source?: RequestSource): UsageRow[] {
    this.flush();
    return usageOfDay<UsageRow>(this.db, forDay, source);
  }

  /** Requests per second over the last five minutes, oldest first; of one source, or of all. */
  perSecond(source?: RequestSource): number[] {
    this.advanceRing();
    return this.read(this.ringsOf(source).map((r) => r.all));
  }

  /** The same series split by status class, oldest first. */
  perSecondByClass(source?: RequestSource): Record<StatusClass, number[]> {
    this.advanceRing();
    const rings = this.ringsOf(source);
    return Object.fromEntries(STATUS_CLASSES.map((c) => [c, this.read(rings.map((r) => r.byClass[c]))])) as Record<StatusClass, number[]>;
  }

  private ringsOf(source: RequestSource | undefined): Rings[] {
    return source ? [this.rings[source]] : REQUEST_SOURCES.map((s) => this.rings[s]);
  }

  /** The rings' sum per second, oldest first. */
  private read(rings: number[][]): number[] {
    return Array.from({ length: RING_SECONDS }, (_, i) => rings.reduce((n, ring) => n + ring[(this.ringSecond + i + 1) % RING_SECONDS]!, 0));
  }

  private advanceRing(): void {
    const second = Math.floor(this.clock() / 1000);
    if (this.ringSecond === 0) this.ringSecond = second;
    const gap = Math.min(second - this.ringSecond, RING_SECONDS);
    for (let i = 1; i <= gap; i++) {
      for (const rings of Object.values(this.rings)) {
        rings.all[(this.ringSecond + i) % RING_SECONDS] = 0;
        for (const c of STATUS_CLASSES) rings.byClass[c][(this.ringSecond + i) % RING_SECONDS] = 0;
      }
    }
    if (second > this.ringSecond) this.ringSecond = second;
  }
}

/** The UTC day of a time, `YYYY-MM-DD`; the last one is kept, as every request asks (~1.5 % of a list request's CPU). */
export function day(ms: number): string {
  if (!(ms >= lastDay.start && ms < lastDay.start + DAY_MS)) {
    const text = new Date(ms).toISOString().slice(0, 10);
    lastDay = { text, start: Date.parse(text) };
  }
  return lastDay.text;
}
const DAY_MS = 24 * 60 * 60 * 1000;
let lastDay = { text: '', start: Number.NaN };

/** Sums rows by one dimension, largest first. */
export function totalsBy<K extends keyof UsageRow>(rows: UsageRow[], key: K): { key: UsageRow[K]; requests: number }[] {
  const sums = new Map<UsageRow[K], number>();
  for (const row of rows) sums.set(row[key], (sums.get(row[key]) ?? 0) + row.requests);
  return [...sums].map(([k, requests]) => ({ key: k, requests })).sort((a, b) => b.requests - a.requests);
}
