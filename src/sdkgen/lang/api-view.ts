/**
 * The resource-shaped view of the OpenAPI document that the Go and PHP renderers draw: namespaces
 * (leads, clients.contacts, …) with their methods (create, list, convert, …), and every object type
 * (response models and request params) with named nested types. The view is plain data, sorted, so
 * rendering is deterministic.
 */

export type TypeRef =
  /** decimal: a number, or past what a double holds exactly an exact decimal string (money sums). */
  | { kind: 'string' | 'number' | 'integer' | 'boolean' | 'decimal' | 'any' }
  | { kind: 'array'; items: TypeRef }
  | { kind: 'map'; values: TypeRef }
  | { kind: 'object'; name: string };

export interface Field {
  /** The API's name (snake_case). */
  name: string;
  type: TypeRef;
  nullable: boolean;
  required: boolean;
  description?: string;
  /** String values of an enum field. */
  enumValues?: string[];
  /** The enum's own name when it is a shared schema (Stage). */
  enumName?: string;
}

export interface ObjectType {
  name: string;
  role: 'model' | 'params';
  description?: string;
  fields: Field[];
}

interface PathParam {
  /** The placeholder in the path (id, contact_id). */
  placeholder: string;
  /** What the method calls it (id, client_id, contact_id). */
  name: string;
}

type MethodResult =
  | { kind: 'model'; type: string }
  | { kind: 'list'; item: string; page: string; paginated: boolean }
  /** Server-Sent Events, each `data:` one `event` object: the SDKs return an iterator of them. */
  | { kind: 'stream'; event: string };

export interface Method {
  /** camelCase: create, list, rotateSecret, listDeliveries. */
  name: string;
  summary: string;
  httpMethod: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The path with {placeholders}. */
  path: string;
  pathParams: PathParam[];
  /**
   * A stream's required body fields, as arguments of their own after the path's ids
   * (`assistant.ask(content, { conversation_id })`): a command reads better than a params object.
   */
  args?: Field[];
  /** Params object sent as the JSON body (of a stream: its optional fields only). */
  body?: { type: string; required: boolean };
  /** Params object sent as the query string. */
  query?: { type: string };
  result: MethodResult;
}

export interface Resource {
  /** camelCase namespace: leads, webhookEndpoints, contacts. */
  name: string;
  /** The singular model name its items have: Lead, WebhookEndpoint, Contact. */
  singular: string;
  methods: Method[];
  children: Resource[];
}

export interface ApiView {
  resources: Resource[];
  objects: ObjectType[];
}

type Schema = Record<string, any>;
interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

const HTTP_METHODS = ['get', 'post', 'patch', 'delete'] as const;

/**
 * Event streams that are not SDK methods yet: they run until closed and resume with Last-Event-ID,
 * which the SDKs' stream iterators do not do (`rawRequest` reaches them). A finite stream, an
 * answer streamed as it is made (assistant.ask), is a method.
 */
const UNSTREAMED = new Set(['events.stream', 'usage.stream']);

