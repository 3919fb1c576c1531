import { z } from 'zod';
import { EVENT_TYPES, Event } from '../../schemas/event.js';
import type { McpBackend } from '../backend.js';
import { type CrmTool, pageOf, pathId, toolsOf } from '../tool-kit.js';

export function eventTools(api: McpBackend): CrmTool[] {
  const tool = toolsOf('events');
  return [
    tool({
      name: 'list_events',
      title: 'List events',
      description: 'Lists what happened (deal.won, invoice.paid, …), oldest first, optionally of one type or after a time.',
      kind: 'read',
      input: z.object({
        type: z.enum(EVENT_TYPES).optional(),
        created_after: z.string().optional().describe('RFC 3339 time'),
        limit: z.number().int().min(1).max(1000).optional(),
        cursor: z.string().optional(),
      }),
      output: pageOf(Event.unwrap()),
      run: (q) => api.call('GET', '/v1/events', { query: q }),
    }),
    tool({
      name: 'get_event',
      title: 'Get an event',
      description: 'Gets one event with the object as it was after the change, and the changed fields’ previous values.',
      kind: 'read',
      input: z.object({ id: z.string().describe('The event id (evt_…)') }),
      output: Event.unwrap(),
      run: ({ id }) => api.call('GET', `/v1/events/${pathId(id)}`),
    }),
  ];
}
