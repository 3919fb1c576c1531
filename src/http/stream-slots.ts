import { ApiError } from '../errors.js';

/**
 * How many live streams (/v1/events/stream, /v1/usage/stream, /dashboard/stream) one credential
 * and one account may hold open at once. Each open stream costs a timer and a database read every
 * second (its safety poll, its credential check, a usage report); ~15,000–20,000 of them fill a
 * core, for every account of the sandbox (docs/security.md#keys-tokens-and-sessions). 50 is far more than a CI job, `crm listen` and a few
 * dashboard tabs need; 500 lets ten such keys of one account stream at once.
 */
export const STREAMS_PER_CREDENTIAL = 50;
export const STREAMS_PER_ACCOUNT = 500;

interface OpenStreams {
  total: number;
  byCredential: Map<string, number>;
}

/** Open streams per account, keyed by the account's database (each account has its own). */
const byAccount = new WeakMap<object, OpenStreams>();

/**
 * Takes a slot for a new stream of `credential` (the principal's subject: a key, which its
 * dashboard sessions stream as, or an OAuth app's tokens) in `account`, or refuses with 429 while
 * either cap is full. Returns the release, to call once when the stream ends.
 */
export function takeStreamSlot(account: object, credential: string): () => void {
  let open = byAccount.get(account);
  if (!open) byAccount.set(account, (open = { total: 0, byCredential: new Map() }));
  const mine = open.byCredential.get(credential) ?? 0;
  if (mine >= STREAMS_PER_CREDENTIAL) {
    throw tooMany(`This credential already has ${STREAMS_PER_CREDENTIAL} open streams, the most one may hold. Close one before opening another.`);
  }
  if (open.total >= STREAMS_PER_ACCOUNT) {
    throw tooMany(`This account already has ${STREAMS_PER_ACCOUNT} open streams, the most one may hold. Close one before opening another.`);
  }
  open.total++;
  open.byCredential.set(credential, mine + 1);
  let released = false;
  const counts = open;
  return () => {
    if (released) return;
    released = true;
    counts.total--;
    const left = counts.byCredential.get(credential)! - 1;
    if (left === 0) counts.byCredential.delete(credential);
    else counts.byCredential.set(credential, left);
  };
}

// No Retry-After: a slot frees when a stream closes, not after a time the server could name.
const tooMany = (detail: string) => new ApiError('rate_limited', detail);
