import type { Db } from './db.js';
import { whereClause, type Condition } from './list.js';
import { stmt } from './rows.js';

/** A deal is under 2^53 minor units, so either half is under 2^30 a row: 2^33 deals still sum within 2^63. */
const SPLIT = 1_000_000_000;

/** One stage's deals in one currency: how many, and their value in minor units. */
export interface StageTotal {
  stage: string;
  currency: string;
  count: number;
  minor: bigint;
}

/**
 * Each stage's count and value per currency of the deals the conditions keep, ordered by currency.
 * Summed in SQL over the stored minor units, so totals are exact; each sum in two halves (the
 * billions and the rest), since one account's deals can add up past SQLite's 2^63 (an integer
 * overflow error) and past 2^53 (where a JSON number stops being exact): joined as a BigInt.
 */
export function dealStageTotals(db: Db, conditions: readonly Condition[]): StageTotal[] {
  const { where, params } = whereClause(conditions);
  const rows = stmt(
    db,
    `SELECT stage, currency, count(*) AS count, sum(value_minor / ${SPLIT}) AS high, sum(value_minor % ${SPLIT}) AS low
     FROM deals ${where} GROUP BY stage, currency ORDER BY currency`,
  ).all(...params) as { stage: string; currency: string; count: number; high: number; low: number }[];
  return rows.map((row) => ({ stage: row.stage, currency: row.currency, count: row.count, minor: BigInt(row.high) * BigInt(SPLIT) + BigInt(row.low) }));
}
