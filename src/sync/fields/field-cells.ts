import type { CustomValue } from '../cells.js';
import { valueKey } from '../enum-values.js';
import type { FieldDef } from './definitions.js';

/**
 * A custom field's cells, read and written by its type (docs/sync.md, "Custom fields"), so that an
 * export imports back to the same values and a cell the server would refuse fails its row here,
 * before anything is sent, with the column named:
 *   number 1234.5 (no thousands separators) · boolean true/false, yes/no, 1/0 · date YYYY-MM-DD ·
 *   datetime RFC 3339 with an offset · select an option's value or label · multi_select values
 *   or labels separated by `;` (a JSON array when a value holds a `;`) · email · url (http, https) ·
 *   phone · text and long_text as they are.
 * Cells are trimmed for every type but text and long_text.
 */
export type CellResult = { ok: true; value: CustomValue } | { ok: false; message: string };

const MAX_TEXT = { text: 1000, long_text: 65_535 } as const;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2}(?:\.\d+)?)([Zz]|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^[0-9 +()\-./x]{1,50}$/;
const BOOLEANS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };
/** What a multi_select cell's values are separated by: HubSpot's own, and a character option values rarely hold. */
const MULTI_SEPARATOR = ';';

export function isNumberText(text: string): boolean {
  return NUMBER.test(text) && Number.isFinite(Number(text));
}
export function isDateText(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}
export function datetimeOf(text: string): string | undefined {
  const m = DATETIME.exec(text);
  if (!m || !isDateText(m[1]!) || Number.isNaN(Date.parse(`${m[1]}T${m[2]}${m[3]}`))) return undefined;
  return `${m[1]}T${m[2]}${m[3]!.toUpperCase()}`;
}
export const isEmailText = (text: string): boolean => EMAIL.test(text);
export function isUrlText(text: string): boolean {
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}
export const booleanOf = (text: string): boolean | undefined => BOOLEANS[text.toLowerCase()];

/** A cell as its field's value; an empty cell is no value (the caller sends nothing). */
export function cellToValue(field: FieldDef, cell: string): CellResult {
  if (field.type === 'text' || field.type === 'long_text') {
    const max = MAX_TEXT[field.type];
    return cell.length <= max
      ? { ok: true, value: cell }
      : { ok: false, message: `has ${cell.length} characters; a ${field.type} field takes at most ${max}.` };
  }
  const text = cell.trim();
  const bad = (expected: string): CellResult => ({ ok: false, message: `${JSON.stringify(truncate(text))} is not ${expected}.` });
  switch (field.type) {
    case 'number': {
      if (!isNumberText(text)) return bad('a number (write 1234.5: no thousands separators, a dot for decimals)');
      const value = Number(text);
      if (field.decimals !== null && !hasAtMostDecimals(value, field.decimals))
        return { ok: false, message: `${text} has more than ${field.decimals} decimal(s), the most this field takes.` };
      return { ok: true, value };
    }
    case 'boolean': {
      const value = booleanOf(text);
      return value === undefined ? bad('a boolean (true or false, yes or no, 1 or 0)') : { ok: true, value };
    }
    case 'date':
      return isDateText(text) ? { ok: true, value: text } : bad('a date (YYYY-MM-DD, e.g. 2026-11-28)');
    case 'datetime': {
      const value = datetimeOf(text);
      return value ? { ok: true, value } : bad('a date and time with its offset (RFC 3339, e.g. 2026-11-28T09:30:00Z)');
    }
    case 'email':
      return isEmailText(text) ? { ok: true, value: text } : bad('an email address');
    case 'url':
      return isUrlText(text) ? { ok: true, value: text } : bad('an http or https URL');
    case 'phone':
      return PHONE.test(text) && /\d/.test(text) ? { ok: true, value: text } : bad('a phone number (at most 50 digits, spaces and + ( ) - . / x)');
    case 'select': {
      const value = optionOf(field, text);
      return value === undefined ? { ok: false, message: notAnOption(field, text) } : { ok: true, value };
    }
    case 'multi_select':
      return multiFromCell(field, text);
  }
}

