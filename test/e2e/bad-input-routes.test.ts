import { describe, expect, it } from 'vitest';
import {
  JSON_TYPE,
  MISSING,
  RESOURCES,
  counts,
  expectParamError,
  expectProblem,
  idOf,
  snapshot,
  type BadInputEnv,
  type Resource,
  useBadInputEnv,
} from './bad-input-shared.js';

/** Ids that do not exist, paths that do not exist, and methods a path does not have. */
let env: BadInputEnv;

useBadInputEnv((e) => (env = e));

/** A valid PATCH body per resource, so a 404 is about the id and nothing else. */
const PATCH_BODY: Record<Resource, unknown> = {
  leads: { notes: 'x' },
  clients: { phone: '+49 30 1' },
  deals: { title: 'x' },
  invoices: { due_date: '2026-12-31' },
};

describe('unknown ids are 404 not_found and change nothing', () => {
  const ops: [string, Resource, string, unknown][] = RESOURCES.flatMap((r) => [
    ['GET', r, `/v1/${r}/${MISSING[r]}`, undefined],
    ['PATCH', r, `/v1/${r}/${MISSING[r]}`, PATCH_BODY[r]],
    ...(r === 'invoices' ? [] : ([['DELETE', r, `/v1/${r}/${MISSING[r]}`, undefined]] as [string, Resource, string, unknown][])),
  ]);
  const actions: [string, Resource, string, unknown][] = [
    ['POST', 'deals', `/v1/deals/${MISSING.deals}/win`, undefined],
    ['POST', 'deals', `/v1/deals/${MISSING.deals}/lose`, { reason: 'x' }],
    ['POST', 'deals', `/v1/deals/${MISSING.deals}/reopen`, { stage: 'qualified' }],
    ['POST', 'invoices', `/v1/invoices/${MISSING.invoices}/send`, undefined],
    ['POST', 'invoices', `/v1/invoices/${MISSING.invoices}/pay`, undefined],
    ['POST', 'invoices', `/v1/invoices/${MISSING.invoices}/void`, undefined],
    ['POST', 'leads', `/v1/leads/${MISSING.leads}/convert`, {}],
    ['GET', 'clients', `/v1/clients/${MISSING.clients}/contacts`, undefined],
    ['POST', 'clients', `/v1/clients/${MISSING.clients}/contacts`, { first_name: 'Ada' }],
  ];
  // An id of another resource, and ids that try SQL or path tricks.
  const odd: [string, Resource, string, unknown][] = [
    ['GET', 'leads', '/v1/leads/__ID_OF_CLIENT__', undefined],
    ['GET', 'deals', `/v1/deals/${encodeURIComponent("' OR 1=1 --")}`, undefined],
    ['DELETE', 'leads', `/v1/leads/${encodeURIComponent("lead_x'; DROP TABLE leads; --")}`, undefined],
    ['GET', 'clients', `/v1/clients/${encodeURIComponent('..%2F..%2Fetc%2Fpasswd')}`, undefined],
    ['GET', 'invoices', '/v1/invoices/%00', undefined],
  ];
  it.each([...ops, ...actions, ...odd])('%s %s: %s', async (method, _resource, rawPath, body) => {
    const path = rawPath.replace('__ID_OF_CLIENT__', env.ids.client);
    const before = await counts(env);
    const res = await env.api.request(method, path, body === undefined ? {} : { body });
    expectProblem(res, 404, 'not_found');
    expect(await counts(env)).toEqual(before);
  });
});

