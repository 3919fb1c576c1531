import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * Checks a response against the OpenAPI document of the sandbox that sent it: the status must be
 * documented for that operation, with that media type, and the body must match the schema.
 * The document is fetched once per sandbox; validators are compiled once per operation.
 */
type Doc = { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components: unknown };

const docs = new Map<string, Promise<{ doc: Doc; ajv: Ajv2020; routes: { regex: RegExp; template: string }[] }>>();
const validators = new Map<string, ValidateFunction>();

/** Routes the document deliberately leaves out (the payment page: HTML for people). */
const UNDOCUMENTED = [/^\/pay\//];

async function load(baseUrl: string) {
  let entry = docs.get(baseUrl);
  if (!entry) {
    entry = (async () => {
      const doc = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as Doc;
      const ajv = new Ajv2020({ strict: false, allErrors: true });
      (addFormats as unknown as (a: Ajv2020) => void)(ajv);
      ajv.addSchema({ $id: 'openapi', components: doc.components });
      const routes = Object.keys(doc.paths).map((template) => ({
        template,
        regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }));
      return { doc, ajv, routes };
    })();
    docs.set(baseUrl, entry);
  }
  return entry;
}

export async function checkResponse(baseUrl: string, method: string, url: string, status: number, contentType: string, body: unknown): Promise<void> {
  const path = url.split('?')[0]!;
  if (UNDOCUMENTED.some((r) => r.test(path))) return;
  const { doc, ajv, routes } = await load(baseUrl);
  // Fixed paths win over templated ones (/v1/deals/x vs /v1/deals/{id}).
  const route = routes.filter((r) => r.regex.test(path)).sort((a, b) => a.template.split('{').length - b.template.split('{').length)[0];
  const operation = route ? doc.paths[route.template]?.[method.toLowerCase()] : undefined;
  if (!operation) {
    // Unknown routes and methods answer 404/405 problems, which no operation documents.
    if ((status === 404 || status === 405) && contentType.startsWith('application/problem+json')) return;
    throw new Error(`OpenAPI: ${method} ${path} is not documented, yet answered ${status}`);
  }
  const response = operation.responses?.[String(status)];
  if (!response) {
    // A record id no record has, or a body on a route that takes none, can be refused on any route.
    // 400, 413 and 415 are documented wherever they can happen (openapi-document.ts).
    if ([404, 422].includes(status) && contentType.startsWith('application/problem+json')) return;
    throw new Error(`OpenAPI: ${method} ${route!.template} does not document status ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  if (!response.content && body === '') return; // a redirect, or 200 with no body (POST /oauth/revoke)
  const mediaType = contentType.split(';')[0]!.trim();
  const media = response.content?.[mediaType];
  if (!media) throw new Error(`OpenAPI: ${method} ${route!.template} ${status} does not document ${mediaType}`);
  const key = `${baseUrl} ${method} ${route!.template} ${status} ${mediaType}`;
  let validate = validators.get(key);
  if (!validate) {
    const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"openapi#/components/'));
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  // A stream of Server-Sent Events: the documented schema is each event's data.
  const bodies = mediaType === 'text/event-stream' ? sseData(String(body)) : [body];
  for (const one of bodies) {
    if (validate(one)) continue;
    throw new Error(
      `OpenAPI: ${method} ${route!.template} ${status} ${mediaType === 'text/event-stream' ? 'event' : 'body'} does not match: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(one).slice(0, 500)}`,
    );
  }
}

/** The JSON of each `data:` of an event stream (comments and id-only messages have none). */
function sseData(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}
