import { options, type FormSpec, type ResourceSpec } from '../describe.js';
import { personName } from '../format.js';
import { syncFields, timestamps } from './common.js';

export const CLIENT_KINDS = options(['company', 'person'], { company: 'Company', person: 'Person' });

export const clients: ResourceSpec = {
  name: 'clients',
  singular: 'client',
  plural: 'Clients',
  path: '/v1/clients',
  eventPrefix: 'client',
  scope: 'clients',
  title: (c) => c.name,
  fields: [
    { key: 'name', label: 'Name', type: 'text', edit: 'always', required: true },
    { key: 'kind', label: 'Kind', type: 'enum', edit: 'always', options: CLIENT_KINDS },
    { key: 'email', label: 'Email', type: 'email', edit: 'always' },
    { key: 'phone', label: 'Phone', type: 'phone', edit: 'always' },
    { key: 'website', label: 'Website', type: 'url', edit: 'always' },
    { key: 'address.line1', label: 'Address line 1', type: 'text', edit: 'always' },
    { key: 'address.line2', label: 'Address line 2', type: 'text', edit: 'always', hideEmpty: true },
    { key: 'address.city', label: 'City', type: 'text', edit: 'always' },
    { key: 'address.region', label: 'Region', type: 'text', edit: 'always', hideEmpty: true },
    { key: 'address.postal_code', label: 'Postal code', type: 'text', edit: 'always' },
    { key: 'address.country', label: 'Country', type: 'text', edit: 'always', hint: 'Two letters, such as DE or US' },
    ...syncFields,
    ...timestamps,
  ],
  titleLabel: 'Name',
  columns: ['kind', 'email', 'address.city', 'created_at'],
  sorts: { title: 'name', created_at: 'created' },
  filters: ['q'],
  deletable: true,
  deleteLoses:
    'The client, its address and its contact persons are deleted for good; its deals stay, without a client. A client with invoices cannot be deleted.',
  emptyHint: 'Add one with New client, convert a lead, or import a CSV file with crm sync import clients FILE.csv.',
};

/** A client's contact persons (/v1/clients/{id}/contacts): edited on the client's page. */
export const contacts: FormSpec = {
  singular: 'contact',
  fields: [
    { key: 'first_name', label: 'First name', type: 'text', edit: 'always' },
    { key: 'last_name', label: 'Last name', type: 'text', edit: 'always' },
    { key: 'email', label: 'Email', type: 'email', edit: 'always' },
    { key: 'phone', label: 'Phone', type: 'phone', edit: 'always' },
    { key: 'role', label: 'Role', type: 'text', edit: 'always' },
    { key: 'is_primary', label: 'Primary contact', type: 'boolean', edit: 'always' },
  ],
};

export const contactName = (c: Record<string, any>): string => personName(c) || c.email || 'Unnamed contact';