describe('unknown routes are 404 not_found', () => {
  const ROUTES: [string, string][] = [
    ['GET', '/v1/nope'],
    ['GET', '/v1/lead'],
    ['GET', '/v2/leads'],
    ['GET', '/V1/leads'],
    ['GET', '/nope'],
    ['GET', '/v1/leads/lead_x/nope'],
    ['GET', '/v1/deals/deal_x/win/again'],
    ['POST', '/v1/nope'],
    ['DELETE', '/v1/nope/x'],
    ['GET', '/v1//leads'],
  ];
  it.each(ROUTES)('%s %s', async (method, path) => {
    const res = await env.api.request(method, path, method === 'POST' ? { body: { a: 1 } } : {});
    expectProblem(res, 404, 'not_found');
    expect(res.headers.get('allow')).toBeNull();
  });

  it('a POST with a non-JSON body to an unknown route is still 404, not 415', async () => {
    const res = await env.api.request('POST', '/v1/nope', { rawBody: 'x=1', headers: { 'content-type': 'text/plain' } });
    expectProblem(res, 404, 'not_found');
  });
});

describe('a method the path does not have is 405 method_not_allowed with Allow', () => {
  const METHODS: [string, string, string[]][] = [
    ['PUT', '/v1/leads/{lead}', ['GET', 'PATCH', 'DELETE']],
    ['POST', '/v1/leads/{lead}', ['GET', 'PATCH', 'DELETE']],
    ['DELETE', '/v1/invoices/{invoice}', ['GET', 'PATCH']],
    ['PUT', '/v1/invoices/{invoice}', ['GET', 'PATCH']],
    ['PUT', '/v1/clients/{client}', ['GET', 'PATCH', 'DELETE']],
    ['PUT', '/v1/deals/{deal}', ['GET', 'PATCH', 'DELETE']],
    ['PATCH', '/v1/leads', ['GET', 'POST']],
    ['DELETE', '/v1/deals', ['GET', 'POST']],
    ['PUT', '/v1/invoices', ['GET', 'POST']],
    ['GET', '/v1/deals/{deal}/win', ['POST']],
    ['DELETE', '/v1/invoices/{invoice}/send', ['POST']],
    ['GET', '/v1/leads/{lead}/convert', ['POST']],
  ];
  it.each(METHODS)('%s %s', async (method, template, allowed) => {
    const path = template.replace(/\{(\w+)\}/, (_, name: 'lead' | 'client' | 'deal' | 'invoice') => env.ids[name]);
    const resource = path.split('/')[2] as Resource;
    const before = await snapshot(env, resource, idOf(env, resource));
    const res = await env.api.request(method, path, ['PUT', 'POST', 'PATCH'].includes(method) ? { body: { title: 'x' } } : {});
    expectProblem(res, 405, 'method_not_allowed');
    const allow = (res.headers.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    expect(allow.sort()).toEqual([...allowed].sort());
    expect(await snapshot(env, resource, idOf(env, resource))).toEqual(before);
  });

  it('a 405 is decided before the body: malformed JSON to a wrong method is still 405', async () => {
    const res = await env.api.request('PUT', `/v1/leads/${env.ids.lead}`, { rawBody: 'x', headers: { 'content-type': 'text/plain' } });
    expectProblem(res, 405, 'method_not_allowed');
  });
});

describe('broken URLs are 400 invalid_request as problem+json', () => {
  it('a broken percent-encoding in the path', async () => {
    expectProblem(await env.api.get('/v1/leads/%E0%A4%A'), 400, 'invalid_request');
  });
  it('an id longer than 100 characters', async () => {
    expectParamError(await env.api.get(`/v1/leads/lead_${'x'.repeat(120)}`), 'id', 'too_big');
  });
  it('a path parameter past the router limit (500 characters)', async () => {
    expectProblem(await env.api.get(`/v1/deals/${'x'.repeat(600)}`), 400, 'invalid_request');
  });
  it('a PATCH with an over-long id changes nothing', async () => {
    const before = await counts(env);
    const res = await env.api.request('PATCH', `/v1/clients/${'c'.repeat(101)}`, { rawBody: '{"name":"x"}', headers: JSON_TYPE });
    expectParamError(res, 'id', 'too_big');
    expect(await counts(env)).toEqual(before);
  });
});
