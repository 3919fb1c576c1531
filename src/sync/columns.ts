import type { z } from 'zod';
import { LeadCreate } from '../schemas/lead.js';
import { Address, ClientCreate, ContactCreate } from '../schemas/client.js';
import { enumLookup, enumValues } from './enum-values.js';
import type { FieldDef } from './fields/definitions.js';
import type { FieldIndex } from './fields/field-index.js';

/**
 * The CSV columns of each resource, derived from the zod create schemas so that the CSV speaks
 * exactly the API's vocabulary. A column is one of:
 *   - a field of the create body (`first_name`, `status`, `tags`, …);
 *   - `address.<field>` (clients) and `contact.<field>` (clients: one contact person, the primary);
 *   - `custom.<key>`: one custom field; `custom_fields`: the rest of them as a JSON object;
 *   - `id`: names the record to update (upsert); the read-only fields an export also writes
 *     (`created_at`, `updated_at`, `converted_client_id`) are accepted and ignored on import.
 */
const SYNC_RESOURCES = ['leads', 'clients'] as const;
export type SyncResource = (typeof SYNC_RESOURCES)[number];

export type Target =
  | { kind: 'id' }
  /** `choices`: an enum field's values by their valueKey, so that `New` and `Cold Call` read as `new` and `cold_call`. */
  | { kind: 'field'; field: string; nullable: boolean; choices?: Map<string, string> }
  | { kind: 'tags' }
  /**
   * `field`: the key's definition, which reads and writes its cells by type (fields/field-cells.ts);
   * without one (a server before definitions) a cell's text says its type (cells.ts). `checkOnly`:
   * a field a plan would create, so its cells are checked and not sent (the server does not know it yet).
   */
  | { kind: 'custom'; key: string; field?: FieldDef; column?: string; checkOnly?: boolean }
  /** `defined`: the object's fields by key, when known: a key of the JSON that is none of them, or a value not of its type, fails the row. */
  | { kind: 'custom_json'; defined?: Map<string, FieldDef> }
  | { kind: 'address'; field: string }
  | { kind: 'contact'; field: string }
  | { kind: 'readonly'; field: string }
  | { kind: 'ignored' };

export interface Catalogue {
  /** Every column an export writes by default, in order (custom.<key> columns are added per file). */
  columns: string[];
  /** Fixed column name -> what it holds. */
  targets: Map<string, Target>;
}

const READ_ONLY: Record<SyncResource, string[]> = {
  leads: ['converted_client_id', 'created_at', 'updated_at'],
  clients: ['created_at', 'updated_at'],
};

const nullable = (schema: z.ZodType) => schema.safeParse(null).success;

function plainFields(shape: Record<string, z.ZodType>, skip: string[]): [string, Target][] {
  return Object.entries(shape)
    .filter(([name]) => !skip.includes(name))
    .map(([name, schema]): [string, Target] => {
      const values = enumValues(schema);
      return [name, { kind: 'field', field: name, nullable: nullable(schema), ...(values ? { choices: enumLookup(values) } : {}) }];
    });
}

function build(resource: SyncResource): Catalogue {
  const entries: [string, Target][] = [['id', { kind: 'id' }]];
  if (resource === 'leads') {
    const shape = LeadCreate.unwrap().shape as unknown as Record<string, z.ZodType>;
    entries.push(['external_id', { kind: 'field', field: 'external_id', nullable: true }]);
    entries.push(...plainFields(shape, ['external_id', 'tags', 'custom_fields']));
  } else {
    const shape = ClientCreate.unwrap().shape as unknown as Record<string, z.ZodType>;
    entries.push(['external_id', { kind: 'field', field: 'external_id', nullable: true }]);
    entries.push(...plainFields(shape, ['external_id', 'tags', 'custom_fields', 'address', 'contacts']));
    for (const field of Object.keys(Address.unwrap().shape)) entries.push([`address.${field}`, { kind: 'address', field }]);
    for (const field of Object.keys(ContactCreate.unwrap().shape)) {
      if (field !== 'is_primary') entries.push([`contact.${field}`, { kind: 'contact', field }]);
    }
  }
  entries.push(['tags', { kind: 'tags' }], ['custom_fields', { kind: 'custom_json' }]);
  for (const field of READ_ONLY[resource]) entries.push([field, { kind: 'readonly', field }]);
  return { columns: entries.map(([name]) => name), targets: new Map(entries) };
}

export const CATALOGUES: Record<SyncResource, Catalogue> = { leads: build('leads'), clients: build('clients') };

/** Header names match ignoring case, spaces, underscores, dashes and dots: "First Name" is first_name, "Address City" address.city. */
const normaliseName = (name: string): string => name.toLowerCase().replace(/[\s_.-]+/g, '');

const CUSTOM_PREFIX = /^\s*custom\s*\.(.+)$/i;

/**
 * What a column name (a header, or the right side of --map) holds, or undefined if nothing. With
 * the object's field definitions, a custom field is one of them (by key or label, field-index.ts);
 * without them (a server before definitions) any `custom.<name>` is one.
 */
export function targetOf(catalogue: Catalogue, name: string, fields?: FieldIndex): Target | undefined {
  const custom = CUSTOM_PREFIX.exec(name);
  if (custom && !fields) return { kind: 'custom', key: custom[1]! };
  if (!custom) {
    const wanted = normaliseName(name);
    for (const [column, target] of catalogue.targets) if (normaliseName(column) === wanted) return target;
  }
  const field = fields?.find(name);
  return field ? { kind: 'custom', key: field.key, field } : undefined;
}

/** Whether a field's key would read back as a built-in column: its export column is then `custom.<key>`. */
export function keyIsBuiltInColumn(catalogue: Catalogue, key: string): boolean {
  return targetOf(catalogue, key) !== undefined;
}

/** The canonical column name of a target, for messages and for duplicate detection. */
export function columnName(target: Target): string {
  switch (target.kind) {
    case 'id':
      return 'id';
    case 'field':
      return target.field;
    case 'tags':
      return 'tags';
    case 'custom':
      return `custom.${target.key}`;
    case 'custom_json':
      return 'custom_fields';
    case 'address':
      return `address.${target.field}`;
    case 'contact':
      return `contact.${target.field}`;
    case 'readonly':
      return target.field;
    case 'ignored':
      return '(ignored)';
  }
}
