import { THREE_DIGITS, ZERO_DIGITS } from '../domain/money.js';

const list = (codes: ReadonlySet<string>) => [...codes].map((c) => `'${c}'`).join(', ');
const ZERO = list(ZERO_DIGITS);
const THREE = list(THREE_DIGITS);

/**
 * SQL for an amount in integer minor units as the number of its major units, for the lists made
 * by SQLite (list-json.ts): the same single division as toMajor (so the very same number), and a
 * whole amount as an integer (1200, not 1200.0). SQLite prints a REAL with the shortest of 15 or
 * 17 digits that gives the number back: amounts are at most 1e13 with ≤ 3 decimals, so that is the
 * text JSON.stringify prints, except for 16-digit amounts (3-decimal currencies above 10^12), whose
 * 17 digits still parse to the same number. (A printf of the exact decimal was ~40 % slower.)
 *
 * `minor` and `currency` are SQL expressions (column names, usually); `minor` must be an INTEGER.
 */
export function majorUnitsSql(minor: string, currency: string): string {
  const divided = (unit: number) => `iif(${minor} % ${unit} = 0, ${minor} / ${unit}, ${minor} / ${unit}.0)`;
  return `CASE WHEN ${currency} IN (${ZERO}) THEN ${minor} WHEN ${currency} IN (${THREE}) THEN ${divided(1000)} ELSE ${divided(100)} END`;
}
