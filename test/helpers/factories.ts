import type { ApiClient } from './sandbox.js';

/**
 * Records made over the API with defaults that pass validation, so a test says only what matters
 * to it: `await aDeal(api, { stage: 'won' })`. Each returns the created body (checked against the
 * OpenAPI document by the client) and throws with the problem when the API refuses, so a refusal
 * reads as the cause of the failure, not as an undefined id three lines later. A test of what the
 * API refuses posts its body itself.
 */
type Body = Record<string, unknown>;
type Made = { id: string; [field: string]: any };

let made = 0;
/** A unique suffix: records from one sandbox never collide on a unique field. */
const next = () => `${process.pid}-${++made}`;

async function create(api: ApiClient, path: string, body: Body): Promise<Made> {
  const res = await api.post(path, body);
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${res.text}`);
  return res.body as Made;
}

export function aLead(api: ApiClient, overrides: Body = {}): Promise<Made> {
  const n = next();
  return create(api, '/v1/leads', { first_name: 'Ada', last_name: `Lead ${n}`, email: `lead-${n}@example.com`, ...overrides });
}

export function aClient(api: ApiClient, overrides: Body = {}): Promise<Made> {
  const n = next();
  return create(api, '/v1/clients', { name: `Client ${n} GmbH`, email: `billing-${n}@example.com`, ...overrides });
}

/** A deal of 1,000 EUR in lead_in, for a new client unless `client_id` is given. */
export async function aDeal(api: ApiClient, overrides: Body = {}): Promise<Made> {
  const clientId = overrides.client_id ?? (await aClient(api)).id;
  return create(api, '/v1/deals', { title: `Deal ${next()}`, value: 1000, currency: 'EUR', stage: 'lead_in', client_id: clientId, ...overrides });
}

/** A draft invoice of one line (100 EUR), for a new client (with an email to send it to) unless `client_id` is given. */
export async function anInvoice(api: ApiClient, overrides: Body = {}): Promise<Made> {
  const clientId = overrides.client_id ?? (await aClient(api)).id;
  return create(api, '/v1/invoices', {
    client_id: clientId,
    currency: 'EUR',
    line_items: [{ description: 'Consulting day', quantity: 1, unit_price: 100 }],
    ...overrides,
  });
}

/** An API key with the given scopes (its secret is in `.secret`, shown this once). */
export function anApiKey(api: ApiClient, scopes: string[], overrides: Body = {}): Promise<Made> {
  return create(api, '/v1/api_keys', { name: `key ${next()}`, scopes, ...overrides });
}

/** A webhook endpoint; the default URL refuses connections (port 9), for tests that never read a delivery. */
export function aWebhookEndpoint(api: ApiClient, overrides: Body = {}): Promise<Made> {
  return create(api, '/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', ...overrides });
}
