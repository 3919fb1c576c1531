import { formatMoney } from '../domain/money.js';
import type { McpBackend } from '../mcp/backend.js';
import type { CrmTool } from '../mcp/tool-kit.js';

/**
 * The words on a confirmation card: what a proposed write will do, read by the person who clicks
 * Run. Names instead of ids (a record the caller may read is looked up), money as money, and never
 * the idempotency key. E.g. `Create a deal “Acme rollout”: value 12,000.00 EUR, stage proposal, client Acme GmbH`.
 */
const NAME_FIELDS = ['title', 'name', 'number'] as const;
const HIDDEN = new Set(['idempotency_key', 'id', 'client_id', 'contact_id', 'value', 'currency', ...NAME_FIELDS, 'first_name', 'last_name']);
const MAX_DETAILS = 6;
const MAX_TEXT = 60;

const RECORD_PATHS: [prefix: string, path: string][] = [
  ['cli_', '/v1/clients/'],
  ['lead_', '/v1/leads/'],
  ['deal_', '/v1/deals/'],
  ['inv_', '/v1/invoices/'],
];

/** A record's name as people know it (a client's name, a deal's title, an invoice's number), or undefined. */
async function recordName(api: McpBackend, id: unknown): Promise<string | undefined> {
  if (typeof id !== 'string') return undefined;
  const path = RECORD_PATHS.find(([prefix]) => id.startsWith(prefix))?.[1];
  if (!path) return undefined;
  try {
    const record = await api.call<Record<string, unknown>>('GET', `${path}${encodeURIComponent(id)}`);
    return personName(record) ?? (NAME_FIELDS.map((f) => record[f]).find((v) => typeof v === 'string' && v) as string | undefined);
  } catch {
    return undefined; // unknown or not readable with this credential: the id is shown instead
  }
}

function personName(record: Record<string, unknown>): string | undefined {
  const name = [record.first_name, record.last_name].filter((v) => typeof v === 'string' && v).join(' ');
  return name || undefined;
}

function shortText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

const label = (field: string) => field.replace(/_/g, ' ');

export async function summarizeToolCall(tool: CrmTool, args: Record<string, unknown>, api: McpBackend): Promise<string> {
  const subject = personName(args) ?? NAME_FIELDS.map((f) => args[f]).find((v) => typeof v === 'string' && v);
  const target = args.id === undefined ? undefined : ((await recordName(api, args.id)) ?? String(args.id));
  const head = `${tool.title}${target ? ` ${quote(target)}` : ''}${subject && subject !== target ? ` ${quote(String(subject))}` : ''}`;
  const details: string[] = [];
  if (typeof args.value === 'number' && typeof args.currency === 'string') details.push(`value ${formatMoney(args.value, args.currency, 'en-US')}`);
  else if (args.value !== undefined) details.push(`value ${shortText(args.value)}`);
  for (const [field, value] of Object.entries(args)) {
    if (HIDDEN.has(field) || value === undefined) continue;
    details.push(value === null ? `clear ${label(field)}` : `${label(field)} ${shortText(value)}`);
  }
  if (args.client_id !== undefined) details.push(`client ${(await recordName(api, args.client_id)) ?? String(args.client_id)}`);
  if (args.contact_id !== undefined) details.push(`contact ${String(args.contact_id)}`);
  const shown = details.slice(0, MAX_DETAILS);
  const more = details.length - shown.length;
  return `${head}${shown.length ? `: ${shown.join(', ')}` : ''}${more > 0 ? ` and ${more} more` : ''}`;
}

const quote = (text: string) => `“${shortText(text)}”`;
