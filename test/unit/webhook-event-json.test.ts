import { describe, expect, it } from 'vitest';
import { eventFromRow, eventJson } from '../../src/services/event-log.js';

describe('the event JSON that deliveries and the stream send', () => {
  const object = { id: 'deal_1', title: 'Zwölf "quoted" €', value: 0.3, tags: ['a'], custom_fields: { x: null } };
  const base = { id: 'evt_01ABC', type: 'deal.won', object_id: 'deal_1', data: JSON.stringify(object), created_at: '2026-11-21T12:00:00.000Z' };

  it('is the same text as serialising the API object, with previous_attributes', () => {
    const row = { ...base, previous_attributes: JSON.stringify({ stage: 'proposal', won_at: null }) };
    expect(eventJson(row)).toBe(JSON.stringify(eventFromRow(row)));
    expect(JSON.parse(eventJson(row))).toEqual({
      id: 'evt_01ABC',
      type: 'deal.won',
      created_at: base.created_at,
      data: { object },
      previous_attributes: { stage: 'proposal', won_at: null },
    });
  });

  it('and without', () => {
    const row = { ...base, previous_attributes: null };
    expect(eventJson(row)).toBe(JSON.stringify(eventFromRow(row)));
    expect(JSON.parse(eventJson(row))).not.toHaveProperty('previous_attributes');
  });
});
