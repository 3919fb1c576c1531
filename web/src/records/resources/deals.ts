import { STAGE_NAMES, STAGES } from '../../../../src/domain/pipeline.js';
import { options, type ResourceSpec } from '../describe.js';
import { syncFields, timestamps } from './common.js';

/** Stage ids as people read them ("Lead in"), from the pipeline's own names. */
export const DEAL_STAGES = options(STAGES, STAGE_NAMES);

export const deals: ResourceSpec = {
  name: 'deals',
  singular: 'deal',
  plural: 'Deals',
  path: '/v1/deals',
  eventPrefix: 'deal',
  scope: 'deals',
  title: (d) => d.title,
  fields: [
    { key: 'title', label: 'Title', type: 'text', edit: 'always', required: true },
    { key: 'value', label: 'Value', type: 'money', edit: 'always', required: true },
    { key: 'currency', label: 'Currency', type: 'currency', edit: 'always', required: true },
    { key: 'stage', label: 'Stage', type: 'enum', edit: 'always', required: true, options: DEAL_STAGES, badge: true },
    { key: 'client_id', label: 'Client', type: 'relation', relation: 'clients', edit: 'always' },
    { key: 'expected_close_date', label: 'Expected close', type: 'date', edit: 'always' },
    { key: 'win_probability', label: 'Win probability', type: 'percent' },
    { key: 'won_at', label: 'Won', type: 'datetime', hideEmpty: true },
    { key: 'lost_at', label: 'Lost', type: 'datetime', hideEmpty: true },
    // Editable once the deal exists (a new deal is rarely created lost); set by the board's Lost too.
    { key: 'lost_reason', label: 'Lost reason', type: 'longtext', edit: 'update', hideEmpty: true },
    ...syncFields,
    ...timestamps,
  ],
  titleLabel: 'Title',
  columns: ['client_id', 'value', 'stage', 'expected_close_date', 'created_at'],
  sorts: { title: 'title', value: 'value', expected_close_date: 'expected_close_date', created_at: 'created' },
  filters: ['q', 'stage', 'client_id'],
  deletable: true,
  deleteLoses: 'The deal is deleted for good; invoices made from it stay, without the deal.',
  emptyHint: 'Add one with New deal, or convert a lead with a deal.',
};
