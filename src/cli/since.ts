import { InvalidArgumentError } from 'commander';
import { parseDuration, SINCE_DURATION } from '../domain/duration.js';
import { normaliseTime } from '../domain/time.js';

/** `--since 1h` (s, m, h, d) or an RFC 3339 time, as an RFC 3339 time; a commander argument parser. */
export function sinceArg(value: string): string {
  const ago = parseDuration(value.trim(), SINCE_DURATION);
  if (ago !== undefined) return new Date(Date.now() - ago).toISOString();
  const time = normaliseTime(value);
  if (!time) throw new InvalidArgumentError('Expected a duration such as 30m, 1h or 7d, or an RFC 3339 time.');
  return time;
}
