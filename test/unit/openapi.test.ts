import { Validator } from '@seriousme/openapi-schema-validator';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ApiKeyCreate } from '../../src/schemas/api-key.js';
import { ClientCreate } from '../../src/schemas/client.js';
import { DealCreate } from '../../src/schemas/deal.js';
import { InvoiceCreate } from '../../src/schemas/invoice.js';
import { LeadCreate } from '../../src/schemas/lead.js';
import { WebhookEndpointCreate } from '../../src/schemas/webhook.js';
import { CRM_BIN } from '../helpers/sandbox.js';

describe('the OpenAPI document', () => {
  const doc = JSON.parse(execFileSync(process.execPath, [CRM_BIN, 'openapi'], { encoding: 'utf8', maxBuffer: 64 << 20 })) as Record<string, any>;

  it('is a valid OpenAPI 3.1 document, by an independent validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('documents every resource operation of the contract', () => {
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    for (const resource of ['leads', 'clients', 'deals', 'invoices']) {
      expect(ops).toContain(`POST /v1/${resource}`);
      expect(ops).toContain(`GET /v1/${resource}`);
      expect(ops).toContain(`GET /v1/${resource}/{id}`);
      expect(ops).toContain(`PATCH /v1/${resource}/{id}`);
    }
    for (const op of [
      'DELETE /v1/leads/{id}',
      'POST /v1/leads/{id}/convert',
      'POST /v1/deals/{id}/win',
      'POST /v1/deals/{id}/lose',
      'POST /v1/deals/{id}/reopen',
      'GET /v1/pipelines',
      'POST /v1/invoices/{id}/send',
      'POST /v1/invoices/{id}/pay',
      'POST /v1/invoices/{id}/void',
      'POST /v1/clients/{id}/contacts',
      'POST /v1/api_keys',
      'GET /healthz',
    ]) {
      expect(ops).toContain(op);
    }
    expect(ops).not.toContain('DELETE /v1/invoices/{id}');
  });

  it('declares bearer auth and problem+json errors', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const created = doc.paths['/v1/deals'].post.responses;
    expect(Object.keys(created)).toEqual(expect.arrayContaining(['201', '401', '403', '422']));
    expect(created['422'].content['application/problem+json'].schema.$ref).toBe('#/components/schemas/Problem');
  });

  it('marks a request body optional exactly where the route takes none (lose, convert, resend, rotate_secret)', () => {
    const bodies = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { required: boolean } }>>).flatMap(([path, methods]) =>
      Object.entries(methods).flatMap(([method, op]) => (op.requestBody ? [[`${method.toUpperCase()} ${path}`, op.requestBody.required] as const] : [])),
    );
    const optional = bodies.filter(([, required]) => !required).map(([op]) => op);
    expect(optional.sort()).toEqual([
      'POST /v1/deals/{id}/lose',
      'POST /v1/events/{id}/resend',
      'POST /v1/leads/{id}/convert',
      'POST /v1/webhook_endpoints/{id}/rotate_secret',
    ]);
    expect(Object.fromEntries(bodies)).toMatchObject({ 'POST /v1/leads': true, 'PATCH /v1/deals/{id}': true, 'POST /v1/leads/bulk': true });
  });
});

describe('the examples in the OpenAPI document', () => {
  it('are valid requests by the schemas that document them', () => {
    for (const schema of [LeadCreate, ClientCreate, DealCreate, InvoiceCreate, WebhookEndpointCreate, ApiKeyCreate].map((lazy) => lazy.unwrap())) {
      const examples = (schema.meta()?.examples ?? []) as unknown[];
      expect(examples.length, String(schema.meta()?.id)).toBeGreaterThan(0);
      for (const example of examples) expect(schema.safeParse(example).error, String(schema.meta()?.id)).toBeUndefined();
    }
  });
});
