import fc from 'fast-check';
import type { Schema } from './openapi.js';

/**
 * Values from JSON Schemas: `valid` makes values the schema accepts; `odd*` are the hostile inputs
 * the mutations splice in (wrong types, boundary numbers, long and odd unicode strings).
 */
const MAX_ITEMS = 3;

/**
 * Amounts where money once broke: more decimals than a currency has at sizes where a tolerance
 * rounded them in silence, sums past 2^53 and 2^63 minor units (a 500 from SQLite), a float sum.
 */
const MONEY_EDGES = [5000.005, 123456.789, 9999999999999.99, 9007199254740.99, 4000000000000.001, 9000000000000, 1e13, 0.1 + 0.2];

function typeOf(schema: Schema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return t.find((x) => x !== 'null');
  return t ?? (schema.properties ? 'object' : undefined);
}

export function valid(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) {
    const choices = union.filter((s: Schema) => s.type !== 'null' && s.not === undefined);
    return choices.length ? fc.oneof(...choices.map(valid)) : fc.constant(null);
  }
  if (Array.isArray(schema.allOf)) return valid(Object.assign({}, ...schema.allOf));
  switch (typeOf(schema)) {
    case 'object': {
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, sub] of Object.entries<Schema>(schema.properties ?? {})) props[name] = valid(sub);
      const required = (schema.required ?? []).filter((r: string) => r in props);
      return fc.record(props, { requiredKeys: required });
    }
    case 'array': {
      const min = schema.minItems ?? 0;
      return fc.array(valid(schema.items ?? {}), { minLength: min, maxLength: Math.max(min, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS)) });
    }
    case 'integer':
      return fc.integer({
        min: Math.ceil(schema.minimum ?? (schema.exclusiveMinimum ?? -1e6 - 1) + 1e-9),
        max: Math.floor(schema.maximum ?? (schema.exclusiveMaximum ?? 1e6 + 1) - 1e-9),
      });
    case 'number': {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 0.01 : -1e6);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 0.01 : 1e6);
      const plain = fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => Math.round(n * 100) / 100);
      const edges = MONEY_EDGES.filter((n) => n >= min && n <= max);
      return (edges.length ? fc.oneof({ arbitrary: plain, weight: 4 }, { arbitrary: fc.constantFrom(...edges), weight: 1 }) : plain).filter(
        (n) => n >= min && n <= max,
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'string':
      return validString(schema);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}

function validString(schema: Schema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'email':
      return fc.tuple(fc.stringMatching(/^[a-z0-9]{1,10}$/), fc.constantFrom('example.com', 'test.org')).map(([a, d]) => `${a}@${d}`);
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'date':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.stringMatching(/^[a-z]{1,8}$/).map((h) => `https://${h}.example.com/`);
  }
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, Math.max(min, 40));
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
  return fc.string({ unit: 'grapheme', minLength: Math.max(min, 1), maxLength: Math.max(max, 1) }).filter((s) => s.trim().length >= min);
}

/** Strings nobody types by hand: lone surrogates, NUL, bidi marks, combining storms, 10k characters, terminal escapes (OSC 52, C1 CSI). */
export const oddString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uD800',
    '\uDFFF',
    '\u202E\u202Dx',
    'e\u0301\u0301\u0301\u0301',
    '🧨'.repeat(300),
    'x'.repeat(10_000),
    '%00',
    '../../etc/passwd',
    '${{7*7}}',
    "' OR 1=1 --",
    '\r\nX-Injected: 1',
    'ci\u001b]52;c;ZXZpbA==\u0007',
    'ci\u009b2J\u007f',
  ),
  fc.string({ unit: 'binary', maxLength: 64 }),
);

export const boundaryNumber = fc.constantFrom(0, -1, 1, -0, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 53), 1e-320);

/** A value of another JSON type than the schema asks for. */
export function wrongType(schema: Schema): fc.Arbitrary<unknown> {
  const t = typeOf(schema);
  const all: Record<string, fc.Arbitrary<unknown>> = {
    string: oddString,
    number: boundaryNumber,
    integer: fc.constantFrom(1.5, '1', 1e308),
    boolean: fc.constantFrom('true', 0, 1),
    object: fc.constantFrom([], 'object', 1),
    array: fc.constantFrom({}, 'a', 1),
    null: fc.constant(null),
  };
  const others = Object.entries(all)
    .filter(([k]) => k !== t && !(t === 'number' && k === 'integer'))
    .map(([, a]) => a);
  return t === 'string' ? fc.oneof(boundaryNumber, fc.constant(null), fc.constant({}), fc.constant([])) : fc.oneof(...others);
}
