/** The event types of API.md §7; plain data, so the CLI loads it without zod. */
export const EVENT_TYPES = [
  'lead.created', 'lead.updated', 'lead.deleted', 'lead.converted',
  'client.created', 'client.updated', 'client.deleted',
  'deal.created', 'deal.updated', 'deal.won', 'deal.lost', 'deal.deleted',
  'invoice.created', 'invoice.sent', 'invoice.paid', 'invoice.voided',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
