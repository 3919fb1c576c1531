import { memoize } from '../memo.js';

/**
 * What the request log keeps of a body (API.md §11): secrets never, and at most `limit` characters
 * of JSON. redactedJson writes the JSON itself and stops at the limit, instead of copying the whole
 * body redacted and serialising it only to cut it: a bulk request of 500 leads spent ~15 % of the
 * server's import CPU in the old copy (docs/benchmarks.md). Same text as
 * JSON.stringify(redact(value)).slice(0, limit) (test/unit/redact.test.ts).
 */

const REDACTED = '[redacted]';

/** Field names whose values never reach the log: secrets, client secrets, keys, tokens, credentials. */
const SECRET_FIELD = /^(secret|client_secret|api_key|token|access_token|refresh_token|authorization|password|previous_secret|login_token|code_verifier)$|_secret$|_token$/i;

/** Bodies repeat the same few field names: the answer per name is remembered (bounded). */
const isSecretField = memoize((name: string) => SECRET_FIELD.test(name), { maxEntries: 1000, maxKeyLength: 100 });

/** A key pasted where it does not belong (a note, a description) is a secret all the same. */
export function redactText(text: string): string {
  if (!text.includes('crm_test_') && !text.includes('whsec_')) return text;
  return text.replace(/crm_test_[0-9A-Za-z]{32}/g, `crm_test_${REDACTED}`).replace(/whsec_[A-Za-z0-9+/=]{20,}/g, `whsec_${REDACTED}`);
}

/** A copy of a JSON value with every secret field's value replaced by "[redacted]", at any depth. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretField(k) && v !== null ? REDACTED : redact(v)]));
  }
  if (typeof value === 'string') return redactText(value);
  return value;
}

const FULL = Symbol('full');
/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** JSON.stringify(redact(value)).slice(0, limit), without writing more than the limit. */
export function redactedJson(value: unknown, limit: number): string {
  const parts: string[] = [];
  let length = 0;
  const push = (text: string) => {
    parts.push(text);
    length += text.length;
    if (length > limit) throw FULL;
  };
  const write = (v: unknown): void => {
    if (typeof v === 'string') push(JSON.stringify(redactText(v)));
    else if (Array.isArray(v)) {
      push('[');
      v.forEach((item, i) => {
        if (i > 0) push(',');
        if (skipped(item)) push('null');
        else write(item);
      });
      push(']');
    } else if (v !== null && typeof v === 'object') {
      push('{');
      let first = true;
      for (const [k, item] of Object.entries(v)) {
        const secret = isSecretField(k) && item !== null;
        if (!secret && skipped(item)) continue;
        push(`${first ? '' : ','}${JSON.stringify(k)}:`);
        first = false;
        if (secret) push(`"${REDACTED}"`);
        else write(item);
      }
      push('}');
    } else push(JSON.stringify(v) ?? 'null'); // numbers (NaN as null), booleans, null
  };
  try {
    write(value);
  } catch (error) {
    if (error !== FULL) throw error;
  }
  const text = parts.join('');
  return text.length > limit ? text.slice(0, limit) : text;
}
