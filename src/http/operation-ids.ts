/**
 * operationIds, derived from the path's shape so that every route gets one and the names stay
 * regular: `<resource>[.<child>].<method>`, each part camelCase. The SDK generator turns them into
 * namespaces and method names (`clients.contacts.list` → `crm.clients.contacts.list()`).
 *   POST /v1/leads → leads.create              GET /v1/leads → leads.list
 *   GET /v1/leads/{id} → leads.retrieve        PATCH … → leads.update, DELETE … → leads.delete
 *   POST /v1/leads/{id}/convert → leads.convert (an action: the last word, not a collection)
 *   GET /v1/clients/{id}/contacts → clients.contacts.list (records live under it)
 *   GET /v1/webhook_endpoints/{id}/deliveries → webhookEndpoints.listDeliveries
 *   GET /v1/usage → usage.retrieve (a single object, no id)
 *   GET /v1/deals/summary → deals.summarize (computed from the collection: NAMED)
 *   POST /v1/assistant/messages → assistant.ask (a streamed command: NAMED too)
 * Outside /v1 the same rules apply to the path after its first word: /_sandbox/faults → sandbox.faults.*.
 */
const OUTSIDE_V1: Record<string, string> = {
  'get /healthz': 'health.check',
  'get /.well-known/oauth-authorization-server': 'oauth.metadata',
  'delete /_sandbox/faults': 'sandbox.faults.deleteAll',
  'post /_sandbox/reset': 'sandbox.reset',
  'get /_sandbox/webhook_pause': 'sandbox.webhookPause.retrieve',
  'post /_sandbox/webhook_pause': 'sandbox.webhookPause.pause',
  'delete /_sandbox/webhook_pause': 'sandbox.webhookPause.resume',
};

/**
 * Named by what they do: reads on a collection that return one computed object, and the
 * assistant's streamed turns (a message to it is asked, not a record made: `crm.assistant.ask()`).
 */
const NAMED: Record<string, string> = {
  'get /v1/deals/summary': 'deals.summarize',
  'post /v1/assistant/messages': 'assistant.ask',
  'post /v1/assistant/confirmations/{id}': 'assistant.confirm',
};

const camel = (words: string): string =>
  words
    .split(/[_\-\s.]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1)))
    .join('');

interface OperationShape {
  responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string; properties?: Record<string, { type?: string }> } }> }>;
}

/** True when the operation answers a page: `{data: [...], next_cursor}`. */
function answersList(op: OperationShape): boolean {
  const ok = Object.entries(op.responses ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const schema = ok?.content?.['application/json']?.schema;
  return Boolean(schema?.$ref?.endsWith('List') || schema?.properties?.data?.type === 'array');
}

export function operationId(path: string, method: string, op: OperationShape, allPaths: string[]): string {
  const fixed = OUTSIDE_V1[`${method} ${path}`] ?? NAMED[`${method} ${path}`];
  if (fixed) return fixed;
  const words = path.split('/').filter(Boolean);
  const prefix = words[0] === 'v1' ? [] : [camel(words[0]!.replace(/^_/, ''))];
  const segments = words.slice(1);
  const chain: string[] = [];
  let action: string | undefined;
  segments.forEach((segment, i) => {
    if (segment.startsWith('{')) return;
    const last = i === segments.length - 1;
    // A word after an id that ends the path is an action on that record (convert, win, deliveries),
    // unless records live under it (/v1/clients/{id}/contacts/{contact_id}).
    const collection = allPaths.some((p) => p.startsWith(`${path}/{`));
    if (last && i > 0 && segments[i - 1]!.startsWith('{') && !collection) action = segment;
    else if ((last && segment === 'bulk') || segment === 'stream') action = segment;
    else chain.push(camel(segment));
  });
  const onItem = segments.at(-1)?.startsWith('{') ?? false;
  let name: string;
  if (action) name = method === 'get' && action !== 'stream' ? camel(`list_${action}`) : camel(action);
  else if (method === 'post') name = 'create';
  else if (method === 'patch') name = 'update';
  else if (method === 'delete') name = 'delete';
  else name = !onItem && answersList(op) ? 'list' : 'retrieve';
  return [...prefix, ...chain, name].join('.');
}
