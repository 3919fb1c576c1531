import { BUILT_IN_FIELDS, FIELD_KEY, type FieldObject, fieldKeyFor, typeOfHeldValues } from '../domain/custom-fields.js';
import { newId } from '../domain/ids.js';
import type { Db } from './db.js';
import { FIELD_OBJECT_TABLES } from './tables.js';

/**
 * The second step of migration 021: every key records already hold in custom_fields becomes a
 * defined field (type from the values held: number, boolean, else text), so nothing stored before
 * is lost or refused once values are checked against definitions. A key that is not a valid field
 * key (`Company Size`, from an import) or that names a built-in field gets a new key, its values
 * move to it, and the old name becomes the label.
 */

export function defineHeldFields(db: Db): void {
  const now = new Date().toISOString();
  const insert = db.prepare(
    'INSERT INTO fields (id, object, key, label, type, description, required, options, decimals, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, 0, NULL, NULL, ?, ?, ?)',
  );
  for (const [object, table] of Object.entries(FIELD_OBJECT_TABLES) as [FieldObject, string][]) {
    const held = db
      .prepare(
        `SELECT j.key AS key, group_concat(DISTINCT j.type) AS kinds FROM ${table}, json_each(${table}.custom_fields) AS j GROUP BY j.key ORDER BY j.key`,
      )
      .all() as { key: string; kinds: string }[];
    const taken = new Set(BUILT_IN_FIELDS[object]);
    held.forEach(({ key, kinds }, position) => {
      const fits = FIELD_KEY.test(key) && !taken.has(key);
      const fieldKey = fits ? key : fieldKeyFor(key, new Set([...taken, ...held.map((h) => h.key)]));
      taken.add(fieldKey);
      insert.run(newId('fld'), object, fieldKey, key, typeOfHeldValues(kinds.split(',')), position, now, now);
      if (!fits) {
        db.prepare(
          `UPDATE ${table} SET custom_fields = json_set(json_remove(custom_fields, ?), ?, json_extract(custom_fields, ?)) WHERE json_type(custom_fields, ?) IS NOT NULL`,
        ).run(jsonPath(key), jsonPath(fieldKey), jsonPath(key), jsonPath(key));
      }
    });
  }
}

/** A JSON path to one key, quoted: keys may hold spaces, dots or quotes. */
const jsonPath = (key: string) => `$."${key.replace(/"/g, '""')}"`;
