import { z } from 'zod';
import { lazySchema } from './lazy.js';
import { EVENT_TYPES } from '../domain/event-types.js';
import { listEnvelope, listQueryFields, LogOrder } from './common.js';

export { EVENT_TYPES, type EventType } from '../domain/event-types.js';

export const Event = lazySchema(() =>
  z
    .object({
      id: z.string(),
      type: z.enum(EVENT_TYPES),
      created_at: z.string(),
      data: z.object({ object: z.record(z.string(), z.unknown()) }),
      previous_attributes: z.record(z.string(), z.unknown()).optional(),
    })
    .meta({ id: 'Event' }),
);

export type Event = z.infer<typeof Event>;

/** An event id, or the bare prefix `evt_`, which sorts before every id ("from the beginning"). */
export const EventPosition = lazySchema(() =>
  z
    .string()
    .max(30)
    .regex(/^evt_[0-9A-Z]{0,26}$/, 'Expected an event id (evt_…).'),
);

/** `type` takes one type or several, comma-separated. */
const TypeFilter = z
  .string()
  .max(500)
  .refine((v) => v.split(',').every((t) => (EVENT_TYPES as readonly string[]).includes(t)), {
    message: `Expected event types, comma-separated: ${EVENT_TYPES.join(', ')}.`,
  })
  .describe('One event type, or several comma-separated');

export const EventListQuery = lazySchema(() =>
  z.strictObject({
    limit: listQueryFields().limit,
    cursor: listQueryFields().cursor,
    type: TypeFilter.optional(),
    object_id: z.string().max(100).optional().describe("Only the events about this record (its id): the record's history"),
    created_after: listQueryFields().created_after,
    order: LogOrder(),
  }),
);
export type EventListQuery = z.infer<typeof EventListQuery>;

export const EventList = lazySchema(() => listEnvelope(Event.unwrap()).meta({ id: 'EventList' }));

export const EventStreamQuery = lazySchema(() =>
  z.strictObject({
    after: EventPosition.unwrap().optional().describe('Start after this event (as the Last-Event-ID header does); `evt_` for from the beginning'),
    type: TypeFilter.optional(),
  }),
);

export const EventStreamHeaders = lazySchema(() =>
  z.looseObject({
    'last-event-id': EventPosition.unwrap().optional().describe('Resume after this event (sent by EventSource on reconnect)'),
  }),
);
