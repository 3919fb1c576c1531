import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Client, ClientCreate, ClientUpdate, Contact, ContactCreate } from '../../src/schemas/client.js';
import { Deal, DealCreate, DealUpdate } from '../../src/schemas/deal.js';
import { Invoice, InvoiceCreate, InvoiceUpdate } from '../../src/schemas/invoice.js';
import { Lead, LeadCreate, LeadUpdate } from '../../src/schemas/lead.js';
import type { FieldSpec, FormSpec } from '../../web/src/records/describe.js';
import { contacts } from '../../web/src/records/resources/clients.js';
import { RESOURCES } from '../../web/src/records/resources/index.js';

/**
 * The dashboard's resource descriptions (web/src/records/resources/) against the API's own zod
 * schemas: every field the pages show exists on the record, every input exists in the create or
 * update body, every enum offers exactly the API's values. The browser bundle does not load zod,
 * so this is what keeps the two from drifting.
 */
type Shape = Record<string, z.ZodType>;
/** The object a schema is, through the lazy wrapper the resource schemas have (schemas/lazy.ts). */
const built = (schema: any): any => (schema?.def?.type === 'lazy' ? schema.unwrap() : schema);
const shapeOf = (lazy: z.ZodType): Shape => {
  const schema = built(lazy);
  return (schema.def.shape ?? schema.def.in?.def.shape ?? schema.def.schema?.def.shape) as Shape;
};

/** The schema at a dotted path, through optional/nullable wrappers. */
function at(schema: z.ZodType, key: string): z.ZodType | undefined {
  let current: any = built(schema);
  for (const part of key.split('.')) {
    while (current?.def && ['optional', 'nullable', 'default', 'pipe', 'lazy'].includes(current.def.type))
      current = current.def.type === 'lazy' ? current.unwrap() : (current.def.innerType ?? current.def.in);
    const shape = current?.def?.shape ?? current?.def?.schema?.def?.shape;
    current = shape?.[part];
    if (!current) return undefined;
  }
  return current;
}

function enumValues(schema: z.ZodType | undefined): string[] | undefined {
  let current: any = schema;
  while (current?.def && ['optional', 'nullable', 'default', 'lazy'].includes(current.def.type))
    current = current.def.type === 'lazy' ? current.unwrap() : current.def.innerType;
  return current?.def?.type === 'enum' ? Object.values(current.def.entries) : undefined;
}

const SCHEMAS: Record<string, { record: z.ZodType; create: z.ZodType; update: z.ZodType }> = {
  leads: { record: Lead, create: LeadCreate, update: LeadUpdate },
  clients: { record: Client, create: ClientCreate, update: ClientUpdate },
  deals: { record: Deal, create: DealCreate, update: DealUpdate },
  invoices: { record: Invoice, create: InvoiceCreate, update: InvoiceUpdate },
};

function checkForm(spec: FormSpec, schemas: { record: z.ZodType; create: z.ZodType; update?: z.ZodType }) {
  for (const field of spec.fields as FieldSpec[]) {
    if (!field.formOnly) expect(at(schemas.record, field.key), `${field.key} on the record`).toBeDefined();
    if (field.edit) expect(at(schemas.create, field.key), `${field.key} in the create body`).toBeDefined();
    if (field.edit === 'always' && schemas.update) expect(at(schemas.update, field.key), `${field.key} in the update body`).toBeDefined();
    if (field.edit !== 'always' && schemas.update && !field.formOnly && field.edit === 'create')
      expect(at(schemas.update, field.key), `${field.key} is not updatable`).toBeUndefined();
    if (field.type === 'enum')
      expect(
        field.options!.map((o) => o.value),
        field.key,
      ).toEqual(enumValues(at(schemas.record, field.key)));
  }
}

describe('resource descriptions match the API schemas', () => {
  for (const [name, spec] of Object.entries(RESOURCES)) {
    it(name, () => {
      expect(shapeOf(SCHEMAS[name]!.record)).toBeDefined();
      checkForm(spec, SCHEMAS[name]!);
      for (const key of [...spec.columns, ...spec.filters.filter((f) => f !== 'q')])
        expect(
          spec.fields.some((f) => f.key === key),
          key,
        ).toBe(true);
    });
  }
  it('contact persons', () => checkForm(contacts, { record: Contact, create: ContactCreate }));
});
