import { hasScope } from '../domain/scopes.js';
import type { McpBackend } from './backend.js';
import type { CrmTool } from './tool-kit.js';
import { clientTools } from './tools/clients.js';
import { dealTools } from './tools/deals.js';
import { eventTools } from './tools/events.js';
import { fieldTools } from './tools/fields.js';
import { invoiceTools } from './tools/invoices.js';
import { leadTools } from './tools/leads.js';

/**
 * Every CRM tool, calling the API through `api`. `scopes`, when known, leaves out the tools the
 * caller could not call: a narrow key sees only what it may use (the API still checks each call).
 */
export function crmTools(api: McpBackend, scopes?: readonly string[]): CrmTool[] {
  const all = [...clientTools(api), ...leadTools(api), ...dealTools(api), ...invoiceTools(api), ...eventTools(api), ...fieldTools(api)];
  return scopes ? all.filter((tool) => hasScope(scopes, tool.scope)) : all;
}

/** What the tools are for, told to an MCP client and to the assistant's model alike. */
export const TOOL_INSTRUCTIONS =
  'Tools for a CRM: clients with contact persons, leads, deals in a pipeline, invoices, events and the custom fields a team defines. ' +
  'Search before creating to avoid duplicates. Writes accept an idempotency_key: reuse it when retrying. ' +
  'Money values are in major units of the currency.';

/** The tools as descriptions only (names, titles, annotations), for listing them without calling any. */
let described: CrmTool[] | undefined;
const descriptions = (): CrmTool[] =>
  (described ??= crmTools({
    call: () => Promise.reject(new Error('A described tool cannot be called.')),
  }));

export const toolNames = (scopes: readonly string[]): string[] =>
  descriptions()
    .filter((t) => hasScope(scopes, t.scope))
    .map((t) => t.name);

/** What a confirmation card shows of a tool: its title, and whether it overwrites or deletes. */
export function toolInfo(name: string): { title: string; destructive: boolean } | undefined {
  const tool = descriptions().find((t) => t.name === name);
  return tool && { title: tool.title, destructive: tool.annotations.destructiveHint };
}
