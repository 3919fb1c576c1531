// What the record screens know about a resource: its fields (human label, type, whether a person
// may edit it), how to name a record, where it lives. The list, the show page, the forms and the
// history are built from one of these (web/src/records/resources/), not written per resource.

/** How a field is shown and edited; one renderer (fields.tsx) and one input (inputs.tsx) per type. */
type FieldType =
  | 'text'
  | 'longtext'
  | 'email'
  | 'phone'
  | 'url'
  | 'enum'
  | 'money'
  | 'currency'
  | 'date'
  | 'datetime'
  | 'percent'
  | 'boolean'
  | 'number'
  | 'select'
  | 'multi-select'
  | 'tags'
  | 'relation'
  | 'line-items';

export type ResourceName = 'leads' | 'clients' | 'deals' | 'invoices';

export interface FieldSpec {
  /** The API field; dotted for a nested one (`address.city`). Validation errors name it by this path. */
  key: string;
  /** The human name: the label of its input and of its row on the record page. */
  label: string;
  type: FieldType;
  /** 'always': in the create and edit forms; 'create': only when creating; 'update': only when editing; absent: shown, never edited. */
  edit?: 'always' | 'create' | 'update';
  required?: boolean;
  /** enum, select, multi-select: the API values in order, with the names people read. */
  options?: readonly { value: string; label: string }[];
  /** enum: shown as a coloured status badge (a lead's status, a deal's stage). */
  badge?: boolean;
  /** enum values shown but never offered in a form (a lead becomes `converted` only by Convert). */
  notPickable?: readonly string[];
  /** relation: the resource the id points to (shown as the record's name, linking to it). */
  relation?: ResourceName;
  /** money: the field holding the record's currency (default `currency`). */
  currencyKey?: string;
  /** number: how many decimals a value has (a custom field's `decimals`); undefined: any. */
  decimals?: number | undefined;
  /** A custom field (docs/reference/custom-fields.md), defined by the account, not by the API. */
  custom?: boolean;
  /** A short hint under the input. */
  hint?: string;
  /** Not shown on the record page when empty (e.g. `won_at` on an open deal). */
  hideEmpty?: boolean;
  /** A request field, not a record field (an invoice's `send`): in the form only. */
  formOnly?: boolean;
  /** relation: list the choices filtered by another field of the form (an invoice's deals by its client). */
  filterBy?: { param: string; field: string };
}

/** What a form needs: contact persons and a lead's conversion are forms without a list or page of their own. */
export interface FormSpec {
  /** "lead": in button names (`New lead`, `Create lead`), headings and confirmations. */
  singular: string;
  fields: FieldSpec[];
}

export interface ResourceSpec extends FormSpec {
  name: ResourceName;
  /** "Leads": the page heading and the navigation link. */
  plural: string;
  /** The /v1 collection. */
  path: string;
  /** The prefix of its event types (`lead` → lead.created, lead.updated…). */
  eventPrefix: string;
  scope: string;
  /** How a person names the record (a list's first column, a link, a page heading). */
  title(record: Record<string, any>): string;
  /** The list's first column: the record's name (`title`), linking to its page. */
  titleLabel: string;
  /** The keys of `fields` shown as the list's other columns, in order. */
  columns: string[];
  /** Columns the API can sort by: column key (`title` for the first column) → the API's `sort` value. */
  sorts: Readonly<Record<string, string>>;
  /** List filters kept in the URL: field keys (enum, email, relation), or `q` for full-text search. */
  filters: string[];
  /** False for invoices: they are voided, not deleted (docs/reference/states.md#invoices). */
  deletable: boolean;
  /** What deleting one loses, in the confirmation's words. */
  deleteLoses?: string;
  /** Whether the record can still be edited (invoices: drafts only). */
  editable?(record: Record<string, any>): boolean;
  /** What a person should do when the list is empty. */
  emptyHint: string;
}

/** The value at a dotted path: get(client, 'address.city'). */
export function valueAt(record: Record<string, any> | null | undefined, key: string): any {
  let value: any = record;
  for (const part of key.split('.')) value = value == null ? undefined : value[part];
  return value;
}

/** The enum option's label, or the raw value when the description does not know it. */
export function optionLabel(field: FieldSpec, value: unknown): string {
  return field.options?.find((o) => o.value === value)?.label ?? String(value ?? '');
}

/** The field a validation error's path names: the longest field key that is a whole-segment prefix of it. */
export function fieldForPath(fields: FieldSpec[], path: string): FieldSpec | undefined {
  let best: FieldSpec | undefined;
  for (const f of fields) {
    if ((path === f.key || path.startsWith(`${f.key}.`)) && (!best || f.key.length > best.key.length)) best = f;
  }
  return best;
}

/** enum options from API values and a name table. */
export function options(values: readonly string[], names: Record<string, string>): { value: string; label: string }[] {
  return values.map((value) => ({ value, label: names[value] ?? value }));
}
