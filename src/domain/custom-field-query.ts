import { ApiError } from '../errors.js';
import { FIELD_KEY } from './custom-fields.js';

/**
 * The query parameters that filter and sort a list by a custom field (docs/reference/custom-fields.md#lists):
 * `custom_fields.<key>=v`, `custom_fields.<key>[gte]=v`, `custom_fields.<key>[lte]=v` and
 * `sort=custom_fields.<key>`. Their names are made of the field's key, so no fixed schema can list
 * them: they are taken out of the query string here, before the list's strict schema checks the rest
 * (an unknown parameter stays an error). Fastify's query parser keeps `a[gte]` as that name, brackets
 * included. Which keys exist and what their values mean is the service's to check (services/custom-field-filters.ts).
 */

export type CustomFieldOp = 'eq' | 'gte' | 'lte';

export interface CustomFieldParam {
  key: string;
  op: CustomFieldOp;
  /** As the query string gave it; typed by the field's definition later. */
  value: string;
}

/** What a list query holds of custom fields, beside its other parameters. */
export interface CustomFieldQuery {
  /** In a stable order (key, then op), so that a cursor's fingerprint does not depend on the parameters' order. */
  filters: CustomFieldParam[];
  /** The key of `sort=custom_fields.<key>`. */
  sortKey?: string;
}

const PREFIX = 'custom_fields.';
const NAME = /^custom_fields\.([^[\]]*)(?:\[([^\]]*)\])?$/;
const MAX_FILTERS = 20;
const MAX_VALUE_LENGTH = 1000;
const OPS: Record<string, CustomFieldOp> = { gte: 'gte', lte: 'lte' };

/** 400 invalid_request about one query parameter, with its name as the error's path. */
export function invalidParameter(path: string, code: string, message: string): ApiError {
  return new ApiError('invalid_request', `Invalid querystring parameters: ${path}: ${message}`, { errors: [{ path, code, message }] });
}

/** A field key as a query names it, or 400 saying what a key looks like. */
function fieldKey(name: string, key: string): string {
  if (!FIELD_KEY.test(key)) {
    throw invalidParameter(
      name,
      'invalid_value',
      `'${key}' is not a field key: a lowercase letter, then lowercase letters, digits or _ (GET /v1/fields lists them).`,
    );
  }
  return key;
}

/**
 * Splits a parsed query string into the parameters about custom fields and the rest (returned as a
 * new object: the request's own is left as it is). Refuses a malformed one with 400 invalid_request.
 */
export function takeCustomFieldParams(query: Record<string, unknown>): { rest: Record<string, unknown>; custom: CustomFieldQuery } {
  // Without a prototype, as Fastify's parser makes the query: `__proto__=x` stays a parameter (and unknown).
  const rest: Record<string, unknown> = Object.create(null);
  const filters: CustomFieldParam[] = [];
  let sortKey: string | undefined;
  for (const [name, value] of Object.entries(query)) {
    if (name === 'sort' && typeof value === 'string' && value.startsWith(PREFIX)) {
      sortKey = fieldKey(name, value.slice(PREFIX.length));
      continue;
    }
    if (!name.startsWith(PREFIX)) {
      rest[name] = value;
      continue;
    }
    const match = NAME.exec(name);
    if (!match)
      throw invalidParameter(
        name,
        'unknown_field',
        `Unknown parameter '${name}': filter with custom_fields.<key>=value, custom_fields.<key>[gte]=value or [lte].`,
      );
    const key = fieldKey(name, match[1]!);
    const op = match[2] === undefined ? 'eq' : OPS[match[2]];
    if (!op) throw invalidParameter(name, 'invalid_value', `Unknown operator [${match[2]}]: use [gte] or [lte], or none for an exact match.`);
    if (typeof value !== 'string') throw invalidParameter(name, 'invalid_value', 'Give this parameter once.');
    if (value.length > MAX_VALUE_LENGTH) throw invalidParameter(name, 'too_big', `At most ${MAX_VALUE_LENGTH} characters.`);
    filters.push({ key, op, value });
  }
  if (filters.length > MAX_FILTERS) throw invalidParameter('custom_fields', 'too_big', `At most ${MAX_FILTERS} custom field filters in one list request.`);
  filters.sort((a, b) => (a.key === b.key ? a.op.localeCompare(b.op) : a.key < b.key ? -1 : 1));
  return { rest, custom: { filters, ...(sortKey ? { sortKey } : {}) } };
}

/** `sort=custom_fields.<key>` as a list query carries it on. */
type CustomFieldSortName = `custom_fields.${string}`;

/**
 * A list query as the list routes hand it to the service: its schema's output, with the custom
 * field filters (in `custom_fields`) and a sort by a custom field put back.
 */
export type WithCustomFields<Q extends { sort: string }> = Omit<Q, 'sort'> & { sort: Q['sort'] | CustomFieldSortName; custom_fields?: CustomFieldParam[] };

/** The query with what takeCustomFieldParams took out of it put back, as WithCustomFields says. */
export function withCustomFields<Q extends { sort: string }>(query: Q, custom: CustomFieldQuery): WithCustomFields<Q> {
  return {
    ...query,
    ...(custom.filters.length ? { custom_fields: custom.filters } : {}),
    ...(custom.sortKey ? { sort: `custom_fields.${custom.sortKey}` as const } : {}),
  };
}
