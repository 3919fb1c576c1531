import { z } from 'zod';
import { buildOnce } from './lazy.js';

/**
 * zod's compiler (`z.compile`) turns a schema into one generated function: a lead record is
 * checked in ~0.8 µs instead of ~4.6 µs by the interpreted schema, and an import checks a million
 * of them on each side of the wire (docs/benchmarks.md). It compiles only what it can
 * model and runs the rest interpreted, silently: a `z.lazy` (every exported resource schema,
 * lazy.ts) and a `.catch()` with a callback (a bulk body's per-record fallback) stay interpreted,
 * and so does everything inside them. So the schema compiled is the plain one under the lazy
 * wrapper, and a bulk body is parsed by a twin of its schema built around compiled records.
 * Compiling costs ~10–15 ms a schema: done on first use, never at a start, and the sandbox asks
 * for a bulk body's twin only from a route's 21st request (http/app.ts).
 */
export function compiledSchema<T extends z.ZodType>(schema: z.ZodLazy<T>): T {
  return z.compile(schema.unwrap());
}

const parsers = new WeakMap<z.ZodType, () => z.ZodType>();

/**
 * Declares the schema that parses for `schema`: built on first use, it must give the same answers
 * (test/unit/compiled-schemas.test.ts checks both on valid and broken bodies). The documents (OpenAPI,
 * MCP) and the types keep reading `schema`; the request validator asks parserFor().
 */
export function parsedBy<T extends z.ZodType>(schema: T, build: () => z.ZodType): T {
  parsers.set(schema, buildOnce(build));
  return schema;
}

/** The schema that parses for `schema`: its declared twin, or itself. */
export function parserFor(schema: z.ZodType): z.ZodType {
  return parsers.get(schema)?.() ?? schema;
}
