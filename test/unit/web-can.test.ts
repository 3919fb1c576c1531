import { afterEach, describe, expect, it } from 'vitest';
import { can, me } from '../../web/src/api.js';
import { hasScope, SCOPES } from '../../src/domain/scopes.js';

/** The dashboard shows what the signed-in key may do by the server's scope rule (src/domain/scopes.ts), not a copy of it. */
describe('can()', () => {
  afterEach(() => {
    me.value = undefined;
  });

  it('agrees with hasScope for every scope, whatever the key holds', () => {
    for (const granted of [[], ['*'], ['leads:write'], ['leads:read'], ['keys:write', 'usage:read'], ['logs:read']]) {
      me.value = { key_id: 'key_1', scopes: granted };
      for (const scope of SCOPES) expect(can(scope), `${granted.join(',')} → ${scope}`).toBe(hasScope(granted, scope));
    }
  });

  it('grants nothing before anyone is signed in', () => {
    for (const scope of SCOPES) expect(can(scope)).toBe(false);
    me.value = null;
    expect(can('leads:read')).toBe(false);
  });
});
