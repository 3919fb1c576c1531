import { InvalidArgumentError } from 'commander';
import { parseDuration } from '../domain/duration.js';

/**
 * Checks of flag and argument values that the CLI can make itself, at parse time: a value that can
 * never be right (a typo in a scope, a duration without a unit, a URL without a scheme) is a usage
 * error — exit 2, said once by commander, nothing sent. What only the server can judge (a time
 * before the account's clock, an unknown id) stays the server's answer, exit 1.
 */
/** A comma- or space-separated list, each item checked against `known` at parse time: a typo is a usage error (exit 2). */
export function listOf(known: readonly string[], what: string, extra: readonly string[] = []) {
  const allowed = new Set([...known, ...extra]);
  return (value: string): string[] => {
    const items = value.split(/[\s,]+/).filter(Boolean);
    if (!items.length) throw new InvalidArgumentError(`Expected at least one ${what}.`);
    for (const item of items) {
      if (allowed.has(item)) continue;
      const near = closest(item, [...allowed]);
      throw new InvalidArgumentError(`Unknown ${what} '${item}'${near ? ` (did you mean ${near}?)` : ''}. Known: ${[...allowed].join(' ')}.`);
    }
    return items;
  };
}

/** The known word nearest a typo (edit distance at most 2), for "did you mean". */
function closest(word: string, known: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/** `7d`, `36h`, `90m`, `30s`, or combined (`1d12h`), as the sandbox's test clocks take them. */
export function duration(value: string): string {
  if (parseDuration(value) === undefined) throw new InvalidArgumentError('Expected a duration like 7d, 36h, 90m or 30s (or combined: 1d12h).');
  return value;
}

/** An RFC 3339 time with its offset: 2026-12-31T00:00:00Z. */
export function rfc3339(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError('Expected an RFC 3339 time such as 2026-12-31T00:00:00Z.');
  }
  return value;
}

/** A day (YYYY-MM-DD: its first second, in UTC) or an RFC 3339 time, as RFC 3339 (what the API takes). */
export function dayOrRfc3339(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))) return `${value}T00:00:00Z`;
  try {
    return rfc3339(value);
  } catch {
    throw new InvalidArgumentError('Expected a day such as 2026-12-31 or an RFC 3339 time such as 2026-12-31T09:30:00Z.');
  }
}

/** An http or https URL. */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('Expected a URL such as http://localhost:3000/webhooks.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`Expected an http or https URL, not ${url.protocol}.`);
  return value;
}

/** A whole number from `min` to `max`, e.g. --limit and --retries. */
export function wholeNumber(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`Expected a whole number ${min}..${max}.`);
    return n;
  };
}
