// How the assistant panel names a tool call (docs/dashboard.md#the-assistant): the MCP catalog's title
// (src/mcp/catalog.ts, "Search clients") while it runs or waits, and what it did once it has
// ("Searched clients"). The browser bundle does not load the catalog (zod and every tool's
// schema): test/unit/web-assistant.test.ts checks this table against it, name, title and kind.

interface ToolWords {
  title: string;
  /** The title in the past tense, for a call that ran. */
  done: string;
  /** Reads run at once; everything else waits for Run. */
  read: boolean;
}

const tool = (title: string, done: string, read = false): ToolWords => ({ title, done, read });

export const TOOL_WORDS: Record<string, ToolWords> = {
  search_clients: tool('Search clients', 'Searched clients', true),
  get_client: tool('Get a client', 'Looked up a client', true),
  create_client: tool('Create a client', 'Created a client'),
  update_client: tool('Update a client', 'Updated a client'),
  delete_client: tool('Delete a client', 'Deleted a client'),
  add_contact_person: tool('Add a contact person', 'Added a contact person'),
  update_contact_person: tool('Update a contact person', 'Updated a contact person'),
  remove_contact_person: tool('Remove a contact person', 'Removed a contact person'),
  list_leads: tool('List leads', 'Listed leads', true),
  get_lead: tool('Get a lead', 'Looked up a lead', true),
  create_lead: tool('Create a lead', 'Created a lead'),
  update_lead: tool('Update a lead', 'Updated a lead'),
  delete_lead: tool('Delete a lead', 'Deleted a lead'),
  convert_lead: tool('Convert a lead', 'Converted a lead'),
  list_pipeline_stages: tool('List pipeline stages', 'Listed the pipeline stages', true),
  list_deals: tool('List deals', 'Listed deals', true),
  summarize_pipeline: tool('Summarize the pipeline', 'Summarized the pipeline', true),
  get_deal: tool('Get a deal', 'Looked up a deal', true),
  create_deal: tool('Create a deal', 'Created a deal'),
  update_deal: tool('Update a deal', 'Updated a deal'),
  move_deal_stage: tool('Move a deal to a stage', 'Moved a deal'),
  win_deal: tool('Win a deal', 'Won a deal'),
  lose_deal: tool('Lose a deal', 'Lost a deal'),
  reopen_deal: tool('Reopen a deal', 'Reopened a deal'),
  delete_deal: tool('Delete a deal', 'Deleted a deal'),
  list_invoices: tool('List invoices', 'Listed invoices', true),
  get_invoice: tool('Get an invoice', 'Looked up an invoice', true),
  create_invoice: tool('Create and send an invoice', 'Created an invoice'),
  send_invoice: tool('Send an invoice', 'Sent an invoice'),
  pay_invoice: tool('Pay an invoice (sandbox)', 'Paid an invoice'),
  void_invoice: tool('Void an invoice', 'Voided an invoice'),
  list_events: tool('List events', 'Listed events', true),
  get_event: tool('Get an event', 'Looked up an event', true),
  list_fields: tool('List custom fields', 'Listed the custom fields', true),
  create_field: tool('Create a custom field', 'Created a custom field'),
  update_field: tool('Update a custom field', 'Updated a custom field'),
  delete_field: tool('Delete a custom field', 'Deleted a custom field'),
};

/** A tool this table does not know yet (a newer sandbox): its name in words, so nothing shows blank. */
export function toolWords(name: string): ToolWords {
  const known = TOOL_WORDS[name];
  if (known) return known;
  const words = name.replace(/_/g, ' ');
  const title = words.charAt(0).toUpperCase() + words.slice(1);
  return { title, done: title, read: false };
}

/** The record an id names, by its prefix: where its page is. */
export type RecordResource = 'clients' | 'leads' | 'deals' | 'invoices';
const RECORD_PREFIXES = new Map<string, RecordResource>([
  ['cli', 'clients'],
  ['lead', 'leads'],
  ['deal', 'deals'],
  ['inv', 'invoices'],
]);

export const resourceOfId = (id: string): RecordResource | undefined => RECORD_PREFIXES.get(id.slice(0, id.indexOf('_')));

/** What a call's arguments say about it, in words: see keyArguments. */
export interface KeyArguments {
  /** The record the call is about (`id`), shown by its name right after the title. */
  record?: string;
  /** The search words (`for “acme”`), a new record's name (`“Acme rollout”`), a stage moved to or listed (`to Negotiation`). */
  text: string;
  /** The client it is for (`client_id`), shown as “for Acme GmbH” at the end. */
  client?: string;
}

const sentence = (id: string) => {
  const words = id.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * The arguments that say which call this was, beside its title: "Searched clients for “acme”",
 * "Created a deal “Acme rollout”", "Moved a deal to Negotiation", "Listed deals in Proposal".
 * Ids are left to the caller, which shows the records' names.
 */
export function keyArguments(tool: string, args: Record<string, unknown>): KeyArguments {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  const quoted = (v: string) => `“${v.length > 60 ? `${v.slice(0, 59)}…` : v}”`;
  const record = text(args.id);
  const client = text(args.client_id);
  const parts: string[] = [];
  const q = text(args.q);
  if (q) parts.push(`for ${quoted(q)}`);
  const person = [text(args.first_name), text(args.last_name)].filter(Boolean).join(' ');
  const name = text(args.title) ?? text(args.name) ?? (person || undefined) ?? text(args.number) ?? text(args.email);
  if (name && !record) parts.push(quoted(name));
  const stage = text(args.stage) ?? text(args.status);
  if (stage && tool.startsWith('list_')) parts.push(`in ${sentence(stage)}`);
  else if (stage && (tool === 'move_deal_stage' || tool === 'reopen_deal')) parts.push(`to ${sentence(stage)}`);
  return {
    text: parts.join(' '),
    ...(record && resourceOfId(record) ? { record } : {}),
    ...(client && resourceOfId(client) === 'clients' ? { client } : {}),
  };
}
