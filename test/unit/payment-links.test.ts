import { afterAll, describe, expect, it } from 'vitest';
import { seed } from '../../src/seed/seed.js';
import { createContext, type Ctx } from '../../src/services/context.js';
import { inTransaction } from '../../src/services/transactions.js';
import { renewPaymentLinks } from '../../src/services/payment-links.js';
import { openDb } from '../../src/store/db.js';

/** renewPaymentLinks: new tokens, and every copy of a link the account keeps follows its invoice. */
const BASE = 'http://sandbox.test:4321';
const ctx = createContext(openDb(':memory:'), () => BASE);
inTransaction(ctx, () => seed(ctx, 3));
afterAll(() => ctx.db.close());

const tokens = (c: Ctx) =>
  new Map(c.db.prepare('SELECT id, payment_token FROM invoices WHERE payment_token IS NOT NULL').raw(true).all() as [string, string][]);
const linksIn = (c: Ctx, id: string) => {
  const texts = [
    ...(c.db.prepare('SELECT body FROM mailbox WHERE invoice_id = ?').pluck().all(id) as string[]),
    ...(c.db.prepare('SELECT data FROM events WHERE object_id = ?').pluck().all(id) as string[]),
    ...(c.db.prepare('SELECT previous_attributes FROM events WHERE object_id = ? AND previous_attributes IS NOT NULL').pluck().all(id) as string[]),
  ];
  return texts.flatMap((t) => [...t.matchAll(/https?:\/\/[^\s"]+\/pay\/[A-Za-z0-9_-]+/g)].map((m) => m[0]));
};

describe('renewPaymentLinks', () => {
  it('gives every invoice with a link a new token, and its mail and events the new link', () => {
    const before = tokens(ctx);
    expect(before.size).toBeGreaterThan(5);
    renewPaymentLinks(ctx);
    const after = tokens(ctx);
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [id, token] of after) {
      expect(token).not.toBe(before.get(id));
      expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const links = linksIn(ctx, id);
      expect(links.length, id).toBeGreaterThan(0);
      expect(new Set(links), id).toEqual(new Set([`${BASE}/pay/${token}`]));
    }
  });

  it('with `only`, renews just those tokens and leaves the others, and their links, as they were', () => {
    const before = tokens(ctx);
    const [renewedId, keptId] = [...before.keys()];
    renewPaymentLinks(ctx, { only: new Set([before.get(renewedId!)!]) });
    const after = tokens(ctx);
    expect(after.get(renewedId!)).not.toBe(before.get(renewedId!));
    expect(linksIn(ctx, renewedId!)).not.toContain(`${BASE}/pay/${before.get(renewedId!)}`);
    for (const [id, token] of after) if (id !== renewedId) expect(token, id).toBe(before.get(id));
    expect(new Set(linksIn(ctx, keptId!))).toEqual(new Set([`${BASE}/pay/${before.get(keptId!)}`]));
  });

  it('leaves an account without payment links alone', () => {
    const empty = createContext(openDb(':memory:'), () => BASE);
    expect(() => renewPaymentLinks(empty)).not.toThrow();
    empty.db.close();
  });
});
