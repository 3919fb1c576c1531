import type { FieldObject } from '../domain/custom-fields.js';
import type { Field } from '../schemas/field.js';
import type { Db } from './db.js';
import { FIELD_OBJECT_TABLES } from './tables.js';
import { deleteRow, getRow, insertRow, json, parseJson, stmt, updateRow, type Row } from './rows.js';

/** Custom field definitions (migration 021) and the records' values they govern. */

function fromRow(row: Row): Field {
  return {
    id: String(row.id),
    object: row.object as FieldObject,
    key: String(row.key),
    label: String(row.label),
    type: row.type as Field['type'],
    description: (row.description as string | null) ?? null,
    required: row.required === 1,
    options: row.options === null ? null : parseJson<Field['options']>(row.options as string, []),
    decimals: (row.decimals as number | null) ?? null,
    position: Number(row.position),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

const toRow = (f: Field): Row => ({ ...f, required: f.required ? 1 : 0, options: f.options ? json(f.options) : null });

export const insertField = (db: Db, field: Field): void => insertRow(db, 'fields', toRow(field));
export const writeField = (db: Db, field: Field): void => updateRow(db, 'fields', toRow(field));
export const deleteFieldRow = (db: Db, id: string): boolean => deleteRow(db, 'fields', id);

export function findField(db: Db, id: string): Field | undefined {
  const row = getRow(db, 'fields', id);
  return row && fromRow(row);
}

export const findFieldByKey = (db: Db, object: FieldObject, key: string): Field | undefined => {
  const row = stmt(db, 'SELECT * FROM fields WHERE object = ? AND key = ?').get(object, key) as Row | undefined;
  return row && fromRow(row);
};

/** Every definition, or one object's, in the order people see them: by object, position, then creation. */
export function allFields(db: Db, object?: FieldObject): Field[] {
  const rows = object
    ? stmt(db, 'SELECT * FROM fields WHERE object = ? ORDER BY position, id').all(object)
    : stmt(db, 'SELECT * FROM fields ORDER BY object, position, id').all();
  return (rows as Row[]).map(fromRow);
}

export const countFields = (db: Db, object: FieldObject): number =>
  (stmt(db, 'SELECT count(*) AS n FROM fields WHERE object = ?').get(object) as { n: number }).n;

export const nextFieldPosition = (db: Db, object: FieldObject): number =>
  (stmt(db, 'SELECT coalesce(max(position) + 1, 0) AS p FROM fields WHERE object = ?').get(object) as { p: number }).p;

const path = (key: string) => `$."${key}"`; // keys are [a-z0-9_]: nothing to escape

/** How many records hold a value for the field (not null). */
export const countHolding = (db: Db, object: FieldObject, key: string): number =>
  (stmt(db, `SELECT count(*) AS n FROM ${FIELD_OBJECT_TABLES[object]} WHERE json_extract(custom_fields, ?) IS NOT NULL`).get(path(key)) as { n: number }).n;

/** How many records hold this option: the value itself, or (multi_select) in their list. */
export function countHoldingOption(db: Db, object: FieldObject, key: string, value: string): number {
  const sql = `SELECT count(*) AS n FROM ${FIELD_OBJECT_TABLES[object]}
    WHERE json_extract(custom_fields, @path) = @value
       OR (json_type(custom_fields, @path) = 'array' AND EXISTS (SELECT 1 FROM json_each(custom_fields, @path) WHERE value = @value))`;
  return (stmt(db, sql).get({ path: path(key), value }) as { n: number }).n;
}

/** Removes the field's values from every record; the records' updated_at stays (the definition changed, not them). */
export const removeValues = (db: Db, object: FieldObject, key: string): number =>
  stmt(db, `UPDATE ${FIELD_OBJECT_TABLES[object]} SET custom_fields = json_remove(custom_fields, @path) WHERE json_type(custom_fields, @path) IS NOT NULL`).run(
    {
      path: path(key),
    },
  ).changes;

/** select → multi_select: each held value becomes a list of one. */
export const wrapValuesInLists = (db: Db, object: FieldObject, key: string): number =>
  stmt(
    db,
    `UPDATE ${FIELD_OBJECT_TABLES[object]} SET custom_fields = json_set(custom_fields, @path, json_array(json_extract(custom_fields, @path)))
     WHERE json_type(custom_fields, @path) = 'text'`,
  ).run({ path: path(key) }).changes;
