/** The event types of docs/reference/events.md#types; plain data, so the CLI loads it without zod. */
export const EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'lead.deleted',
  'lead.converted',
  'client.created',
  'client.updated',
  'client.deleted',
  'deal.created',
  'deal.updated',
  'deal.won',
  'deal.lost',
  'deal.deleted',
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.voided',
  'invoice.overdue',
  'field.created',
  'field.updated',
  'field.deleted',
  'account.trial_ended',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Caused by the account's clock, not by an API call: `crm trigger` cannot make them (advance the clock instead). */
export const CLOCK_EVENT_TYPES = ['invoice.overdue', 'account.trial_ended'] as const;
export type TriggerableEventType = Exclude<EventType, (typeof CLOCK_EVENT_TYPES)[number]>;
export const TRIGGERABLE_EVENT_TYPES = EVENT_TYPES.filter((t): t is TriggerableEventType => !(CLOCK_EVENT_TYPES as readonly string[]).includes(t));