export const pascal = (s: string): string =>
  s
    .split(/[_\-\s.]+|(?=[A-Z])/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
export const camel = (s: string): string => {
  const p = pascal(s);
  return p[0]!.toLowerCase() + p.slice(1);
};
const singular = (s: string): string =>
  s.endsWith('ies') ? s.slice(0, -3) + 'y' : s.endsWith('sses') ? s.slice(0, -2) : /[^su]s$/.test(s) ? s.slice(0, -1) : s;

export function buildApiView(doc: OpenApiDocument): ApiView {
  const schemas = doc.components?.schemas ?? {};
  const objects = new Map<string, ObjectType>();

  const refName = (ref: string): string => ref.split('/').pop()!;
  const baseName = (name: string): string => name.replace(/Input$/, '');

  /** Registers an object schema under a name (once) and returns its TypeRef. */
  function objectRef(name: string, schema: Schema, role: ObjectType['role']): TypeRef {
    if (!objects.has(name)) {
      const object: ObjectType = { name, role, fields: [] };
      if (schema.description) object.description = schema.description;
      objects.set(name, object); // before its fields: a schema may refer to itself
      object.fields.push(...fieldsOf(name, schema, role));
    }
    return { kind: 'object', name };
  }

  function fieldsOf(name: string, schema: Schema, role: ObjectType['role']): Field[] {
    const required = new Set<string>(schema.required ?? []);
    return Object.entries<Schema>(schema.properties ?? {}).map(([prop, propSchema]) => {
      // Items of an array are named in the singular (line_items: InvoiceLineItem).
      const word = pascal(propSchema.type === 'array' ? singular(prop) : prop);
      const nested = role === 'params' ? name.replace(/Params$/, '') + word + 'Params' : name + word;
      const t = typeOf(propSchema, role, nested);
      // A field with a default is optional to send, although zod lists it as required.
      const field: Field = { name: prop, type: t.type, nullable: t.nullable, required: required.has(prop) && propSchema.default === undefined };
      const description = propSchema.description ?? t.description;
      if (description) field.description = description;
      if (t.enumValues) field.enumValues = t.enumValues;
      if (t.enumName) field.enumName = t.enumName;
      return field;
    });
  }

  interface Typed {
    type: TypeRef;
    nullable: boolean;
    description?: string;
    enumValues?: string[];
    enumName?: string;
  }

  function typeOf(schema: Schema, role: ObjectType['role'], nestedName: string): Typed {
    if (schema.$ref) {
      const name = refName(schema.$ref);
      const target = schemas[name] ?? {};
      if (target.type === 'object' && target.properties) {
        return { type: objectRef(role === 'params' ? baseName(name) + 'Params' : baseName(name), target, role), nullable: false };
      }
      const t = typeOf(target, role, nestedName);
      return t.enumValues ? { ...t, enumName: baseName(name) } : t;
    }
    if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
      // An option that allows anything (only a description: a bulk record the server checks on its
      // own, openapi-inputs.ts) adds nothing an SDK can type: the typed option is what to send.
      const options: Schema[] = (schema.anyOf ?? schema.oneOf).filter((o: Schema) => !Object.keys(o).every((k) => k === 'description'));
      const present = options.filter((o) => o.type !== 'null');
      const nullable = present.length < options.length;
      if (present.length === 1) {
        const t = typeOf(present[0]!, role, nestedName);
        return { ...t, nullable: nullable || t.nullable, ...(present[0]!.description ? { description: present[0]!.description } : {}) };
      }
      if (present.every((o) => typeof o.const === 'number' || o.type === 'number' || o.type === 'integer')) {
        return { type: { kind: 'number' }, nullable };
      }
      if (present.length === 2 && present.some((o) => o.type === 'number') && present.some((o) => o.type === 'string')) {
        return { type: { kind: 'decimal' }, nullable };
      }
      return { type: { kind: 'any' }, nullable };
    }
    let type = schema.type;
    let nullable = false;
    if (Array.isArray(type)) {
      nullable = type.includes('null');
      const rest = type.filter((t: string) => t !== 'null');
      type = rest.length === 1 ? rest[0] : undefined;
    }
    if (schema.const !== undefined && type === undefined) type = typeof schema.const === 'string' ? 'string' : typeof schema.const;
    if (Array.isArray(schema.enum)) {
      return { type: { kind: 'string' }, nullable, enumValues: schema.enum.map(String) };
    }
    switch (type) {
      case 'string':
      case 'number':
      case 'integer':
      case 'boolean':
        return { type: { kind: type }, nullable };
      case 'array': {
        const items = typeOf(schema.items ?? {}, role, nestedName);
        return { type: { kind: 'array', items: items.type }, nullable };
      }
      case 'object':
        if (schema.properties) return { type: objectRef(nestedName, schema, role), nullable };
        if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
          return { type: { kind: 'map', values: typeOf(schema.additionalProperties, role, nestedName).type }, nullable };
        }
        return { type: { kind: 'map', values: { kind: 'any' } }, nullable };
      default:
        return { type: { kind: 'any' }, nullable };
    }
  }

  // Group the /v1 operations by their resource path.
  const resources: Resource[] = [];
  const findResource = (list: Resource[], name: string, singularName: string): Resource => {
    let r = list.find((x) => x.name === name);
    if (!r) {
      r = { name, singular: singularName, methods: [], children: [] };
      list.push(r);
    }
    return r;
  };

  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/v1/') || path === '/v1/openapi.json') continue;
    for (const verb of HTTP_METHODS) {
      const op = item[verb];
      if (!op) continue;
      const success = Object.keys(op.responses ?? {}).find((c) => c.startsWith('2'));
      const content = success ? (op.responses[success].content ?? {}) : {};
      const stream = content['text/event-stream'];
      if (!content['application/json'] && (!stream || UNSTREAMED.has(op.operationId))) continue;
      const segments = path.split('/').slice(2);
      const isParam = (s: string | undefined): boolean => s !== undefined && s.startsWith('{');

      // The resource chain and the method name are the operationId's parts (src/http/operation-ids.ts):
      // clients.contacts.list → resource clients, child contacts, method list.
      const params = segments.filter(isParam).map((seg) => seg.slice(1, -1));
      const chain = String(op.operationId).split('.');
      const name = chain.pop()!;
      const resultSchema = (content['application/json'] ?? stream).schema ?? {};
      const resolved = resultSchema.$ref ? (schemas[refName(resultSchema.$ref)] ?? {}) : resultSchema;
      const isList = !stream && verb === 'get' && resolved.type === 'object' && resolved.properties?.data?.type === 'array';

      // The model the method returns, and the resource's singular from it.
      let result: MethodResult;
      const modelName = (s: Schema, fallback: string): string => (s.$ref ? baseName(refName(s.$ref)) : fallback);
      let resourceSingular: string | undefined;
      const singularOf = (seg: string): string => pascal(singular(seg));
      if (isList) {
        const itemSchema = resolved.properties.data.items ?? {};
        const action = name.startsWith('list') && name !== 'list' ? name.slice('list'.length) : undefined;
        const item = modelName(itemSchema, singularOf(action ?? chain[chain.length - 1]!));
        if (itemSchema.$ref) objectRef(item, schemas[refName(itemSchema.$ref)] ?? {}, 'model');
        const page = resultSchema.$ref ? baseName(refName(resultSchema.$ref)) : item + 'List';
        result = { kind: 'list', item, page, paginated: 'next_cursor' in (resolved.properties ?? {}) };
        if (!action) resourceSingular = item;
      } else if (stream) {
        const event = modelName(resultSchema, singularOf(chain[chain.length - 1]!) + pascal(name) + 'Event');
        typeOf(resultSchema, 'model', event);
        result = { kind: 'stream', event };
      } else {
        const type = modelName(resultSchema, singularOf(chain[chain.length - 1]!) + pascal(name) + 'Result');
        typeOf(resultSchema, 'model', type);
        result = { kind: 'model', type };
        if (name === 'retrieve') resourceSingular = type;
      }

      let list = resources;
      let resource: Resource | undefined;
      for (const seg of chain) {
        resource = findResource(list, camel(seg), singularOf(seg));
        list = resource.children;
      }
      if (!resource) continue;
      if (resourceSingular) resource.singular = resourceSingular;

      // Path parameters: the id after the resource's own word stays id (assistant.conversations:
      // /v1/assistant/conversations/{id}); another is named after its word (clients.contacts:
      // /v1/clients/{id}/… → client_id; assistant.confirm: /v1/assistant/confirmations/{id} → confirmation_id).
      const pathParams: PathParam[] = params.map((placeholder) => {
        const before = segments[segments.indexOf(`{${placeholder}}`) - 1]!;
        return { placeholder, name: placeholder === 'id' && camel(before) !== chain.at(-1) ? singular(before) + '_id' : placeholder };
      });

      const method: Method = {
        name,
        summary: String(op.summary ?? op.description ?? name).trim(),
        httpMethod: verb.toUpperCase() as Method['httpMethod'],
        path,
        pathParams,
        result,
      };
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const paramsName = (): string => resource!.singular + pascal(name) + 'Params';
      if (bodySchema && stream) {
        // The required fields become arguments; the optional ones a params object of their own.
        const resolvedBody: Schema = bodySchema.$ref ? (schemas[refName(bodySchema.$ref)] ?? {}) : bodySchema;
        const required = new Set<string>(resolvedBody.required ?? []);
        const pick = (keep: (prop: string) => boolean) =>
          Object.fromEntries(Object.entries<Schema>(resolvedBody.properties ?? {}).filter(([prop]) => keep(prop)));
        // Named after the namespace, not its model: AssistantAskParams.
        const type = pascal(chain.at(-1)!) + pascal(name) + 'Params';
        method.args = fieldsOf(type, { properties: pick((p) => required.has(p)), required: [...required] }, 'params');
        const optional = pick((p) => !required.has(p));
        if (Object.keys(optional).length > 0) {
          typeOf({ type: 'object', properties: optional }, 'params', type);
          method.body = { type, required: false };
        }
      } else if (bodySchema) {
        const type = bodySchema.$ref ? baseName(refName(bodySchema.$ref)) + 'Params' : paramsName();
        typeOf(bodySchema, 'params', type);
        method.body = {
          type,
          required: op.requestBody.required === true && (bodySchema.$ref ? schemas[refName(bodySchema.$ref)] : bodySchema)?.required?.length > 0,
        };
      }
      const queryParams = (op.parameters ?? []).filter((p: Schema) => p.in === 'query');
      if (queryParams.length > 0) {
        const type = paramsName();
        const properties: Record<string, Schema> = {};
        for (const p of queryParams) properties[p.name] = { ...p.schema, ...(p.description ? { description: p.description } : {}) };
        typeOf({ type: 'object', properties, required: queryParams.filter((p: Schema) => p.required).map((p: Schema) => p.name) }, 'params', type);
        method.query = { type };
      }
      resource.methods.push(method);
    }
  }

  return {
    resources,
    objects: [...objects.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}
