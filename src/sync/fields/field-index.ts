import { SyncUsageError } from '../errors.js';
import type { FieldDef } from './definitions.js';

/**
 * Which custom field a column fills (docs/sync.md, "Custom fields"): a header that is a field's
 * key, `custom.<key>`, or its label, ignoring case, spaces, underscores, dashes and dots as the
 * built-in columns' names are ("Lifecycle Stage", "lifecycle_stage" and "custom.lifecycle_stage"
 * all fill `lifecycle_stage`). A key is looked for before a label, since keys are unique and labels
 * need not be; two fields with the same label make the column ambiguous.
 */
const normalise = (name: string): string => name.toLowerCase().replace(/[\s_.-]+/g, '');
const CUSTOM_PREFIX = /^\s*custom\s*\.(.+)$/i;

/** The name a `custom.<name>` column or a plain header gives a field. */
export const customName = (column: string): string => (CUSTOM_PREFIX.exec(column)?.[1] ?? column).trim();

export class FieldIndex {
  private readonly byKey = new Map<string, FieldDef>();
  private readonly byLabel = new Map<string, FieldDef[]>();

  constructor(readonly fields: readonly FieldDef[]) {
    for (const field of fields) {
      this.byKey.set(normalise(field.key), field);
      const label = normalise(field.label);
      this.byLabel.set(label, [...(this.byLabel.get(label) ?? []), field]);
    }
  }

  /** The field a column name fills, or undefined when none does. */
  find(column: string): FieldDef | undefined {
    const name = normalise(customName(column));
    const byKey = this.byKey.get(name);
    if (byKey) return byKey;
    const byLabel = this.byLabel.get(name) ?? [];
    if (byLabel.length > 1)
      throw new SyncUsageError(
        `Column "${column}" is the label of ${byLabel.length} fields (${byLabel.map((f) => f.key).join(', ')}): name one by its key, e.g. --map "${column}=custom.${byLabel[0]!.key}".`,
      );
    return byLabel[0];
  }

  with(added: FieldDef[]): FieldIndex {
    return new FieldIndex([...this.fields, ...added]);
  }
}
