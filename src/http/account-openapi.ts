import type { FieldObject } from '../domain/custom-fields.js';
import type { Field } from '../schemas/field.js';

/**
 * The OpenAPI document of one account (docs/reference/custom-fields.md#the-accounts-openapi-document):
 * the generic document with each record's `custom_fields` described as the account defines them —
 * its keys as typed properties (enums for options), nothing else allowed. A client generated from it
 * types every custom field.
 */
type Json = Record<string, unknown>;

/** Schemas of the document by the object they describe: `Lead`, `LeadCreateInput`, `LeadBulkRecordInput`… */
const OBJECT_OF_SCHEMA: [prefix: string, object: FieldObject][] = [
  ['Lead', 'lead'],
  ['Client', 'client'],
  ['Deal', 'deal'],
];

export function accountDocument(generic: Json, fields: Field[]): Json {
  const doc = structuredClone(generic);
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(schemas)) {
    const object = OBJECT_OF_SCHEMA.find(([prefix]) => name.startsWith(prefix))?.[1];
    const properties = schema.properties as Record<string, Json> | undefined;
    if (!object || !properties?.custom_fields) continue;
    const own = fields.filter((f) => f.object === object);
    const input = name.endsWith('Input');
    const required = name.endsWith('CreateInput') ? own.filter((f) => f.required).map((f) => f.key) : [];
    properties.custom_fields = {
      type: 'object',
      description: properties.custom_fields.description ?? `The ${object}'s custom fields, by key (GET /v1/fields).`,
      properties: Object.fromEntries(own.map((f) => [f.key, valueSchema(f, input)])),
      additionalProperties: false,
      ...(required.length ? { required } : {}),
    };
  }
  return doc;
}

/** A field's value; in a request also null, which clears it. */
function valueSchema(field: Field, input: boolean): Json {
  const described = { title: field.label, ...(field.description ? { description: field.description } : {}) };
  const value = { ...typed(field), ...described };
  return input ? { anyOf: [value, { type: 'null' }], ...described } : value;
}

function typed(field: Field): Json {
  const options = field.options?.map((o) => o.value) ?? [];
  switch (field.type) {
    case 'text':
      return { type: 'string', maxLength: 1000 };
    case 'long_text':
      return { type: 'string', maxLength: 65_535 };
    case 'number':
      // The decimals in words: multipleOf with a fraction is what float validators get wrong.
      return field.decimals === null ? { type: 'number' } : { type: 'number', 'x-decimals': field.decimals };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date', maxLength: 10 };
    case 'datetime':
      return { type: 'string', format: 'date-time', maxLength: 40 };
    case 'select':
      return { type: 'string', enum: options };
    case 'multi_select':
      return { type: 'array', items: { type: 'string', enum: options }, uniqueItems: true, maxItems: options.length };
    case 'email':
      return { type: 'string', format: 'email', maxLength: 254 };
    case 'url':
      return { type: 'string', format: 'uri', maxLength: 2000 };
    case 'phone':
      return { type: 'string', maxLength: 50 };
  }
}
