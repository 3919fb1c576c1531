// The words the Fields page uses for custom field types, and the pure parts of its forms: a key
// suggested from a label, an option value from its label, the type changes the API allows.
// Pure, so test/unit/web-fields.test.ts checks them without a browser.
import { FIELD_TYPES, type FieldObject, type FieldType, fieldKeyFor, typeChangeAllowed } from '../../../src/domain/custom-fields.js';

/** Each type's name and what it holds, in words, in the order the type picker offers them. */
export const TYPE_WORDS: Record<FieldType, { name: string; about: string }> = {
  text: { name: 'Text', about: 'One line, up to 1,000 characters: a code, a name, a short note.' },
  long_text: { name: 'Long text', about: 'Several paragraphs, up to 65,535 characters.' },
  number: { name: 'Number', about: 'A number, with as many decimals as you choose: head count, score, budget.' },
  boolean: { name: 'Yes / No', about: 'A checkbox: true or false.' },
  date: { name: 'Date', about: 'A calendar day, the same in every time zone: renewal date, birthday.' },
  datetime: { name: 'Date and time', about: 'A moment, with its time zone: a meeting, a deadline.' },
  select: { name: 'Select', about: 'One choice from a list of options you define: industry, tier.' },
  multi_select: { name: 'Multi-select', about: 'Any number of choices from a list of options: product lines, interests.' },
  email: { name: 'Email', about: 'An email address, shown as a link that writes to it.' },
  url: { name: 'URL', about: 'A web address (http or https), shown as a link.' },
  phone: { name: 'Phone', about: 'A phone number: digits, spaces and + ( ) - . / x.' },
};

export const TYPES = FIELD_TYPES;

export const hasOptions = (type: FieldType): boolean => type === 'select' || type === 'multi_select';

/** The objects of the Fields page, as its switch names them. */
export const OBJECTS: { object: FieldObject; plural: string; singular: string }[] = [
  { object: 'lead', plural: 'Leads', singular: 'lead' },
  { object: 'client', plural: 'Clients', singular: 'client' },
  { object: 'deal', plural: 'Deals', singular: 'deal' },
];

/**
 * A key from a label, as the API takes keys: lowercase ASCII letters, digits and `_`, a letter first,
 * at most 50 ("Annual revenue (€)" → "annual_revenue"). Empty when the label has no letter or digit.
 */
export function suggestKey(label: string): string {
  // The migration's rule (fieldKeyFor), but nothing at all for a label with no letter or digit yet.
  return /[\p{L}\p{N}]/u.test(label) ? fieldKeyFor(label, NOTHING_TAKEN) : '';
}

const NOTHING_TAKEN: ReadonlySet<string> = new Set();

/** An option value from its label: what records hold, so kept short and plain ("Health care" → "health_care"); the label itself when it has no letter or digit. */
export const suggestValue = (label: string): string => suggestKey(label) || label.trim();

/** The types a field of `from` may become (itself first): text ↔ long text, select → multi-select. */
export const allowedTypes = (from: FieldType): FieldType[] => [from, ...FIELD_TYPES.filter((t) => t !== from && typeChangeAllowed(from, t))];

/** Moves the item at `from` to `to` (both in range), for reordering options by drag or by keyboard. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}
