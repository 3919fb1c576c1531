import { afterAll, describe, expect, it } from 'vitest';
import { CURRENCIES, minorDigits, toMajor } from '../../src/domain/money.js';
import { createClient } from '../../src/services/clients.js';
import { createContext } from '../../src/services/context.js';
import { createDeal, getDeal, listDeals, updateDeal } from '../../src/services/deals.js';
import { getEvent, listEvents } from '../../src/services/event-log.js';
import { createInvoice, getInvoice, listInvoices, sendInvoice } from '../../src/services/invoices.js';
import { openDb } from '../../src/store/db.js';
import type { JsonBody } from '../../src/store/list-json.js';
import { majorUnitsSql } from '../../src/store/money-sql.js';

/**
 * Deals, invoices and events are listed as JSON made by SQLite too (list-json.ts), with money
 * turned into major units and invoice lines computed in SQL. Each item must parse to exactly what
 * GET /x/{id} gives through the JavaScript code, with the same keys in the same order.
 */
const db = openDb(':memory:');
const ctx = createContext(db, () => 'http://sandbox.test:4010');
afterAll(() => db.close());

const parse = <T>(page: JsonBody) => JSON.parse(page.bytes.toString('utf8')) as { data: T[]; next_cursor: string | null };
const all = { limit: 100, sort: 'created' as const, order: 'asc' as const };

describe('money in the JSON made by SQLite', () => {
  // As a list prints it: a member of json_object(), '{"v":…}'.
  const sql = db.prepare(`SELECT json_object('v', ${majorUnitsSql(':m', ':c')})`).pluck();
  // Bound as an INTEGER, as the columns hold it (a JS number would be bound as a REAL).
  const print = (m: number, c: string) => (sql.get({ m: BigInt(m), c }) as string).slice('{"v":'.length, -1);

  it('is the decimal, whole amounts as integers', () => {
    expect([print(1999, 'EUR'), print(120000, 'EUR'), print(5, 'EUR'), print(0, 'EUR'), print(1500, 'JPY'), print(1500, 'KWD'), print(1, 'KWD')]).toEqual([
      '19.99',
      '1200',
      '0.05',
      '0',
      '1500',
      '1.5',
      '0.001',
    ]);
    expect(print(-250, 'EUR')).toBe('-2.5'); // never stored (amounts are ≥ 0), but not broken JSON either
  });

  it('parses to what toMajor gives, and prints as JSON.stringify does, for every currency and size', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (const currency of CURRENCIES) {
      const max = 1e13 * 10 ** minorDigits(currency); // MoneyAmount's maximum, in minor units
      const samples = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 1001, 123456, max - 1, max];
      for (let i = 0; i < 200; i++) samples.push(Math.floor(random() * 10 ** Math.ceil(random() * Math.log10(max))));
      for (const minor of samples) {
        const text = print(minor, currency);
        expect(JSON.parse(text), `${minor} ${currency}`).toBe(toMajor(minor, currency));
        // 16 digits (3-decimal currencies above 10^12) may have a shorter form of the same number.
        if (text.replace(/\D/g, '').length <= 15) expect(text, `${minor} ${currency}`).toBe(JSON.stringify(toMajor(minor, currency)));
      }
    }
  });
});

