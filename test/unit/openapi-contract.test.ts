import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CRM_BIN } from '../helpers/sandbox.js';

/**
 * docs/api.md#the-openapi-document: what the document says about requests, errors and defaults, operation by operation.
 * (The conformance test, test/e2e/openapi-conformance.test.ts, checks the same against the server
 * through Prism; this one names each rule, so a regression says which.)
 */
type Json = Record<string, any>;
const doc = JSON.parse(execFileSync(process.execPath, [CRM_BIN, 'openapi'], { encoding: 'utf8', maxBuffer: 64 << 20 })) as Json;
const operations = Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
  Object.entries<Json>(item).map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })),
);
const authenticated = operations.filter(({ op }) => (op.security ?? []).some((s: Json) => 'bearerAuth' in s));
const writes = authenticated.filter(({ method }) => ['post', 'patch', 'delete'].includes(method));
const codesOf = (response: Json | undefined): string[] =>
  String(response?.description ?? '')
    .match(/`[a-z_]+`/g)
    ?.map((c) => c.slice(1, -1)) ?? [];
const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

describe('the OpenAPI document, operation by operation', () => {
  it('documents 413 payload_too_large and 415 unsupported_media_type on every authenticated write', () => {
    expect(writes.length).toBeGreaterThan(40);
    for (const { name, op } of writes) {
      expect(codesOf(op.responses['413']), name).toContain('payload_too_large');
      expect(codesOf(op.responses['415']), name).toContain('unsupported_media_type');
      expect(op.responses['413'].content, name).toEqual(PROBLEM);
      expect(op.responses['415'].content, name).toEqual(PROBLEM);
    }
  });

  it('documents 421 misdirected_request on the sandbox controls, which answer only under their own Host', () => {
    const controls = operations.filter(({ path }) => path.startsWith('/_sandbox/'));
    expect(controls.length).toBeGreaterThan(10);
    for (const { name, op } of controls) expect(codesOf(op.responses['421']), name).toEqual(['misdirected_request']);
  });

  it('names every 400 code an operation can answer, and says an unknown query parameter is one', () => {
    for (const { name, method, op } of authenticated) {
      const codes = codesOf(op.responses['400']);
      expect(codes, name).toContain('invalid_request');
      if (method !== 'get') expect(codes, name).toContain('malformed_json');
      const query = (op.parameters ?? []).filter((p: Json) => p.in === 'query');
      if (query.some((p: Json) => p.name === 'cursor')) expect(codes, name).toContain('invalid_cursor');
      if (query.length > 0) expect(op.responses['400'].description, name).toMatch(/query parameter this operation does not list/);
    }
  });

  it("declares Idempotency-Key on every write under /v1 and /_sandbox, with its 409 and 422 codes beside the route's own", () => {
    for (const { name, op } of writes) {
      expect(
        (op.parameters ?? []).map((p: Json) => `${p.in} ${p.name.toLowerCase()}`),
        name,
      ).toContain('header idempotency-key');
      expect(codesOf(op.responses['409']), name).toContain('idempotency_key_in_use');
      expect(codesOf(op.responses['422']), name).toContain('idempotency_key_reused');
    }
    // A route that documents 409 and 422 itself keeps its codes too.
    expect(codesOf(doc.paths['/v1/deals'].post.responses['409'])).toEqual(expect.arrayContaining(['conflict', 'idempotency_key_in_use']));
    expect(codesOf(doc.paths['/v1/deals'].post.responses['422'])).toEqual(expect.arrayContaining(['validation_failed', 'idempotency_key_reused']));
    expect(doc.paths['/_sandbox/accounts'].post.description).toMatch(/Idempotency-Key/);
  });

  it('gives times in queries and bodies format: date-time', () => {
    const timeParameters = operations.flatMap(({ name, op }) =>
      (op.parameters ?? [])
        .filter((p: Json) => ['created_after', 'updated_after', 'since'].includes(p.name))
        .map((p: Json) => [`${name} ${p.name}`, p.schema.format]),
    );
    expect(timeParameters.length).toBeGreaterThanOrEqual(10);
    for (const [where, format] of timeParameters) expect(format, where).toBe('date-time');
    expect(doc.components.schemas.WebhookRecoverInput.properties.since.format).toBe('date-time');
    expect(doc.components.schemas.ClockMoveInput.properties.to.format).toBe('date-time');
  });

  it('uses only formats JSON Schema defines (no "starts_with")', () => {
    const known = new Set([
      'date-time',
      'date',
      'time',
      'duration',
      'email',
      'uri',
      'uri-reference',
      'uuid',
      'hostname',
      'ipv4',
      'ipv6',
      'int32',
      'int64',
      'float',
      'double',
      'regex',
    ]);
    const formats: string[] = [];
    JSON.stringify(doc, (key, value) => {
      if (key === 'format' && typeof value === 'string') formats.push(value);
      return value;
    });
    expect(formats.filter((f) => !known.has(f))).toEqual([]);
    expect(doc.components.schemas.FaultRuleInput.properties.path_prefix.pattern).toBe('^\\/v1\\/');
  });

  it('lists the OAuth protocol endpoints the metadata advertises, and itself', () => {
    expect(Object.keys(doc.paths['/oauth/authorize'])).toEqual(['get', 'post']);
    expect(doc.paths['/oauth/token'].post.requestBody.content).toHaveProperty('application/x-www-form-urlencoded');
    expect(doc.paths['/oauth/token'].post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/OAuthTokens');
    expect(doc.paths['/oauth/revoke'].post.responses).toHaveProperty('401');
    expect(doc.paths['/v1/openapi.json'].get.responses['200'].content).toHaveProperty('application/json');
  });

  it('keeps defaults out of request schemas (generators would make those fields required) and says them in words', () => {
    const inputs = Object.entries<Json>(doc.components.schemas).filter(([name]) => name.endsWith('Input'));
    expect(inputs.length).toBeGreaterThan(20);
    const bodies = operations.flatMap(({ name, op }) => Object.values<Json>(op.requestBody?.content ?? {}).map((m) => [name, m.schema] as const));
    for (const [name, schema] of [...inputs, ...bodies]) expect(JSON.stringify(schema), name).not.toMatch(/"default":/);
    expect(doc.components.schemas.InvoiceCreateInput.properties.send.description).toMatch(/Default: `true`/);
    expect(doc.components.schemas.FaultRuleInput.properties.count.description).toMatch(/Default: `1`/);
    expect(doc.components.schemas.FaultRuleInput.required).toEqual(['path_prefix']);
    // Responses keep theirs: there the field is always present.
    expect(doc.components.schemas.FaultRule.properties.count.default).toBe(1);
  });

  it('lets a bulk batch with one invalid record through its request schema (the server fails that record alone)', () => {
    const ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    for (const resource of ['leads', 'clients', 'deals']) {
      const schema = JSON.parse(
        JSON.stringify(doc.paths[`/v1/${resource}/bulk`].post.requestBody.content['application/json'].schema).replaceAll(
          '"#/components/',
          '"openapi#/components/',
        ),
      );
      const validate = ajv.compile(schema);
      const batch = { mode: 'create', records: [{ first_name: 'Ada', name: 'Ada', title: 'Ada', email: 'not an email', value: 'lots' }, 42] };
      expect(validate(batch), `${resource}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(validate({ mode: 'create', records: [] }), resource).toBe(false); // the batch's own rules stay
      expect(validate({ mode: 'merge', records: [{}] }), resource).toBe(false);
    }
  });
});