/** A value as its cell: what cellToValue reads back to the same value. */
export function valueToCell(field: FieldDef, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) {
    const values = value.map(String);
    return values.some((v) => v.includes(MULTI_SEPARATOR)) || values[0]?.startsWith('[') ? JSON.stringify(values) : values.join(MULTI_SEPARATOR);
  }
  if (field.type === 'multi_select') return valueToCell(field, [value]);
  return String(value);
}

/**
 * Why a value (from the custom_fields JSON column) is not one of its field's, or undefined when
 * it is. null clears a value, so it always is one.
 */
export function invalidValue(field: FieldDef, value: unknown): string | undefined {
  if (value === null) return undefined;
  const options = new Set((field.options ?? []).map((o) => o.value));
  switch (field.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && (field.decimals === null || hasAtMostDecimals(value, field.decimals))
        ? undefined
        : `expected a number${field.decimals === null ? '' : ` with at most ${field.decimals} decimal(s)`}.`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false.';
    case 'select':
      return typeof value === 'string' && options.has(value) ? undefined : notAnOption(field, String(value));
    case 'multi_select':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && options.has(v))
        ? undefined
        : `expected a list of option values (${[...options].slice(0, 12).join(', ')}).`;
    case 'datetime':
      return typeof value === 'string' && datetimeOf(value) === value.replace(' ', 'T')
        ? undefined
        : 'expected RFC 3339 with an offset (2026-11-28T09:30:00Z).';
    default: {
      if (typeof value !== 'string') return `expected a string (a ${field.type}).`;
      const read = cellToValue(field, value);
      return read.ok ? undefined : read.message;
    }
  }
}

/** An option's value for a cell naming it by value or label: exactly, else ignoring case, spaces, _ and -. */
function optionOf(field: FieldDef, text: string): string | undefined {
  const options = field.options ?? [];
  const exact = options.find((o) => o.value === text) ?? options.find((o) => o.label === text);
  if (exact) return exact.value;
  const wanted = valueKey(text);
  return (options.find((o) => valueKey(o.value) === wanted) ?? options.find((o) => valueKey(o.label) === wanted))?.value;
}

/**
 * `a;b` (spaces around `;` allowed), a JSON array as the export writes when a value holds `;`, or
 * one option whose text holds a `;`. Pipedrive writes several options separated by `,`: a cell with
 * no `;` whose parts between commas are all options reads so too.
 */
function multiFromCell(field: FieldDef, text: string): CellResult {
  if (text === '') return { ok: true, value: [] };
  const whole = optionOf(field, text);
  if (whole !== undefined) return { ok: true, value: [whole] };
  let parts: string[] | undefined;
  if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed) && parsed.every((p) => typeof p === 'string')) parts = parsed;
    } catch {
      // not JSON: an option's text that starts with '['
    }
  }
  if (!parts && !text.includes(MULTI_SEPARATOR)) {
    const byComma = text.split(',').map((p) => p.trim());
    if (byComma.length > 1 && byComma.every((p) => p === '' || optionOf(field, p) !== undefined)) parts = byComma;
  }
  parts ??= text.split(MULTI_SEPARATOR).map((p) => p.trim());
  const values: string[] = [];
  for (const part of parts.filter((p) => p !== '')) {
    const value = optionOf(field, part);
    if (value === undefined) return { ok: false, message: notAnOption(field, part) };
    if (!values.includes(value)) values.push(value);
  }
  return { ok: true, value: values };
}

function notAnOption(field: FieldDef, text: string): string {
  const options = field.options ?? [];
  const shown = options.slice(0, 12).map((o) => (o.label === o.value ? o.value : `${o.value} (${o.label})`));
  const more = options.length > shown.length ? `, … (${options.length} in all)` : '';
  const how = field.type === 'multi_select' ? ` Separate several with "${MULTI_SEPARATOR}".` : '';
  return `${JSON.stringify(truncate(text))} is not an option of this ${field.type}: ${shown.join(', ')}${more}.${how} Add the option to the field first if it is new.`;
}

function hasAtMostDecimals(value: number, decimals: number): boolean {
  const scaled = value * 10 ** decimals;
  return Math.abs(scaled - Math.round(scaled)) < 1e-9 * Math.max(1, Math.abs(scaled));
}

const truncate = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}…` : text);
