import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import owaspRuleset from '@stoplight/spectral-owasp-ruleset';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/http/app.js';
import { startSandbox, type Sandbox } from '../../src/sandbox/sandbox.js';

/**
 * docs/sdks.md#the-openapi-documents-lint: the OpenAPI document passes Spectral's `spectral:oas` and OWASP API rulesets and
 * Redocly's recommended rules with no errors. Exceptions live in openapi-lint.json with their
 * reasons; one that no longer matches a finding fails, so the file stays true.
 */
interface Exception {
  rule: string;
  where: string[] | 'responses';
  reason: string;
}
const ROOT = join(import.meta.dirname, '..', '..');
const EXCEPTIONS = JSON.parse(readFileSync(join(ROOT, 'openapi-lint.json'), 'utf8')) as { spectral: Exception[]; redocly: Exception[] };

let sandbox: Sandbox;
let doc: Record<string, any>;
beforeAll(async () => {
  sandbox = await startSandbox({ db: ':memory:', seed: false, port: 0 });
  doc = openApiDocument(sandbox.app, sandbox.ctx) as Record<string, any>;
});
afterAll(() => sandbox?.stop());

/** Component schemas a request can reach (bodies and parameters): those must carry input limits. */
function requestSchemas(): Set<string> {
  const reached = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const name = value.split('/').pop()!;
        if (!reached.has(name)) {
          reached.add(name);
          visit(doc.components.schemas[name]);
        }
      } else visit(value);
    }
  };
  for (const item of Object.values<any>(doc.paths)) {
    for (const op of Object.values<any>(item)) visit([op.requestBody, op.parameters]);
  }
  return reached;
}

function waived(rule: string, path: (string | number)[], request: Set<string>): Exception | undefined {
  return EXCEPTIONS.spectral.find((e) => {
    if (e.rule !== rule) return false;
    if (e.where === 'responses') {
      if (path[0] === 'components') return path[1] === 'schemas' && !request.has(String(path[2]));
      return path[0] === 'paths' && path[3] === 'responses';
    }
    // The first words of the finding's path: `paths`, or as narrow as `paths./oauth/authorize.post`.
    const at = path.join('.');
    return e.where.some((w) => at === w || at.startsWith(`${w}.`));
  });
}

describe('the OpenAPI document, linted', () => {
  it('has no Spectral errors (spectral:oas and the OWASP API ruleset) but the written-down exceptions', async () => {
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset({ extends: [oas as any, (owaspRuleset as any).default ?? owaspRuleset] });
    const results = await spectral.run(new spectralCore.Document(JSON.stringify(doc), spectralParsers.Json, 'openapi.json'));
    const request = requestSchemas();
    const used = new Set<Exception>();
    const errors: string[] = [];
    for (const r of results.filter((r) => r.severity === 0)) {
      const exception = waived(String(r.code), r.path, request);
      if (exception) used.add(exception);
      else errors.push(`${r.code} at ${r.path.join('.')}: ${r.message}`);
    }
    expect(errors).toEqual([]);
    expect(EXCEPTIONS.spectral.filter((e) => !used.has(e)).map((e) => e.rule)).toEqual([]);
  }, 60_000);

  it('has no Redocly errors with its recommended rules', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: join(ROOT, 'openapi.json'), config });
    const errors = problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(errors).toEqual([]);
  }, 60_000);

  it('names every operation with a unique operationId and describes every operation and parameter', () => {
    const ids: string[] = [];
    for (const item of Object.values<any>(doc.paths)) {
      for (const op of Object.values<any>(item)) {
        ids.push(op.operationId);
        expect(op.description, op.operationId).toMatch(/\S/);
        for (const p of op.parameters ?? []) expect(p.description, `${op.operationId} ${p.name}`).toMatch(/\S/);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('clients.contacts.list');
    expect(ids).toContain('webhookEndpoints.rotateSecret');
  });
});
