/**
 * Two ways the request schemas zod gives are described so that tools read them as the server does.
 */
type Json = Record<string, any>;

/**
 * A default in a request schema moves into the description. The server fills an omitted field in, so
 * the field is optional to send; but generators read `default` as "always present" (openapi-typescript
 * with its default `defaultNonNullable: true` makes `InvoiceCreateInput.send` a required property,
 * openapi-typescript issue #2489), which is true of a response and false of a request. Response
 * schemas keep their defaults. Request schemas are the `…Input` components (the zod provider's input
 * forms), inline request bodies and query parameters (a parameter's `required` is its own, but a
 * generator reading the schema alone would make the same mistake).
 */
export function describeInputDefaults(doc: Json): void {
  for (const [name, schema] of Object.entries<Json>(doc.components.schemas ?? {})) if (name.endsWith('Input')) moveDefaults(schema);
  for (const item of Object.values<Json>(doc.paths)) {
    for (const op of Object.values<Json>(item)) {
      for (const media of Object.values<Json>(op.requestBody?.content ?? {})) moveDefaults(media.schema);
      for (const parameter of op.parameters ?? []) {
        if (parameter.schema && 'default' in parameter.schema) {
          parameter.description = withDefault(parameter.description, parameter.schema.default);
          delete parameter.schema.default;
        }
      }
    }
  }
}

function moveDefaults(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(moveDefaults);
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  for (const property of Object.values<Json>(schema.properties ?? {})) {
    if (property && typeof property === 'object' && 'default' in property) {
      property.description = withDefault(property.description, property.default);
      delete property.default;
    }
  }
  for (const [key, value] of Object.entries(schema)) if (key !== '$ref') moveDefaults(value);
}

const withDefault = (description: unknown, value: unknown): string => {
  const text = typeof description === 'string' && description ? description.replace(/\.?$/, '.') + ' ' : '';
  return `${text}Default: \`${JSON.stringify(value)}\`.`;
};

/**
 * The records of a bulk request are checked one by one on the server: a record that breaks its
 * schema fails alone (its result says why) and the batch goes on. A request schema that required
 * every record to match would have a validating gateway refuse the whole batch for one bad email.
 * So an array marked `x-checked-per-record` (schemas/bulk.ts) takes any item: the record schema,
 * or anything else, which the server answers per record with `status: failed`.
 */
export function markPerRecordItems(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(markPerRecordItems);
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  if (schema['x-checked-per-record'] === true && schema.items) {
    delete schema['x-checked-per-record'];
    schema.items = {
      anyOf: [schema.items, { description: 'Any other value: the record fails on its own, with `status: failed` and its errors in the results.' }],
    };
    return;
  }
  for (const value of Object.values(schema)) markPerRecordItems(value);
}
