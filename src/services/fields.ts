import { BUILT_IN_FIELDS, type FieldObject, MAX_FIELDS_PER_OBJECT, OPTION_TYPES, typeChangeAllowed } from '../domain/custom-fields.js';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import type { Field, FieldCreate, FieldListQuery, FieldUpdate } from '../schemas/field.js';
import {
  allFields,
  countFields,
  countHolding,
  countHoldingOption,
  deleteFieldRow,
  findField,
  findFieldByKey,
  insertField,
  nextFieldPosition,
  removeValues,
  wrapValuesInLists,
  writeField,
} from '../store/fields.js';
import { createFieldIndex, dropFieldIndex, remakeFieldIndex } from '../store/custom-field-sql.js';
import { sentFields } from './changes.js';
import { forgetFieldDefinitions } from './custom-field-values.js';
import { nowIso } from './clock.js';
import type { Ctx } from './context.js';
import { recordEvent, saveUpdate } from './events.js';
import { inTransaction } from './transactions.js';

/**
 * Custom field definitions (docs/reference/custom-fields.md): the fields a team adds to its leads,
 * clients and deals. A change is one transaction with its event (field.created, field.updated,
 * field.deleted); deleting a field removes its values from every record in the same one.
 */
export function getField(ctx: Ctx, id: string): Field {
  const field = findField(ctx.db, id);
  if (!field) throw notFound('field', id);
  return field;
}

export function listFields(ctx: Ctx, query: FieldListQuery): { data: Field[]; next_cursor: string | null } {
  // Few per account (at most 200 an object): read whole, paged in the order people see them.
  const fingerprint = `fields:${query.object ?? '*'}`;
  const start = query.cursor ? Number(decodeCursor(ctx.cursorSecret, fingerprint, query.cursor).after[0]) : 0;
  const all = allFields(ctx.db, query.object);
  const data = all.slice(start, start + query.limit);
  const more = start + query.limit < all.length;
  return { data, next_cursor: more ? encodeCursor(ctx.cursorSecret, fingerprint, { after: [start + query.limit] }) : null };
}

/**
 * `quiet`: no field.created event, for the definitions the seed installs with its data (a seed image
 * copied into an account that keeps its own definitions must bring no events about others).
 */
export function createField(ctx: Ctx, input: FieldCreate, options: { quiet?: boolean } = {}): Field {
  return inTransaction(ctx, () => {
    if (BUILT_IN_FIELDS[input.object].includes(input.key)) {
      throw new ApiError('conflict', `'${input.key}' is a built-in field of a ${input.object}: choose another key.`);
    }
    if (findFieldByKey(ctx.db, input.object, input.key)) throw new ApiError('conflict', `A ${input.object} field with the key '${input.key}' exists already.`);
    if (countFields(ctx.db, input.object) >= MAX_FIELDS_PER_OBJECT) {
      throw new ApiError('conflict', `A ${input.object} has at most ${MAX_FIELDS_PER_OBJECT} custom fields: delete one first.`);
    }
    const now = nowIso(ctx);
    const field: Field = {
      id: ctx.ids.next('fld'),
      object: input.object,
      key: input.key,
      label: input.label,
      type: input.type,
      description: input.description ?? null,
      required: input.required,
      options: input.options ?? null,
      decimals: input.decimals ?? null,
      position: input.position ?? nextFieldPosition(ctx.db, input.object),
      created_at: now,
      updated_at: now,
    };
    insertField(ctx.db, field);
    forgetFieldDefinitions(ctx.db);
    // The index lists filter and sort by (docs/reference/custom-fields.md#lists), in the same transaction.
    createFieldIndex(ctx.db, field.object, field.key, field.type);
    if (!options.quiet) recordEvent(ctx, 'field.created', field);
    return field;
  });
}

export function updateField(ctx: Ctx, id: string, patch: FieldUpdate): Field {
  return inTransaction(ctx, () => {
    const before = getField(ctx, id);
    const after: Field = { ...before, ...sentFields(patch), updated_at: nowIso(ctx) } as Field;
    if (!typeChangeAllowed(before.type, after.type)) {
      throw new ApiError(
        'conflict',
        `A ${before.type} field cannot become ${after.type}: only text ↔ long_text and select → multi_select keep every value valid.`,
      );
    }
    const optioned = OPTION_TYPES.includes(after.type);
    if (!optioned && patch.options) throw fieldError('options', 'not_allowed', 'Only select and multi_select fields have options.');
    if (after.type !== 'number' && patch.decimals !== undefined && patch.decimals !== null) {
      throw fieldError('decimals', 'not_allowed', 'Only number fields have decimals.');
    }
    if (patch.options && before.options) refuseRemovedOptionsInUse(ctx, before, patch.options);
    if (before.type === 'select' && after.type === 'multi_select') wrapValuesInLists(ctx.db, before.object, before.key);
    forgetFieldDefinitions(ctx.db);
    // Text-like types share one index; a multi_select has none.
    if (after.type !== before.type) remakeFieldIndex(ctx.db, after.object, after.key, after.type);
    return saveUpdate(ctx, 'field.updated', before, after, writeField);
  });
}

function refuseRemovedOptionsInUse(ctx: Ctx, field: Field, options: { value: string }[]): void {
  const kept = new Set(options.map((o) => o.value));
  for (const option of field.options!) {
    if (kept.has(option.value)) continue;
    const holding = countHoldingOption(ctx.db, field.object, field.key, option.value);
    if (holding > 0) {
      throw new ApiError(
        'conflict',
        `${holding} ${field.object}${holding === 1 ? '' : 's'} hold the option '${option.value}' of ${field.key}: change their values before removing it.`,
      );
    }
  }
}

/** Deletes the definition and its values from every record, in one transaction; answers how many records held one. */
export function deleteField(ctx: Ctx, id: string): { id: string; deleted: true; values_removed: number } {
  return inTransaction(ctx, () => {
    const field = getField(ctx, id);
    const removed = removeValues(ctx.db, field.object, field.key);
    deleteFieldRow(ctx.db, id);
    forgetFieldDefinitions(ctx.db);
    dropFieldIndex(ctx.db, field.object, field.key);
    recordEvent(ctx, 'field.deleted', field);
    return { id, deleted: true as const, values_removed: removed };
  });
}

/** How many of the object's records hold a value for the field: what a delete would remove (the dashboard's confirmation). */
export function fieldUsage(ctx: Ctx, id: string): { id: string; records_with_values: number } {
  const field = getField(ctx, id);
  return { id, records_with_values: countHolding(ctx.db, field.object as FieldObject, field.key) };
}
