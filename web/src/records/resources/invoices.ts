import { options, type ResourceSpec } from '../describe.js';
import { todayUtc } from '../format.js';
import { timestamps } from './common.js';

export const INVOICE_STATUSES = options(['draft', 'open', 'paid', 'void'], { draft: 'Draft', open: 'Open', paid: 'Paid', void: 'Void' });

/**
 * Open and past its due date. The server marks it (`overdue_at`, by the account's clock, which a
 * test clock can move ahead); the browser's own date catches one whose check has not run yet.
 */
export const isOverdue = (i: Record<string, any>): boolean =>
  i.status === 'open' && (Boolean(i.overdue_at) || (Boolean(i.due_date) && i.due_date < todayUtc()));

export const invoices: ResourceSpec = {
  name: 'invoices',
  singular: 'invoice',
  plural: 'Invoices',
  path: '/v1/invoices',
  eventPrefix: 'invoice',
  scope: 'invoices',
  title: (i) => i.number,
  fields: [
    { key: 'status', label: 'Status', type: 'enum', options: INVOICE_STATUSES, badge: true },
    { key: 'client_id', label: 'Client', type: 'relation', relation: 'clients', edit: 'create', required: true },
    { key: 'deal_id', label: 'Deal', type: 'relation', relation: 'deals', edit: 'always', filterBy: { param: 'client_id', field: 'client_id' } },
    { key: 'recipient_email', label: 'Recipient email', type: 'email', edit: 'always', hint: "Leave empty for the client's email (or its primary contact's)" },
    { key: 'currency', label: 'Currency', type: 'currency', edit: 'always' },
    { key: 'due_date', label: 'Due date', type: 'date', edit: 'always' },
    { key: 'line_items', label: 'Line items', type: 'line-items', edit: 'always', required: true },
    { key: 'total', label: 'Total', type: 'money' },
    { key: 'send', label: 'Send it now (mail the payment link)', type: 'boolean', edit: 'create', formOnly: true },
    { key: 'payment_link', label: 'Payment link', type: 'url', hideEmpty: true },
    { key: 'sent_at', label: 'Sent', type: 'datetime', hideEmpty: true },
    { key: 'overdue_at', label: 'Overdue since', type: 'datetime', hideEmpty: true },
    { key: 'paid_at', label: 'Paid', type: 'datetime', hideEmpty: true },
    { key: 'voided_at', label: 'Voided', type: 'datetime', hideEmpty: true },
    // Set by `crm sync copy` (the source invoice's id) or an integration; invoices have no tags.
    { key: 'external_id', label: 'External id', type: 'text', hideEmpty: true },
    ...timestamps,
  ],
  titleLabel: 'Number',
  columns: ['client_id', 'status', 'total', 'due_date', 'created_at'],
  sorts: { total: 'total', due_date: 'due_date', created_at: 'created' },
  filters: ['q', 'status', 'client_id'],
  deletable: false,
  editable: (i) => i.status === 'draft',
  emptyHint: 'Add one with New invoice: pick a client, add line items, send it.',
};
