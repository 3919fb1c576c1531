import { describe, expect, it } from 'vitest';
import { fieldForPath } from '../../web/src/records/describe.js';
import { initialValues, toBody } from '../../web/src/records/form-values.js';
import { clients } from '../../web/src/records/resources/clients.js';
import { deals } from '../../web/src/records/resources/deals.js';
import { invoices } from '../../web/src/records/resources/invoices.js';

/** Between a record form's inputs and the API's body (web/src/records/form-values.ts). */
describe('create bodies', () => {
  it('sends what was filled in, typed as the API takes it, and leaves out empty inputs', () => {
    const values = { ...initialValues(deals.fields, 'create'), title: ' Pilot ', value: '1200.50', stage: 'proposal', tags: 'a, b,,' };
    expect(toBody(deals.fields, values, 'create')).toEqual({ title: 'Pilot', value: 1200.5, currency: 'EUR', stage: 'proposal', tags: ['a', 'b'] });
  });

  it('starts a required choice on its first option, as its select shows it', () => {
    expect(initialValues(deals.fields, 'create').stage).toBe('lead_in');
  });

  it('nests dotted fields and builds line items', () => {
    const client = { ...initialValues(clients.fields, 'create'), name: 'Acme', 'address.city': 'Berlin', 'address.country': 'DE' };
    expect(toBody(clients.fields, client, 'create')).toEqual({ name: 'Acme', address: { city: 'Berlin', country: 'DE' } });
    const invoice = { ...initialValues(invoices.fields, 'create'), client_id: 'cli_1', line_items: [{ description: 'Work', quantity: '2', unit_price: '' }] };
    // An empty price stays missing, so the API's error names line_items.0.unit_price.
    expect(toBody(invoices.fields, invoice, 'create')).toEqual({
      client_id: 'cli_1',
      currency: 'EUR',
      send: false,
      line_items: [{ description: 'Work', quantity: 2, unit_price: undefined }],
    });
  });
});

describe('edit bodies', () => {
  const deal = { id: 'deal_1', title: 'Pilot', value: 10, currency: 'EUR', stage: 'lead_in', client_id: 'cli_1', expected_close_date: null, tags: [] };

  it('sends only what changed; an emptied input clears the field', () => {
    const values = { ...initialValues(deals.fields, 'edit', deal), stage: 'qualified', client_id: '' };
    expect(toBody(deals.fields, values, 'edit', deal)).toEqual({ stage: 'qualified', client_id: null });
  });

  it('sends nothing when nothing changed', () => {
    expect(toBody(deals.fields, initialValues(deals.fields, 'edit', deal), 'edit', deal)).toEqual({});
  });

  it('never sends create-only fields on edit (an invoice keeps its client)', () => {
    const invoice = {
      id: 'inv_1',
      client_id: 'cli_1',
      deal_id: null,
      recipient_email: 'a@b.example',
      currency: 'EUR',
      due_date: null,
      line_items: [{ description: 'Work', quantity: 1, unit_price: 5, amount: 5 }],
    };
    const values = initialValues(invoices.fields, 'edit', invoice);
    expect(values).not.toHaveProperty('client_id');
    expect(toBody(invoices.fields, values, 'edit', invoice)).toEqual({});
  });
});

describe('validation errors find their field', () => {
  it('by the longest field key that prefixes the error path', () => {
    expect(fieldForPath(clients.fields, 'address.country')?.label).toBe('Country');
    expect(fieldForPath(invoices.fields, 'line_items.0.quantity')?.key).toBe('line_items');
    expect(fieldForPath(clients.fields, 'tags.3')?.label).toBe('Tags');
    expect(fieldForPath(clients.fields, 'nickname')).toBeUndefined();
  });
});
