import { afterEach, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ClientBulkRecord, ClientBulkRequest, DealBulkRequest, LeadBulkRecord, LeadBulkRequest } from '../../src/schemas/bulk.js';
import { compiledSchema, parserFor } from '../../src/schemas/compiled.js';

/**
 * The bulk bodies are parsed by twins built around zod-compiled record schemas (schemas/compiled.ts),
 * and `crm sync import` checks its records with the same compiled schemas: the twins must answer
 * exactly as the documented schemas do, and the compiled code must really be the one that runs.
 */
const leads = [
  {
    external_id: 'ext-1',
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    status: 'new',
    source: 'web',
    tags: ['a', 'b'],
    custom_fields: { score: 5, tier: 'gold' },
  },
  { email: 'only@example.com' },
  { id: 'lead_123', company: 'Acme' },
  {}, // none of the names: the lead schema's refinement refuses it
  { first_name: 'Bad', email: 'not an email', status: 'weird' },
  { first_name: 42, tags: 'a|b' },
  { first_name: 'X', unknown_field: true },
  { first_name: 'Y', custom_fields: { nested: { too: { deep: [1, 2, { x: 1 }] } } } },
  null,
  'a string',
  { first_name: 'Z', client: { name: 'Acme', kind: 'nonsense' } },
];
const clients = [
  {
    name: 'Acme GmbH',
    kind: 'company',
    address: { line1: 'Street 1', city: 'Berlin', country: 'DE' },
    contacts: [{ first_name: 'Grace', email: 'grace@acme.example', is_primary: true }],
  },
  { name: 'No kind' },
  { name: '', kind: 'company' },
  { name: 'Bad contact', kind: 'person', contacts: [{ first_name: 'A', email: 'nope' }, { is_primary: 'yes' }] },
  { name: 'Bad address', kind: 'company', address: { country: 'Germany', zip: '10115' } },
];
const deals = [
  { title: 'Big one', value: 120000, currency: 'EUR', stage: 'qualified' },
  { title: 'x', value: -1 },
  { title: 'y', stage: 'nowhere', currency: 'euro' },
  { value: '12' },
];

function bodies(records: unknown[], matchOn: string) {
  return [
    { mode: 'upsert', match_on: matchOn, records },
    { mode: 'create', records, dry_run: true },
    { mode: 'replace', records },
    { mode: 'upsert', records: [] },
    { mode: 'upsert', match_on: 'phone', records: records.slice(0, 1) },
    { mode: 'upsert', records: records.slice(0, 1), extra: 1 },
    { records: 'all of them' },
    undefined,
  ];
}

describe('bulk bodies parsed by their compiled twins', () => {
  const cases: [string, z.ZodType, unknown[], string][] = [
    ['leads', LeadBulkRequest, leads, 'email'],
    ['clients', ClientBulkRequest, clients, 'external_id'],
    ['deals', DealBulkRequest, deals, 'external_id'],
  ];
  for (const [name, schema, records, matchOn] of cases) {
    it(`gives the answers of the documented ${name} schema, record by record and for broken bodies`, () => {
      const twin = parserFor(schema);
      expect(twin).not.toBe(schema);
      for (const body of bodies(records, matchOn)) {
        expect(twin.safeParse(body)).toEqual(schema.safeParse(body));
      }
      // Sanity: the cases hold both outcomes, per record and for whole bodies.
      const outcomes = (schema.safeParse(bodies(records, matchOn)[0]).data as { records: { ok: boolean }[] }).records.map((r) => r.ok);
      expect(outcomes).toContain(true);
      expect(outcomes).toContain(false);
      expect(schema.safeParse(bodies(records, matchOn)[2]).success).toBe(false);
    });
  }

  it('is the schema itself where no twin was declared', () => {
    expect(parserFor(LeadBulkRecord)).toBe(LeadBulkRecord);
  });
});

describe('compiled record schemas', () => {
  const spied: { schema: z.ZodType; run: unknown }[] = [];
  afterEach(() => {
    for (const { schema, run } of spied.splice(0)) (schema._zod as { run: unknown }).run = run;
  });

  /** Counts the interpreted parser's runs of the plain record schema (what the compiled code replaces). */
  function countInterpreted(schema: z.ZodType): { runs: number } {
    const internals = schema._zod as { run: (...args: unknown[]) => unknown };
    const run = internals.run;
    const counter = { runs: 0 };
    spied.push({ schema, run });
    internals.run = (...args: unknown[]) => {
      counter.runs++;
      return run(...args);
    };
    return counter;
  }

  it('are what a bulk body twin checks its records with', () => {
    const twin = parserFor(LeadBulkRequest);
    const counter = countInterpreted(LeadBulkRecord.unwrap());
    const parsed = twin.safeParse({ mode: 'upsert', records: [leads[0], leads[1], leads[2]] });
    expect((parsed.data as { records: { ok: boolean }[] }).records.map((r) => r.ok)).toEqual([true, true, true]);
    expect(counter.runs).toBe(0);
    LeadBulkRequest.safeParse({ mode: 'upsert', records: [leads[0]] });
    expect(counter.runs).toBe(1); // the documented schema: interpreted
  });

  for (const [name, lazy, valid, broken] of [
    ['lead', LeadBulkRecord, leads[0], leads[4]],
    ['client', ClientBulkRecord, clients[0], clients[3]],
  ] as [string, z.ZodLazy<z.ZodType>, unknown, unknown][]) {
    it(`checks a valid ${name} in generated code, and a refused one again by the interpreted schema for its issues`, () => {
      const counter = countInterpreted(lazy.unwrap());
      const compiled = compiledSchema(lazy);
      expect(compiled.safeParse(valid)).toEqual(lazy.safeParse(valid));
      expect(counter.runs).toBe(1); // the documented schema's parse above, not the compiled one's
      const refused = compiled.safeParse(broken);
      expect(refused.success).toBe(false);
      expect(refused).toEqual(lazy.safeParse(broken));
      expect(counter.runs).toBeGreaterThanOrEqual(3);
    });
  }
});
