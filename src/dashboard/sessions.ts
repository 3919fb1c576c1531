import { createHash, randomBytes } from 'node:crypto';

/**
 * Dashboard sign-in (API.md §11), held in memory: a restart signs everyone out, as a local tool may.
 * A login token is random, single-use and valid 15 minutes; trading it gives a session (a random id
 * in an HttpOnly cookie, valid 12 hours). A session holds the API key it acts as — the key that minted
 * the login token, or one pasted on the sign-in page — and every request re-authenticates that key, so
 * revoking it ends the session on its next request. Tokens and session ids are kept only as hashes.
 */
export const LOGIN_TTL_MS = 15 * 60 * 1000;
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'crm_session';

const hash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const random = (prefix: string): string => `${prefix}${randomBytes(24).toString('base64url')}`;

interface Grant {
  apiKey: string;
  expiresAt: number;
}

export class DashboardSessions {
  private readonly logins = new Map<string, Grant>();
  private readonly sessions = new Map<string, Grant>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A single-use login token acting as `apiKey`. */
  mintLogin(apiKey: string): { token: string; expiresAt: number } {
    this.sweep();
    const token = random('dlt_');
    const expiresAt = this.now() + LOGIN_TTL_MS;
    this.logins.set(hash(token), { apiKey, expiresAt });
    return { token, expiresAt };
  }

  /** Trades a login token for a session id; undefined if it is unknown, used or expired. */
  redeem(token: string): string | undefined {
    const key = hash(token);
    const grant = this.logins.get(key);
    this.logins.delete(key); // once, whatever happens next
    if (!grant || grant.expiresAt <= this.now()) return undefined;
    return this.open(grant.apiKey);
  }

  /** A session for an API key the user pasted (the caller checked that the key is valid). */
  open(apiKey: string): string {
    const id = random('ds_');
    this.sessions.set(hash(id), { apiKey, expiresAt: this.now() + SESSION_TTL_MS });
    return id;
  }

  /** The API key a live session acts as. */
  apiKeyOf(sessionId: string): string | undefined {
    const grant = this.sessions.get(hash(sessionId));
    if (!grant) return undefined;
    if (grant.expiresAt > this.now()) return grant.apiKey;
    this.sessions.delete(hash(sessionId));
    return undefined;
  }

  close(sessionId: string): void {
    this.sessions.delete(hash(sessionId));
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, grant] of this.logins) if (grant.expiresAt <= now) this.logins.delete(key);
    for (const [key, grant] of this.sessions) if (grant.expiresAt <= now) this.sessions.delete(key);
  }
}
