import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.js';
import { memoize } from '../memo.js';

/**
 * Opaque keyset cursors. A cursor carries the last row's sort key and a hash of the list's
 * filters and sort, signed with the database's secret: a cursor used with other filters, or
 * edited by hand, is refused with 400 invalid_cursor instead of silently returning other rows.
 */
export interface CursorPosition {
  /** The sort key of the last row returned: [id], or [key, id] (the key a text or a number, e.g. updated_at or a deal's value). */
  after: (string | number)[];
}

/** Fingerprints of the filter sets seen lately: a list asks for the same few again and again. */
const fingerprintOf = memoize((stable: string) => createHash('sha256').update(stable).digest('base64url').slice(0, 16), {
  maxEntries: 1000,
  maxKeyLength: 1000,
});

export function filterFingerprint(filters: Record<string, unknown>): string {
  return fingerprintOf(
    JSON.stringify(
      Object.keys(filters)
        .sort()
        .filter((k) => filters[k] !== undefined)
        .map((k) => [k, filters[k]]),
    ),
  );
}

function sign(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest().subarray(0, 16);
}

export function encodeCursor(secret: string, fingerprint: string, position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify({ a: position.after, f: fingerprint })).toString('base64url');
  return `${payload}.${sign(secret, payload).toString('base64url')}`;
}

export const invalidCursor = (why: string) =>
  new ApiError('invalid_cursor', `${why} Start again without a cursor, or pass the next_cursor of the previous page unchanged.`);

export function decodeCursor(secret: string, fingerprint: string, cursor: string): CursorPosition {
  const invalid = invalidCursor;
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) throw invalid('The cursor is malformed.');
  // Compare the text, not decoded bytes: base64 decoding ignores the spare low bits of the last
  // character, so several spellings decode to the same signature and a one-character edit would pass.
  const expected = Buffer.from(sign(secret, payload).toString('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('The cursor was altered or is not from this server.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid('The cursor is malformed.');
  }
  const { a, f } = parsed as { a?: unknown; f?: unknown };
  if (!Array.isArray(a) || !a.every((v) => typeof v === 'string' || Number.isFinite(v))) throw invalid('The cursor is malformed.');
  if (f !== fingerprint) throw invalid('The cursor belongs to a list with other filters or another sort.');
  return { after: a };
}
