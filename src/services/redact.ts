import { isSmallTree } from '../json-tree.js';
import { memoize } from '../memo.js';

/**
 * What the request log keeps of a body (docs/dashboard.md#the-request-log): secrets never, and at most `limit` characters
 * of JSON. redactedJson writes the JSON itself and stops at the limit, instead of copying the whole
 * body redacted and serialising it only to cut it: a bulk request of 500 leads spent ~15 % of the
 * server's import CPU in the old copy (docs/benchmarks.md). Same text as
 * JSON.stringify(redact(value)).slice(0, limit) (test/unit/redact.test.ts).
 */

const REDACTED = '[redacted]';

/** Field names whose values never reach the log: secrets, client secrets, keys, tokens, credentials. */
const SECRET_FIELD =
  /^(secret|client_secret|api_key|token|access_token|refresh_token|authorization|password|previous_secret|login_token|code_verifier)$|_secret$|_token$/i;

/** Bodies repeat the same few field names: the answer per name is remembered (bounded). */
const isSecretField = memoize((name: string) => SECRET_FIELD.test(name), { maxEntries: 1000, maxKeyLength: 100 });

/**
 * Our secrets by their shape, whatever field or parameter holds them: API keys (`crm_test_`), OAuth
 * access and refresh tokens, authorization codes and client secrets (`crm_at_`, `crm_rt_`,
 * `crm_ac_`, `crm_cs_`), webhook secrets (`whsec_`). Not client ids (`crm_client_`): they are public.
 * A key registered with `--api-key` in another shape is caught only by the name of its field.
 */
const SECRET_SHAPE = /crm_test_[0-9A-Za-z]{32}|crm_(?:at|rt|ac|cs)_[0-9A-Za-z]{43}|whsec_[A-Za-z0-9+/=]{20,}/g;

/**
 * Whether a text could hold a secret, by a field's name or by its shape: every name SECRET_FIELD
 * matches contains one of these words, every SECRET_SHAPE starts with `crm_` or `whsec_`, and JSON
 * may spell a letter as `\u0065`. When it cannot, redacting it, or the JSON it parses to, changes
 * nothing; one native scan instead of parsing the text and copying it (test/unit/redact.test.ts).
 */
const SECRET_MATERIAL = /secret|token|password|authorization|api_key|code_verifier|crm_|whsec_|\\u/i;
export const mayHoldSecrets = (text: string): boolean => SECRET_MATERIAL.test(text);

/** A key pasted where it does not belong (a note, a description) is a secret all the same: its prefix stays, the rest goes. */
export function redactText(text: string): string {
  if (!text.includes('crm_') && !text.includes('whsec_')) return text;
  return text.replace(SECRET_SHAPE, (secret) => `${secret.slice(0, secret.indexOf('_', 4) + 1)}${REDACTED}`);
}

/**
 * The request log's copy of a query string (docs/security.md#what-is-stored-how), redacted as bodies are: every parameter
 * keeps its name and its place, and the value of a secret-named one (`api_key`, `access_token`,
 * `client_secret`, `token`, `*_secret`, `*_token`: the body's field names) or of one holding
 * something shaped like our secrets becomes "[redacted]" whole. Names and values are compared
 * decoded, as the server reads them (`+`, `%XX`), so `api%5Fkey=` or `crm%5Ftest_…` are caught too;
 * the parameters left alone keep their text as sent.
 */
export function redactQuery(query: string): string {
  return query.split('&').map(redactParameter).join('&');
}

function redactParameter(pair: string): string {
  const eq = pair.indexOf('=');
  const rawName = eq === -1 ? pair : pair.slice(0, eq);
  const name = decodeComponent(rawName);
  // A secret sent as a bare name (`?crm_test_…`) or used as one goes whole too.
  const shownName = holdsSecretShape(rawName, name) ? REDACTED : rawName;
  if (eq === -1) return shownName;
  const rawValue = pair.slice(eq + 1);
  const value = decodeComponent(rawValue);
  const secret = value !== '' && (isSecretField(name) || holdsSecretShape(rawValue, value));
  return `${shownName}=${secret ? REDACTED : rawValue}`;
}

/**
 * Shaped like a secret as sent or as decoded: a `whsec_…` with a `+` sent unencoded decodes to
 * something else (a space), yet the text kept is the one sent.
 */
const holdsSecretShape = (raw: string, decoded: string) => redactText(raw) !== raw || redactText(decoded) !== decoded;

/** A query component as the server decodes it; WHATWG decoding never throws on a stray `%`. */
const decodeComponent = (raw: string) => (raw.includes('%') || raw.includes('+') ? (new URLSearchParams(`v=${raw}`).get('v') ?? raw) : raw);

/** A copy of a JSON value with every secret field's value replaced by "[redacted]", at any depth. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isSecretField(k) && v !== null ? REDACTED : redact(v)]));
  }
  if (typeof value === 'string') return redactText(value);
  return value;
}

const noSecretNames = (names: string[]) => !names.some(isSecretField);

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
      // Nothing to redact in it (no secret name, no secret's shape): its text is JSON.stringify's.
      if (isSmallTree(v, 3, noSecretNames)) {
        const text = JSON.stringify(v);
        if (!text.includes('crm_') && !text.includes('whsec_')) return push(text);
      }
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
