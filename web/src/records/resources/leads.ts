import { options, type ResourceSpec } from '../describe.js';
import { personName } from '../format.js';
import { syncFields, timestamps } from './common.js';

/** The API's values (src/schemas/lead.ts; test/unit/web-resources.test.ts keeps them equal) and the names people read. */
const LEAD_SOURCES = options(['web', 'referral', 'event', 'cold_call', 'partner', 'other'], {
  web: 'Web',
  referral: 'Referral',
  event: 'Event',
  cold_call: 'Cold call',
  partner: 'Partner',
  other: 'Other',
});
const LEAD_STATUSES = options(['new', 'contacted', 'qualified', 'unqualified', 'converted'], {
  new: 'New',
  contacted: 'Contacted',
  qualified: 'Qualified',
  unqualified: 'Unqualified',
  converted: 'Converted',
});

export const leads: ResourceSpec = {
  name: 'leads',
  singular: 'lead',
  plural: 'Leads',
  path: '/v1/leads',
  eventPrefix: 'lead',
  scope: 'leads',
  title: (l) => personName(l) || l.company || l.email || 'Unnamed lead',
  fields: [
    { key: 'first_name', label: 'First name', type: 'text', edit: 'always' },
    { key: 'last_name', label: 'Last name', type: 'text', edit: 'always' },
    { key: 'email', label: 'Email', type: 'email', edit: 'always' },
    { key: 'phone', label: 'Phone', type: 'phone', edit: 'always' },
    { key: 'company', label: 'Company', type: 'text', edit: 'always' },
    { key: 'title', label: 'Job title', type: 'text', edit: 'always' },
    { key: 'source', label: 'Source', type: 'enum', edit: 'always', options: LEAD_SOURCES },
    { key: 'status', label: 'Status', type: 'enum', edit: 'always', options: LEAD_STATUSES, badge: true, notPickable: ['converted'] },
    { key: 'converted_client_id', label: 'Converted to', type: 'relation', relation: 'clients', hideEmpty: true },
    { key: 'notes', label: 'Notes', type: 'longtext', edit: 'always' },
    ...syncFields,
    ...timestamps,
  ],
  titleLabel: 'Name',
  columns: ['company', 'email', 'status', 'source', 'created_at'],
  sorts: { title: 'name', company: 'company', email: 'email', created_at: 'created' },
  filters: ['q', 'status', 'source', 'email'],
  deletable: true,
  deleteLoses: 'The lead and all its fields are deleted for good. Its past events stay in the event log.',
  emptyHint: 'Add one with New lead, or import a CSV file with crm sync import leads FILE.csv.',
};
