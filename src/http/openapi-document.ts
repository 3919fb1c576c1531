/**
 * What the route schemas cannot say about the OpenAPI document, added once it is built (docs/api.md#the-openapi-document):
 * an operationId on every operation (the SDK generator's method names), tags with descriptions, a
 * description on every operation and parameter, the response headers of the contract (Idempotent-Replayed,
 * RateLimit*, Retry-After, X-Request-Id; the Idempotency-Key request header is the idempotency plugin's), integer formats, and
 * no unused components. Spectral (spectral:oas + OWASP) and Redocly lint the result:
 * test/unit/openapi-lint.test.ts, with the exceptions and their reasons in openapi-lint.json.
 */
import { operationId } from './operation-ids.js';
import { CLIENT_BASIC, PROTOCOL_PATHS, PROTOCOL_SCHEMAS } from './openapi-protocol-paths.js';
import { describeInputDefaults, markPerRecordItems } from './openapi-inputs.js';

type Json = Record<string, any>;

const TAGS: [string, string][] = [
  ['Leads', 'People or companies that may become clients. Convert one into a client (and a deal).'],
  ['Clients', 'Companies and people you do business with; search with `q`.'],
  ['Contact persons', "A client's contact persons; one of them is primary."],
  ['Deals', 'Opportunities in pipeline stages, won or lost; the pipeline and its stages.'],
  ['Invoices', 'Drafts with line items, sent with a payment link, paid or voided.'],
  ['Events', 'Everything that happened, kept 30 days; the source of webhooks and the event stream.'],
  ['Webhooks', 'Endpoints that receive signed events (Standard Webhooks), their deliveries and retries.'],
  ['API keys', 'Keys with scopes (Settings → API); the secret is shown once.'],
  ['OAuth', 'OAuth 2.0 apps for third parties, and the authorization server metadata.'],
  ['Usage', "Today's requests by key, endpoint and status; the quota; requests per second."],
  ['Request logs', 'The last 10,000 /v1 requests with status, timing, key and (for writes) redacted bodies.'],
  ['Sandbox', 'Sandbox control (admin key): reset, fault injection, the mailbox; and the health check.'],
];

