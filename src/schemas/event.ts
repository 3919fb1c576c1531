import { z } from 'zod';

export const EVENT_TYPES = [
  'lead.created', 'lead.updated', 'lead.deleted', 'lead.converted',
  'client.created', 'client.updated', 'client.deleted',
  'deal.created', 'deal.updated', 'deal.won', 'deal.lost', 'deal.deleted',
  'invoice.created', 'invoice.sent', 'invoice.paid', 'invoice.voided',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const Event = z
  .object({
    id: z.string(),
    type: z.enum(EVENT_TYPES),
    created_at: z.string(),
    data: z.object({ object: z.record(z.string(), z.unknown()) }),
    previous_attributes: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'Event' });

export type Event = z.infer<typeof Event>;
