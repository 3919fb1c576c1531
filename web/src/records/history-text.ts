// An event in words for a record's history: "Updated — Stage: Lead in → Qualified; Email".
import type { LiveEvent } from '../live.js';
import { optionLabel, type FieldSpec, type ResourceSpec } from './describe.js';
import { formatDate, formatDateTime, formatMoney, formatNumber, formatPercent } from './format.js';

const VERBS: Record<string, string> = {
  created: 'Created',
  updated: 'Updated',
  deleted: 'Deleted',
  converted: 'Converted to a client',
  won: 'Won',
  lost: 'Lost',
  sent: 'Sent',
  paid: 'Paid',
  voided: 'Voided',
  overdue: 'Became overdue',
};

/** Labels of fields that are not in the description as such (nested or lists). */
const GROUP_LABELS: Record<string, string> = { address: 'Address', contacts: 'Contact persons', custom_fields: 'Custom fields', line_items: 'Line items' };

const MAX = 40;
const cut = (text: string): string => (text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text);

/** A short value for the history line, or undefined where an arrow would say nothing useful (lists, objects, relations). */
function shortValue(field: FieldSpec, value: unknown, record: Record<string, unknown>): string | undefined {
  if (value === null || value === undefined || value === '') return '—';
  switch (field.type) {
    case 'enum':
    case 'select':
      return optionLabel(field, value);
    case 'multi-select':
      return Array.isArray(value) ? cut(value.map((v) => optionLabel(field, v)).join(', ')) : undefined;
    case 'number':
      return typeof value === 'number' ? formatNumber(value, field.decimals) : undefined;
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'money':
      return formatMoney(Number(value), String(record[field.currencyKey ?? 'currency'] ?? 'EUR'));
    case 'date':
      return formatDate(String(value));
    case 'datetime':
      return formatDateTime(String(value)).text;
    case 'percent':
      return formatPercent(Number(value));
    case 'text':
    case 'url':
    case 'email':
    case 'phone':
    case 'currency':
      return cut(String(value));
    default:
      return undefined;
  }
}

/** Each custom field a change touched, as the built-in ones are said ("Industry: Health → Software"); its key when it has no definition. */
function customChanges(spec: ResourceSpec, before: unknown, after: unknown): string[] {
  const was = (before ?? {}) as Record<string, unknown>;
  const now = (after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((k) => JSON.stringify(was[k] ?? null) !== JSON.stringify(now[k] ?? null));
  if (keys.length === 0) return [GROUP_LABELS.custom_fields!];
  return keys.map((k) => {
    const field = spec.fields.find((f) => f.key === `custom_fields.${k}`);
    if (!field) return k;
    const from = shortValue(field, was[k], was);
    const to = shortValue(field, now[k], now);
    return from !== undefined && to !== undefined ? `${field.label}: ${from} → ${to}` : field.label;
  });
}

export function describeChange(spec: ResourceSpec, event: LiveEvent & { previous_attributes?: Record<string, unknown> }): { what: string; changes: string } {
  const verb = event.type.slice(event.type.indexOf('.') + 1);
  const what = VERBS[verb] ?? event.type;
  const before = event.previous_attributes;
  if (!before) return { what, changes: '' };
  const after = event.data.object;
  const parts: string[] = [];
  for (const key of Object.keys(before)) {
    if (key === 'updated_at') continue;
    if (key === 'custom_fields') {
      parts.push(...customChanges(spec, before.custom_fields, after.custom_fields));
      continue;
    }
    const field = spec.fields.find((f) => f.key === key);
    if (!field) {
      parts.push(GROUP_LABELS[key] ?? key);
      continue;
    }
    const from = shortValue(field, before[key], { ...after, ...before });
    const to = shortValue(field, after[key], after);
    parts.push(from !== undefined && to !== undefined ? `${field.label}: ${from} → ${to}` : field.label);
  }
  return { what, changes: parts.join('; ') };
}
