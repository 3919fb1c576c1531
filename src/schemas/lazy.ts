import { z } from 'zod';

/**
 * A resource schema built the first time something uses it (a request it validates, the OpenAPI
 * document, an MCP tool), not when its module loads: the resource schemas are ~1,100 zod objects,
 * and building them was ~15 ms of every sandbox start, most of it for routes the first requests
 * never reach (docs/benchmarks.md).
 *
 * It is a real zod schema (`z.lazy`): it validates, infers its type and documents itself as the
 * schema it builds. `.unwrap()` gives that schema, built once, for what only an object has
 * (`.shape`, `.extend()`). zod's own `unwrap()` would call the builder again each time, so the
 * builder is wrapped to build once: a second build would also register its id twice.
 *
 * Only the exported schemas are lazy: a builder uses the other schemas built (`Contact.unwrap()`),
 * so what zod, the OpenAPI document and MCP clients see below the top is the plain schema (a lazy
 * one inside another reads as `allOf: [{ $ref }]` in MCP's JSON Schema instead of a `$ref`).
 */
export function lazySchema<T extends z.ZodType>(build: () => T): z.ZodLazy<T> {
  const schema = z.lazy(buildOnce(build));
  declared.push(schema);
  return schema;
}

/**
 * A part of the resource schemas (common.ts's building blocks, a set of fields), built the first
 * time it is called and the same object after: the schemas using it share one instance, as they
 * did when it was a value. No z.lazy around it: a part is never a route's or a document's schema
 * by itself, and what zod, the document, MCP and the CSV columns see inside a schema stays plain.
 */
export function buildOnce<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const declared: z.ZodLazy[] = [];
/** How many of `declared` buildDeclaredSchemas() has built: the document asks once for each route. */
let builtUpTo = 0;

/**
 * Builds every lazy schema declared so far, in the order of their declarations: the OpenAPI
 * document lists every named schema, also those no route has used yet.
 */
export function buildDeclaredSchemas(): void {
  for (; builtUpTo < declared.length; builtUpTo++) declared[builtUpTo]!.unwrap();
}
