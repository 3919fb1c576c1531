import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/sandbox.js';
import { useApp, type RunningApp } from '../helpers/app.js';
import { aClient, anInvoice } from '../helpers/factories.js';

/** Failures the OpenAPI fuzzer (scripts/fuzz) found, shrunk to their smallest request, kept as tests. */
let sandbox: RunningApp;
let api: ApiClient;
useApp({}, (s, a) => {
  sandbox = s;
  api = a;
});

function count(table: string): number {
  const db = new Database(sandbox.db, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

let clientId: string;
let invoiceId: string;
let dealId: string;
beforeAll(async () => {
  clientId = (await aClient(api)).id;
  invoiceId = (await anInvoice(api, { client_id: clientId, send: false })).id;
  dealId = (await api.post('/v1/deals', { title: 'Fuzz deal', value: 1, currency: 'EUR', stage: 'qualified' })).body.id;
});

describe('an empty string as a related id is refused with 422, not a 500', () => {
  it('PATCH /v1/invoices/{id} {"deal_id": ""} (fuzz seed 17017)', async () => {
    const before = (await api.get(`/v1/invoices/${invoiceId}`)).body;
    const res = await api.patch(`/v1/invoices/${invoiceId}`, { deal_id: '' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'deal_id', code: 'not_found' })]);
    expect((await api.get(`/v1/invoices/${invoiceId}`)).body).toEqual(before);
  });

  it('POST /v1/invoices with deal_id "" creates nothing', async () => {
    const invoices = count('invoices');
    const events = count('events');
    const res = await api.post('/v1/invoices', { client_id: clientId, deal_id: '', line_items: [{ description: 'x', quantity: 1, unit_price: 10 }] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'deal_id', code: 'not_found' })]);
    expect([count('invoices'), count('events')]).toEqual([invoices, events]);
  });

  it('POST and PATCH of a deal with client_id "" change nothing', async () => {
    const deals = count('deals');
    const created = await api.post('/v1/deals', { title: 'No client', value: 1, currency: 'EUR', stage: 'qualified', client_id: '' });
    expect(created.status).toBe(422);
    expect(created.body.errors).toEqual([expect.objectContaining({ path: 'client_id', code: 'not_found' })]);
    expect(count('deals')).toBe(deals);
    const before = (await api.get(`/v1/deals/${dealId}`)).body;
    const patched = await api.patch(`/v1/deals/${dealId}`, { client_id: '' });
    expect(patched.status).toBe(422);
    expect((await api.get(`/v1/deals/${dealId}`)).body).toEqual(before);
  });
});

describe('a URL over 16 KB (seed 5, 1,000 cases: GET /v1/clients/{id}/contacts/{contact_id} with two 10,000-character ids)', () => {
  it('is a documented 431 problem, headers_too_large, not the HTTP layer’s own JSON', async () => {
    const long = 'x'.repeat(10_000);
    // apiClient checks every answer against the OpenAPI document: 431 must be listed there.
    const res = await api.get(`/v1/clients/${long}/contacts/${long}`);
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({ status: 431, code: 'headers_too_large', request_id: expect.stringMatching(/^req_/) });
    expect(res.body.detail).toContain('16 KB');
    // The server goes on answering.
    expect((await api.get('/v1/leads?limit=1')).status).toBe(200);
  });
});