const header = (description: string, schema: Json) => ({ description, schema });
const HEADERS: Json = {
  'X-Request-Id': header('The id of this request (req_…): quote it when asking about a request.', { type: 'string', maxLength: 40 }),
  RateLimit: header('The policy nearest exhaustion: remaining requests `r` and seconds to reset `t` (IETF RateLimit fields).', {
    type: 'string',
    maxLength: 200,
  }),
  'RateLimit-Policy': header('The policies in force: `"burst";q=100;w=1, "daily";q=100000;w=86400`.', { type: 'string', maxLength: 200 }),
  'X-RateLimit-Limit': header('Requests allowed in the window of the policy nearest exhaustion.', {
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
  }),
  'X-RateLimit-Remaining': header('Requests left in that window.', { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  'X-RateLimit-Reset': header('Seconds until that window resets.', { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', format: 'int32', minimum: 0, maximum: 86_400 }),
  'Idempotent-Replayed': header('`true` when this is the stored response of an earlier request with the same Idempotency-Key.', {
    type: 'string',
    enum: ['true'],
  }),
};
const WRITES = new Set(['post', 'patch', 'delete']);
/** The writes that take an Idempotency-Key (plugins/idempotency.ts). */
const IDEMPOTENT = /^\/(v1|_sandbox)\//;
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

export interface RouteFacts {
  /** "METHOD path" → the scope the route needs, for its description. */
  scopes: Map<string, string>;
}

export function finishDocument(doc: Json, facts: RouteFacts): Json {
  doc.info.contact = { name: 'The crm project (see its README)' };
  doc.info.license = { name: 'MIT', identifier: 'MIT' };
  doc.tags = TAGS.map(([name, description]) => ({ name, description }));
  doc.components.headers = HEADERS;
  doc.components.securitySchemes.clientBasic = CLIENT_BASIC;
  Object.assign(doc.components.schemas, PROTOCOL_SCHEMAS);
  for (const [path, item] of Object.entries<Json>(PROTOCOL_PATHS)) doc.paths[path] = { ...doc.paths[path], ...structuredClone(item) };

  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      op.operationId ??= operationId(path, method, op, Object.keys(doc.paths));
      const limited = (op.security ?? []).length > 0; // authenticated routes are rate limited
      op.description ??= describe(op, facts.scopes.get(`${method.toUpperCase()} ${path}`), limited && WRITES.has(method));
      for (const parameter of op.parameters ?? []) parameter.description ??= parameterDescription(parameter);
      // A malformed id or query is refused with 400 before the record is looked up.
      if (limited && !op.responses['400'] && op.responses['401']) op.responses['400'] = { ...op.responses['401'], description: '`invalid_request`' };
      if (limited) documentRequestErrors(op, WRITES.has(method));
      // The sandbox controls answer only under the sandbox's own Host (routes/dashboard.ts).
      if (path.startsWith('/_sandbox/'))
        op.responses['421'] ??= problem(['misdirected_request'], ': the Host header names another server than this sandbox (DNS rebinding protection).');
      for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
        response.headers = { ...response.headers, ...responseHeaders(status, limited, WRITES.has(method) && IDEMPOTENT.test(path)) };
      }
    }
  }
  describeInputDefaults(doc);
  markPerRecordItems(doc);
  addIntegerFormats(doc);
  pruneUnusedSchemas(doc);
  // In name order: the resource schemas are built when first used (schemas/lazy.ts), so the order
  // zod registered them in depends on the requests a sandbox served before; the document must not.
  doc.components.schemas = Object.fromEntries(Object.entries<Json>(doc.components.schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return doc;
}

const problem = (codes: string[], note = ''): Json => ({
  description: codes.map((code) => `\`${code}\``).join(', ') + note,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/**
 * What any authenticated operation can answer before its handler runs, whatever its route schema
 * says: a body too large (413) or not JSON (415) on every write (Fastify reads a body on POST,
 * PATCH and DELETE, declared or not), malformed JSON (400) there too, a bad cursor (400) where a
 * cursor is taken, and an unknown query parameter (400) where the query has a schema.
 */
function documentRequestErrors(op: Json, write: boolean): void {
  const responses: Json = op.responses;
  const query = (op.parameters ?? []).filter((p: Json) => p.in === 'query');
  const codes = new Set(
    String(responses['400']?.description ?? '')
      .match(/`[a-z_]+`/g)
      ?.map((c) => c.slice(1, -1)) ?? [],
  );
  codes.add('invalid_request');
  if (write) codes.add('malformed_json');
  if (query.some((p: Json) => p.name === 'cursor')) codes.add('invalid_cursor');
  const note = query.length > 0 ? '. A query parameter this operation does not list is `invalid_request` too.' : '';
  responses['400'] = { ...responses['400'], ...problem([...codes].sort(), note) };
  if (write) {
    responses['413'] ??= problem(['payload_too_large'], ': the body is larger than 10 MB.');
    responses['415'] ??= problem(['unsupported_media_type'], ': send the body as `application/json`.');
  }
}

function responseHeaders(status: string, limited: boolean, write: boolean): Json {
  const headers: Json = { 'X-Request-Id': ref('X-Request-Id') };
  if (limited && status !== '401') {
    for (const name of ['RateLimit', 'RateLimit-Policy', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) headers[name] = ref(name);
  }
  if (['409', '429', '503'].includes(status)) headers['Retry-After'] = ref('Retry-After');
  if (write && status.startsWith('2')) headers['Idempotent-Replayed'] = ref('Idempotent-Replayed');
  return headers;
}

function describe(op: Json, scope: string | undefined, idempotent: boolean): string {
  const parts = [String(op.summary ?? '').replace(/\.?$/, '.')];
  if (scope) parts.push(scope === '*' ? 'Needs the sandbox admin key (scope `*`).' : `Needs the \`${scope}\` scope.`);
  if (idempotent) parts.push('Send an `Idempotency-Key` to retry it safely.');
  return parts.join(' ');
}

const PARAMETERS: Record<string, string> = {
  id: 'The id of the record.',
  contact_id: 'The id of the contact person.',
  created_after: 'Only records created after this RFC 3339 time.',
  updated_after: 'Only records updated after this RFC 3339 time (with `sort=updated_at`, for incremental sync).',
  external_id: 'Only the record with this external id.',
  email: 'Only records with this email address (case-insensitive).',
  tag: 'Only records with this tag.',
  status: 'Only records in this status.',
  q: 'Search words; each matches as a prefix.',
};

function parameterDescription(parameter: Json): string {
  return PARAMETERS[parameter.name] ?? `Filter: ${String(parameter.name).replace(/_/g, ' ')}.`;
}

/** JSON Schema integers have no size; OWASP API4 asks for one. JavaScript's safe integers fit int64. */
function addIntegerFormats(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(addIntegerFormats);
  if (!node || typeof node !== 'object') return;
  const schema = node as Json;
  const types = [schema.type].flat();
  if (types.includes('integer') && !schema.format) {
    const int32 = schema.minimum >= -(2 ** 31) && schema.maximum <= 2 ** 31 - 1;
    schema.format = int32 ? 'int32' : 'int64';
  }
  for (const value of Object.values(schema)) addIntegerFormats(value);
}

/**
 * The zod provider registers each named schema twice (input and output forms); only the forms some
 * operation refers to, directly or through another schema, stay.
 */
function pruneUnusedSchemas(doc: Json): void {
  const schemas: Json = doc.components.schemas ?? {};
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(doc.paths);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
