import { type CustomFieldParam, invalidParameter } from '../domain/custom-field-query.js';
import type { FieldObject } from '../domain/custom-fields.js';
import type { Field } from '../schemas/field.js';
import type { CustomFieldFilter, CustomFieldList } from '../store/custom-field-sql.js';
import { fieldDefinition } from './custom-field-values.js';
import type { Ctx } from './context.js';

/**
 * A list's custom field filters and sort (docs/reference/custom-fields.md#lists) checked against the
 * object's definitions: each key must be a defined field, and each value is typed by its field, so
 * that `custom_fields.employees=40` compares numbers (40 and 40.0 alike) and `=true` a boolean.
 */

/** The types a range ([gte], [lte]) compares: numbers, and dates and times as their text sorts. */
const RANGE_TYPES: readonly Field['type'][] = ['number', 'date', 'datetime'];
const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The list's custom field filters and sort, resolved; undefined when it asks for none. */
export function customFieldList(
  ctx: Ctx,
  object: FieldObject,
  query: { sort?: string; custom_fields?: CustomFieldParam[] | undefined },
): CustomFieldList | undefined {
  const sortKey = query.sort?.startsWith('custom_fields.') ? query.sort.slice('custom_fields.'.length) : undefined;
  const params = query.custom_fields ?? [];
  if (!sortKey && params.length === 0) return undefined;
  const filters = params.map((param) => typedFilter(param, definition(ctx, object, param.key, parameterName(param))));
  if (!sortKey) return { filters };
  const field = definition(ctx, object, sortKey, 'sort');
  if (field.type === 'multi_select')
    throw invalidParameter('sort', 'invalid_value', `${sortKey} is a multi_select field, which holds a list: a list cannot be sorted by it.`);
  return { filters, sort: { key: field.key, type: field.type } };
}

function definition(ctx: Ctx, object: FieldObject, key: string, path: string): Field {
  const field = fieldDefinition(ctx, object, key);
  if (!field) throw invalidParameter(path, 'unknown_field', `No ${object} field has the key '${key}': GET /v1/fields?object=${object} lists them.`);
  return field;
}

const parameterName = ({ key, op }: CustomFieldParam) => (op === 'eq' ? `custom_fields.${key}` : `custom_fields.${key}[${op}]`);

function typedFilter(param: CustomFieldParam, field: Field): CustomFieldFilter {
  const { key, op, value } = param;
  const refuse = (message: string) => invalidParameter(parameterName(param), 'invalid_value', message);
  if (op !== 'eq' && !RANGE_TYPES.includes(field.type)) {
    throw refuse(
      `${key} is a ${field.type} field: [gte] and [lte] compare number, date and datetime fields; match it exactly with custom_fields.${key}=value.`,
    );
  }
  const typed = (v: string | number): CustomFieldFilter => ({ key, type: field.type, op, value: v });
  switch (field.type) {
    case 'number': {
      const number = Number(value);
      if (!NUMBER.test(value) || !Number.isFinite(number)) throw refuse(`${key} is a number field: expected a number, like 40 or 12.5.`);
      return typed(number);
    }
    case 'boolean':
      if (value !== 'true' && value !== 'false') throw refuse(`${key} is a boolean field: expected true or false.`);
      // SQLite's JSON functions read true and false as 1 and 0.
      return typed(value === 'true' ? 1 : 0);
    case 'date':
      if (!DATE.test(value)) throw refuse(`${key} is a date field: expected YYYY-MM-DD.`);
      return typed(value);
    case 'datetime':
      if (!DATETIME.test(value) && !(op !== 'eq' && DATE.test(value))) {
        throw refuse(`${key} is a datetime field: expected an RFC 3339 time, like 2026-11-28T09:30:00Z${op === 'eq' ? '' : ', or a date'}.`);
      }
      return typed(value);
    case 'select':
    case 'multi_select': {
      const options = field.options ?? [];
      if (!options.some((o) => o.value === value)) {
        const shown = options.slice(0, 10).map((o) => o.value);
        throw refuse(`'${value}' is not an option of ${key}: ${shown.join(', ')}${options.length > shown.length ? ', …' : ''}.`);
      }
      return typed(value);
    }
    default:
      return typed(value);
  }
}
