import type { z } from 'zod';

/**
 * Enum values as people type them in spreadsheets: `New`, `CONTACTED`, `Cold Call`, `cold-call`
 * all mean what the API spells `new`, `contacted`, `cold_call`. Values are compared ignoring case,
 * spaces, underscores and hyphens (the presets compare their own value sets the same way). A value
 * that matches nothing is sent as it is, so the server's message names the allowed values.
 */
export const valueKey = (value: string): string => value.toLowerCase().replace(/[\s_-]+/g, '');

/** The allowed values of an enum field (through optional, nullable, default and lazy), or undefined for any other field. */
export function enumValues(schema: z.ZodType): readonly string[] | undefined {
  type Node = { def: { type: string; innerType?: unknown; entries?: Record<string, string> }; unwrap?: () => Node };
  let current = schema as unknown as Node;
  while (current.def.innerType || current.def.type === 'lazy') current = current.def.type === 'lazy' ? current.unwrap!() : (current.def.innerType as Node);
  return current.def.type === 'enum' && current.def.entries ? Object.values(current.def.entries) : undefined;
}

/** valueKey → the API's spelling, for one enum field. */
export function enumLookup(values: readonly string[]): Map<string, string> {
  return new Map(values.map((v) => [valueKey(v), v]));
}

/** The API's spelling of a cell, when it names one of the values; else the cell unchanged. */
export function canonicalValue(lookup: Map<string, string>, cell: string): string {
  return lookup.get(valueKey(cell)) ?? cell;
}
