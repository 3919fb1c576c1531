import { InvalidArgumentError } from 'commander';
import { normaliseTime } from '../domain/time.js';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since 1h` (s, m, h, d) or an RFC 3339 time, as an RFC 3339 time; a commander argument parser. */
export function sinceArg(value: string): string {
  const match = /^(\d+(?:\.\d+)?)([smhd])$/.exec(value.trim());
  if (match) return new Date(Date.now() - Number(match[1]) * UNITS[match[2]!]!).toISOString();
  const time = normaliseTime(value);
  if (!time) throw new InvalidArgumentError('Expected a duration such as 30m, 1h or 7d, or an RFC 3339 time.');
  return time;
}
