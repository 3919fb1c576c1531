#!/usr/bin/env node
// Writes docs/reference/fields.md: every field of each resource, from the OpenAPI document of this
// build (the same zod schemas that validate requests), so the field tables in the docs cannot drift
// from what the API accepts. `--check` writes nothing and exits 1 when the committed file differs
// (test/unit/doc-fields.test.ts runs that in CI). Part of `npm run sdk`'s family: run it after a
// schema change: `npm run build && node scripts/docs-fields.mjs`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = JSON.parse(execFileSync(process.execPath, [join(root, 'bin/crm.js'), 'openapi'], { encoding: 'utf8', maxBuffer: 64 << 20 }));
const schemas = doc.components.schemas;
const OUT = join(root, 'docs', 'reference', 'fields.md');

/** [title, response schema, create input schema, update input schema] */
const RESOURCES = [
  ['Lead', 'Lead', 'LeadCreateInput', 'LeadUpdateInput'],
  ['Client', 'Client', 'ClientCreateInput', 'ClientUpdateInput'],
  ['Address (of a client)', null, 'AddressInput', null],
  ['Contact person', 'Contact', 'ContactCreateInput', 'ContactUpdateInput'],
  ['Deal', 'Deal', 'DealCreateInput', 'DealUpdateInput'],
  ['Invoice', 'Invoice', 'InvoiceCreateInput', 'InvoiceUpdateInput'],
  ['API key', 'ApiKey', 'ApiKeyCreateInput', null],
  ['OAuth app', 'OAuthApp', 'OAuthAppCreateInput', null],
  ['Webhook endpoint', 'WebhookEndpoint', 'WebhookEndpointCreateInput', 'WebhookEndpointUpdateInput'],
  ['Webhook delivery', 'WebhookDelivery', null, null],
  ['Event', 'Event', null, null],
  ['Account', 'Account', null, null],
];

const deref = (s) => (s?.$ref ? schemas[s.$ref.split('/').pop()] : s);
const refName = (s) =>
  s?.$ref
    ?.split('/')
    .pop()
    .replace(/Input$/, '');

/** A property as [type text, nullable, rules]. */
function describe(raw) {
  let s = raw;
  let nullable = false;
  if (s.anyOf) {
    const others = s.anyOf.filter((x) => x.type !== 'null');
    nullable = others.length < s.anyOf.length;
    s = others.length === 1 ? { ...others[0], description: s.description ?? others[0].description } : s;
  }
  if (Array.isArray(s.type)) {
    nullable ||= s.type.includes('null');
    s = { ...s, type: s.type.find((t) => t !== 'null') };
  }
  const rules = [];
  let type = s.type ?? (s.$ref ? `object (${refName(s)})` : s.anyOf ? s.anyOf.map((x) => x.type).join(' or ') : 'any');
  if (s.$ref) type = refName(s);
  if (s.enum) {
    type = 'string';
    rules.push(
      s.enum.length > 30
        ? `ISO 4217 code (${s.enum.length} values, e.g. ${s.enum.filter((c) => ['EUR', 'USD', 'JPY'].includes(c)).join(', ')})`
        : `one of ${s.enum.map((v) => `\`${v}\``).join(', ')}`,
    );
  }
  if (s.type === 'array') {
    const items = deref(s.items) ?? {};
    type = `array of ${s.items?.$ref ? refName(s.items) : items.enum ? 'strings' : `${items.type ?? 'any'}s`}`;
    if (items.enum && !s.enum) rules.push(`each one of ${items.enum.map((v) => `\`${v}\``).join(', ')}`);
    if (s.minItems !== undefined || s.maxItems !== undefined) rules.push(`${s.minItems ?? 0}..${s.maxItems ?? '∞'} items`);
    if (items.maxLength) rules.push(`each at most ${items.maxLength} characters`);
  }
  if (s.format === 'email') rules.push('an email address');
  else if (s.format === 'date-time') rules.push('RFC 3339 time');
  else if (s.format === 'date') rules.push('`YYYY-MM-DD`');
  else if (s.format === 'uri') rules.push('a URL');
  if (s.minLength !== undefined && s.maxLength !== undefined) rules.push(`${s.minLength}..${s.maxLength} characters`);
  else if (s.maxLength !== undefined && !s.enum) rules.push(`at most ${s.maxLength} characters`);
  // zod gives every integer the safe-integer bounds: not a rule worth a reader's time.
  const bound = (n) => (n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n);
  if (bound(s.minimum) !== undefined || bound(s.maximum) !== undefined) rules.push(`${bound(s.minimum) ?? '−∞'}..${bound(s.maximum) ?? '∞'}`);
  if (s.exclusiveMinimum !== undefined) rules.push(`> ${s.exclusiveMinimum}`);
  if (s.default !== undefined) rules.push(`default \`${JSON.stringify(s.default)}\``);
  if (s.description) rules.push(s.description);
  return [type, nullable, rules.join('; ')];
}

const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

function table([title, out, create, update]) {
  const output = out ? schemas[out] : undefined;
  const input = create ? schemas[create] : undefined;
  const patch = update ? schemas[update] : undefined;
  const names = [...new Set([...Object.keys(output?.properties ?? {}), ...Object.keys(input?.properties ?? {})])];
  const lines = [`## ${title}`, ''];
  if (out)
    lines.push(
      `Returned as \`${out}\`${create ? `; created from \`${create.replace(/Input$/, '')}\`` : ''}${update ? `, changed by \`${update.replace(/Input$/, '')}\` (every field optional)` : ''}.`,
      '',
    );
  lines.push('| Field | Type | On create | Rules |', '|---|---|---|---|');
  for (const name of names) {
    const fromInput = input?.properties?.[name];
    const [type, nullable, described] = describe(fromInput ?? output.properties[name]);
    const rules = !fromInput && /_at$/.test(name) && !described ? 'RFC 3339 time, UTC, milliseconds' : described;
    const onCreate = !input ? '—' : !fromInput ? 'read-only' : input.required?.includes(name) ? '**required**' : 'optional';
    const note = fromInput && output && !output.properties?.[name] ? ' (sent, not returned)' : '';
    const patchable = patch && fromInput && !patch.properties?.[name] ? ' (not in the update body)' : '';
    lines.push(`| \`${name}\` | ${cell(type)}${nullable ? ' or null' : ''} | ${onCreate}${note} | ${cell(rules)}${patchable} |`);
  }
  return lines.join('\n');
}

const text = [
  '# Fields',
  '',
  '<!-- Generated by `node scripts/docs-fields.mjs` from the OpenAPI document (GET /v1/openapi.json); do not edit by hand. -->',
  '',
  'Every field of every resource, as the API accepts and returns it. The rules are the ones the',
  'server checks: a body breaking one is `422 validation_failed` naming the field (see',
  '[errors.md](errors.md)); a field not listed is refused (`unknown_field`). "read-only" fields are',
  'set by the server. Lengths count characters (Unicode code points). The same document drives the',
  'SDKs and the interactive reference at `{base_url}/docs`.',
  '',
  ...RESOURCES.map(table).flatMap((t) => [t, '']),
].join('\n');

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(OUT, 'utf8');
  } catch {}
  if (committed !== text) {
    console.error('docs/reference/fields.md differs from the OpenAPI document: run `npm run build && node scripts/docs-fields.mjs`.');
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
  console.log('wrote docs/reference/fields.md');
}
