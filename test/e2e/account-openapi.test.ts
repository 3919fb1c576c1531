import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { type RunningApp, useApp } from '../helpers/app.js';
import { type ApiClient, clearOfWindowEnd } from '../helpers/sandbox.js';
import { FAILED_AUTH_LIMIT } from '../../src/http/plugins/auth.js';

/**
 * GET /v1/openapi.json with a credential describes that account (docs/reference/custom-fields.md#the-accounts-openapi-document):
 * each record's custom_fields typed as the account defines them. The seed defines four fields.
 */
let app: RunningApp;
let api: ApiClient;
useApp({ seed: 1 }, (a, client) => {
  app = a;
  api = client;
});

type Json = Record<string, any>;
const documentFor = async (key?: string): Promise<{ status: number; body: Json }> => {
  const res = await fetch(`${app.baseUrl}/v1/openapi.json`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return { status: res.status, body: (await res.json()) as Json };
};
const customFieldsOf = (doc: Json, schema: string) => doc.components.schemas[schema].properties.custom_fields;

/** A validator of one component schema of `doc`, as the suite checks responses (Ajv 2020 with formats). */
function validatorOf(doc: Json, schema: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: 'openapi', components: JSON.parse(JSON.stringify(doc.components).replaceAll('"#/components/', '"openapi#/components/')) });
  return ajv.compile({ $ref: `openapi#/components/schemas/${schema}` });
}

describe("the account's OpenAPI document", () => {
  it('without a credential is the generic document: custom_fields any keys', async () => {
    const { body } = await documentFor();
    expect(customFieldsOf(body, 'Lead').properties).toBeUndefined();
    expect(customFieldsOf(body, 'Lead').additionalProperties).toEqual(expect.objectContaining({ anyOf: expect.any(Array) }));
  });

  it("with a key, types each object's fields: options as enums, nothing else allowed", async () => {
    const { status, body } = await documentFor(app.apiKey);
    expect(status).toBe(200);
    const lead = customFieldsOf(body, 'Lead');
    expect(lead.additionalProperties).toBe(false);
    expect(lead.properties.lifecycle_stage).toMatchObject({ type: 'string', title: 'Lifecycle stage', enum: expect.arrayContaining(['lead', 'customer']) });
    const client = customFieldsOf(body, 'Client');
    expect(client.properties.employees).toMatchObject({ type: 'number', 'x-decimals': 0 });
    expect(client.properties.industry.enum).toContain('Logistics');
    expect(customFieldsOf(body, 'Deal').properties.product_line).toMatchObject({
      type: 'array',
      uniqueItems: true,
      items: { enum: ['platform', 'services', 'support', 'training'] },
    });
    // Requests may clear a value with null.
    expect(customFieldsOf(body, 'LeadUpdateInput').properties.lifecycle_stage.anyOf).toContainEqual({ type: 'null' });
  });

  it('validates the records the API answers, and refuses a key the account does not define', async () => {
    const { body } = await documentFor(app.apiKey);
    const validLead = validatorOf(body, 'Lead');
    const lead = (await api.get('/v1/leads?limit=1')).body.data[0];
    expect(lead.custom_fields.lifecycle_stage).toBeDefined();
    expect(validLead(lead), JSON.stringify(validLead.errors)).toBe(true);
    expect(validLead({ ...lead, custom_fields: { ...lead.custom_fields, not_defined: 1 } })).toBe(false);
    expect(validLead({ ...lead, custom_fields: { lifecycle_stage: 'boiling' } })).toBe(false);
  });

  it('follows a field change at once, with required fields required on create only', async () => {
    expect(
      (
        await api.post('/v1/fields', {
          object: 'client',
          key: 'region',
          label: 'Region',
          type: 'select',
          required: true,
          options: [{ value: 'emea', label: 'EMEA' }],
        })
      ).status,
    ).toBe(201);
    const { body } = await documentFor(app.apiKey);
    expect(customFieldsOf(body, 'ClientCreateInput').required).toEqual(['region']);
    expect(customFieldsOf(body, 'ClientUpdateInput').required).toBeUndefined();
    expect(customFieldsOf(body, 'Client').properties.region.enum).toEqual(['emea']);
  });

  it("describes the key's own account, and answers 401 to a key nobody has", async () => {
    const other = (await api.post('/_sandbox/accounts', { name: 'no fields', seed: null })).body.api_key as string;
    const { body } = await documentFor(other);
    expect(customFieldsOf(body, 'Lead').properties).toEqual({});
    expect((await documentFor('crm_test_unknownunknownunknownunknown')).status).toBe(401);
  });

  // Last in the file: it leaves this address limited for the rest of the minute.
  it('counts unknown bearers with every other refused credential: 429 past the limit', async () => {
    await clearOfWindowEnd(60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 2 * FAILED_AUTH_LIMIT + 1 && !statuses.includes(429); i++) {
      statuses.push((await documentFor(`crm_test_${String(i).padStart(32, '0')}`)).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([401]));
  });
});
