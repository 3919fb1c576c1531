import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApiView, type Resource } from '../../src/sdkgen/lang/api-view.js';
import { alignRows, goName } from '../../src/sdkgen/lang/go.js';
import { LANGUAGES, renderLanguage, writeLanguage } from '../../src/sdkgen/generate.js';
import { CRM_BIN } from '../helpers/sandbox.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('the SDK generator', () => {
  const doc = JSON.parse(execFileSync(process.execPath, [CRM_BIN, 'openapi'], { encoding: 'utf8', maxBuffer: 64 << 20 })) as object;
  const view = buildApiView(doc as Parameters<typeof buildApiView>[0]);
  const resource = (name: string): Resource => view.resources.find((r) => r.name === name)!;
  const temp = mkdtempSync(join(tmpdir(), 'crm-sdkgen-'));
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it('committed SDK files are what the document generates (regenerating changes nothing)', () => {
    expect(LANGUAGES).toEqual(['typescript', 'python', 'go', 'php']);
    for (const lang of LANGUAGES) expect(writeLanguage(lang, doc, join(ROOT, 'sdks', lang), true), lang).toEqual([]);
  });

  it('renders deterministically', () => {
    for (const lang of LANGUAGES) {
      expect([...renderLanguage(lang, doc)]).toEqual([...renderLanguage(lang, doc)]);
    }
  });

  it('names the methods and actions of the common SDK surface from the operationIds', () => {
    expect(
      resource('leads')
        .methods.map((m) => m.name)
        .sort(),
    ).toEqual(['bulk', 'convert', 'create', 'delete', 'list', 'retrieve', 'update']);
    expect(resource('deals').methods.map((m) => m.name)).toEqual(expect.arrayContaining(['win', 'lose', 'reopen', 'bulk']));
    expect(resource('invoices').methods.map((m) => m.name)).toEqual(expect.arrayContaining(['send', 'pay', 'void']));
    expect(
      resource('events')
        .methods.map((m) => m.name)
        .sort(),
    ).toEqual(['list', 'resend', 'retrieve']); // the SSE stream is not a method
    expect(resource('webhookEndpoints').methods.map((m) => m.name)).toEqual(expect.arrayContaining(['rotateSecret', 'recover', 'listDeliveries']));
    const contacts = resource('clients').children[0]!;
    expect(contacts.name).toBe('contacts');
    expect(contacts.methods.find((m) => m.name === 'update')!.pathParams.map((p) => p.name)).toEqual(['client_id', 'contact_id']);
    expect(view.resources.map((r) => r.name).sort()).toEqual([
      'account',
      'apiKeys',
      'assistant',
      'clients',
      'deals',
      'events',
      'fields',
      'invoices',
      'leads',
      'oauthApps',
      'pipelines',
      'requestLogs',
      'usage',
      'webhookEndpoints',
    ]);
    expect(
      resource('account')
        .methods.map((m) => m.name)
        .sort(),
    ).toEqual(['retrieve', 'startTrial']);
  });

  it('makes the finite event streams methods with typed events, and leaves the endless ones out', () => {
    const assistant = resource('assistant');
    expect(assistant.methods.map((m) => m.name)).toEqual(['retrieve', 'ask', 'confirm']);
    const ask = assistant.methods.find((m) => m.name === 'ask')!;
    expect(ask.result).toEqual({ kind: 'stream', event: 'AssistantStreamEvent' });
    // Required body fields are arguments; the optional ones a params object of their own.
    expect(ask.args!.map((f) => [f.name, f.type.kind])).toEqual([['content', 'string']]);
    expect(ask.body).toEqual({ type: 'AssistantAskParams', required: false });
    expect(view.objects.find((o) => o.name === 'AssistantAskParams')!.fields.map((f) => f.name)).toEqual(['conversation_id']);
    const confirm = assistant.methods.find((m) => m.name === 'confirm')!;
    expect(confirm.pathParams.map((p) => p.name)).toEqual(['confirmation_id']);
    expect(confirm.args!.map((f) => [f.name, f.type.kind])).toEqual([['approve', 'boolean']]);
    expect(confirm.body).toBeUndefined();
    expect(view.objects.find((o) => o.name === 'AssistantStreamEvent')?.role).toBe('model');
    // The record's own id is `id`, not named after the namespace above it (it was assistant_id).
    const conversations = assistant.children.find((c) => c.name === 'conversations')!;
    expect(conversations.methods.map((m) => [m.name, m.pathParams.map((p) => p.name)])).toEqual([
      ['list', []],
      ['retrieve', ['id']],
    ]);
    expect(resource('usage').methods.map((m) => m.name)).toEqual(['retrieve']); // usage.stream runs until closed
  });

  it('types lists, params and nested objects', () => {
    const list = resource('leads').methods.find((m) => m.name === 'list')!;
    expect(list.result).toEqual({ kind: 'list', item: 'Lead', page: 'LeadList', paginated: true });
    expect(list.query?.type).toBe('LeadListParams');
    const invoice = view.objects.find((o) => o.name === 'Invoice')!;
    expect(invoice.fields.find((f) => f.name === 'line_items')!.type).toEqual({ kind: 'array', items: { kind: 'object', name: 'InvoiceLineItem' } });
    const deal = view.objects.find((o) => o.name === 'Deal')!;
    expect(deal.fields.find((f) => f.name === 'stage')).toMatchObject({ enumName: 'Stage', required: true });
    const create = view.objects.find((o) => o.name === 'InvoiceCreateParams')!;
    // `send` has a default: optional to send although the schema lists it as required.
    expect(create.fields.find((f) => f.name === 'send')!.required).toBe(false);
    expect(create.fields.find((f) => f.name === 'client_id')!.required).toBe(true);
  });

  it('spells Go names with initialisms', () => {
    expect(['client_id', 'redirect_uris', 'ApiKey', 'OAuthApp', 'webhookEndpoints', 'line1'].map(goName)).toEqual([
      'ClientID',
      'RedirectURIs',
      'APIKey',
      'OAuthApp',
      'WebhookEndpoints',
      'Line1',
    ]);
  });

  it('aligns struct rows as gofmt does: a one-cell row breaks the block', () => {
    expect(
      alignRows([['APIResource'], ['ID', 'string', '`json:"id"`'], ['LongerName', '*int', '`json:"n"`'], ['// doc'], ['X', 'bool', '`json:"x"`']]),
    ).toEqual(['\tAPIResource', '\tID         string `json:"id"`', '\tLongerName *int   `json:"n"`', '\t// doc', '\tX bool `json:"x"`']);
  });

  it('writes generated files, removes stale ones and never touches hand-written ones', () => {
    const out = join(temp, 'go');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'client.go'), 'package crm\n// hand-written\n');
    writeFileSync(join(out, 'gone_gen.go'), '// Code generated by `npm run sdk` (crm sdk generate --lang go) from the OpenAPI document. DO NOT EDIT.\n');
    const written = writeLanguage('go', doc, out);
    expect(written).toEqual(expect.arrayContaining(['leads_gen.go', 'models_gen.go', 'gone_gen.go']));
    expect(existsSync(join(out, 'gone_gen.go'))).toBe(false);
    expect(readFileSync(join(out, 'client.go'), 'utf8')).toBe('package crm\n// hand-written\n');
    expect(writeLanguage('go', doc, out, true)).toEqual([]);
    writeFileSync(join(out, 'leads_gen.go'), 'edited by hand');
    expect(writeLanguage('go', doc, out, true)).toEqual(['leads_gen.go']);
  });

  it("leaves a package's build output alone: pip's build/ and *.egg-info/, npm's dist/, Composer's vendor/", () => {
    const out = join(temp, 'python');
    writeLanguage('python', doc, out);
    const copies = ['build/lib/crm/_models.py', 'crm_sandbox_sdk.egg-info/_models.py', 'dist/generated/models.ts', 'vendor/x/Lead.php'];
    for (const copy of copies) {
      mkdirSync(join(out, copy, '..'), { recursive: true });
      writeFileSync(join(out, copy), readFileSync(join(out, 'crm', '_models.py'), 'utf8'));
    }
    expect(writeLanguage('python', doc, out, true)).toEqual([]);
    expect(writeLanguage('python', doc, out)).toEqual([]);
    for (const copy of copies) expect(existsSync(join(out, copy)), copy).toBe(true);
  });
});
