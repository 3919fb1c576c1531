import { describe, expect, it } from 'vitest';
import { DashboardSessions, LOGIN_TTL_MS, SESSION_TTL_MS } from '../../src/dashboard/sessions.js';

/** Sign-in tokens and sessions on a clock the test moves (API.md §11: tokens 15 min and once, sessions 12 h). */
describe('dashboard sessions', () => {
  let now = 1_000_000;
  const sessions = new DashboardSessions(() => now);

  it('a login token works once, within 15 minutes', () => {
    const { token } = sessions.mintLogin('crm_test_key');
    const id = sessions.redeem(token)!;
    expect(sessions.apiKeyOf(id)).toBe('crm_test_key');
    expect(sessions.redeem(token)).toBeUndefined();
    const late = sessions.mintLogin('crm_test_key');
    now += LOGIN_TTL_MS;
    expect(sessions.redeem(late.token)).toBeUndefined();
  });

  it('a session lasts 12 hours, and ends when closed', () => {
    const id = sessions.open('crm_test_key');
    now += SESSION_TTL_MS - 1;
    expect(sessions.apiKeyOf(id)).toBe('crm_test_key');
    now += 1;
    expect(sessions.apiKeyOf(id)).toBeUndefined();
    const other = sessions.open('crm_test_key');
    sessions.close(other);
    expect(sessions.apiKeyOf(other)).toBeUndefined();
    expect(sessions.apiKeyOf('ds_guessed')).toBeUndefined();
  });
});