describe('deals, invoices and events lists made by SQLite', () => {
  const client = createClient(ctx, { name: 'Buyer', email: 'buyer@example.com' });
  const deals = [
    createDeal(ctx, { title: 'Euros', value: 1200.5, currency: 'EUR', stage: 'proposal' }),
    createDeal(ctx, { title: 'Yen', value: 1500, currency: 'JPY', stage: 'lead_in', win_probability: 1 / 3, client_id: client.id }),
    createDeal(ctx, {
      title: 'Dinar "odd" \n',
      value: 1.234,
      currency: 'KWD',
      stage: 'negotiation',
      win_probability: 1e-7,
      tags: ['x'],
    }),
    createDeal(ctx, { title: 'Max', value: 1e13, currency: 'USD', stage: 'qualified', win_probability: 1 }),
    createDeal(ctx, { title: 'Zero', value: 0, currency: 'EUR', stage: 'lead_in', win_probability: 0, expected_close_date: '2027-01-31' }),
  ];
  updateDeal(ctx, deals[0]!.id, { value: 19.99 });
  // A stored custom value, as a row holds it (the list renders whatever is there).
  db.prepare('UPDATE deals SET custom_fields = ? WHERE id = ?').run(JSON.stringify({ n: 0.1 }), deals[2]!.id);

  const invoices = [
    createInvoice(ctx, { send: false, client_id: client.id, currency: 'EUR', line_items: [{ description: 'Plain', quantity: 2, unit_price: 450 }] }),
    createInvoice(ctx, {
      send: false,
      client_id: client.id,
      currency: 'KWD',
      deal_id: deals[2]!.id,
      due_date: '2027-02-01',
      line_items: [
        { description: 'Fractional "q"', quantity: 1.5, unit_price: 0.333 },
        { description: 'Thirds', quantity: 0.333, unit_price: 10.001 },
        { description: 'Big', quantity: 1e9, unit_price: 1234.567 },
      ],
    }),
    createInvoice(ctx, { send: false, client_id: client.id, currency: 'JPY', line_items: [{ description: 'é 😀', quantity: 3, unit_price: 333 }] }),
  ];
  sendInvoice(ctx, invoices[0]!.id); // a payment link

  it('gives each deal as GET /v1/deals/{id} does', () => {
    const page = parse<{ id: string }>(listDeals(ctx, all));
    const expected = deals.map((d) => getDeal(ctx, d.id));
    expect(page.data).toEqual(expected);
    expect(page.data.map((d) => Object.keys(d))).toEqual(expected.map((d) => Object.keys(d)));
    expect(page.data[0]).toMatchObject({ value: 19.99 });
    const text = listDeals(ctx, all).bytes.toString('utf8');
    expect(text).toContain('"value":10000000000000,'); // 1e13 as JSON.stringify prints it
    expect(text).toContain('"win_probability":1,'); // not 1.0
  });

  it('gives each invoice with its lines, total and payment link as GET /v1/invoices/{id} does', () => {
    const page = parse<{ id: string; payment_link: string | null }>(listInvoices(ctx, all));
    const expected = invoices.map((i) => getInvoice(ctx, i.id));
    expect(page.data).toEqual(expected);
    expect(page.data.map((i) => Object.keys(i))).toEqual(expected.map((i) => Object.keys(i)));
    expect(page.data[0]!.payment_link).toMatch(/^http:\/\/sandbox\.test:4010\/pay\//);
    expect(page.data[1]!.payment_link).toBeNull();
  });

  it('gives each event as GET /v1/events/{id} does, previous_attributes only on updates', () => {
    const page = parse<{ id: string; type: string }>(listEvents(ctx, { limit: 100 }));
    expect(page.data.length).toBeGreaterThan(deals.length + invoices.length);
    expect(page.data).toEqual(page.data.map((e) => getEvent(ctx, e.id)));
    expect(page.data.map((e) => Object.keys(e))).toEqual(page.data.map((e) => Object.keys(getEvent(ctx, e.id))));
    expect(page.data.find((e) => e.type === 'deal.updated')).toHaveProperty('previous_attributes');
    expect(page.data.find((e) => e.type === 'deal.created')).not.toHaveProperty('previous_attributes');
  });

  it('pages deals and events with cursors and filters', () => {
    const first = parse<{ id: string }>(listDeals(ctx, { limit: 2, sort: 'created', order: 'asc' }));
    const second = parse<{ id: string }>(listDeals(ctx, { limit: 2, sort: 'created', order: 'asc', cursor: first.next_cursor! }));
    expect([...first.data, ...second.data].map((d) => d.id)).toEqual(deals.slice(0, 4).map((d) => d.id));
    expect(parse<{ id: string }>(listDeals(ctx, { ...all, stage: 'lead_in' })).data.map((d) => d.id)).toEqual([deals[1]!.id, deals[4]!.id]);
    const types = parse<{ type: string }>(listEvents(ctx, { limit: 100, type: 'invoice.created,invoice.sent' })).data.map((e) => e.type);
    expect(types).toEqual(['invoice.created', 'invoice.created', 'invoice.created', 'invoice.sent']);
    const events = parse<{ id: string }>(listEvents(ctx, { limit: 3 }));
    const rest = parse<{ id: string }>(listEvents(ctx, { limit: 100, cursor: events.next_cursor! }));
    expect([...events.data, ...rest.data]).toEqual(parse<{ id: string }>(listEvents(ctx, { limit: 100 })).data);
  });
});
