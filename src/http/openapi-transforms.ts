import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildDeclaredSchemas } from '../schemas/lazy.js';
import { finishDocument } from './openapi-document.js';

type RouteTransform = Parameters<typeof jsonSchemaTransform>[0];
type ObjectTransform = Parameters<typeof jsonSchemaTransformObject>[0];

/**
 * The zod type provider's OpenAPI transforms, then finishDocument (openapi-document.ts) with what
 * the routes tell: their scopes. Also one thing @fastify/swagger cannot know: it marks
 * every request body `required`, but a route whose body schema accepts no body at all
 * (`DealLose.optional()`: `POST /v1/deals/{id}/lose` with nothing) has an optional one.
 * One pair per app: the routes seen by `transform` are marked by `transformObject`.
 *
 * The resource schemas are built on first use (schemas/lazy.ts): the document builds them all
 * first, so it names every schema whatever the sandbox has served, and documents each route's
 * schema as the schema it builds.
 */
export function openApiTransforms() {
  const optionalBodies: { path: string; method: string }[] = [];
  const scopes = new Map<string, string>();
  return {
    transform(input: RouteTransform) {
      buildDeclaredSchemas();
      input = { ...input, schema: built(input.schema) };
      const methods = [input.route.method].flat().map((m) => m.toLowerCase());
      // The document's path form: /v1/deals/:id/lose → /v1/deals/{id}/lose.
      const path = input.url.replace(/:(\w+)/g, '{$1}');
      const scope = (input.route.config as { scope?: string } | undefined)?.scope;
      if (scope) for (const method of methods) scopes.set(`${method.toUpperCase()} ${path}`, scope);
      const body = input.schema?.body as z.ZodType | undefined;
      if (body && typeof body.safeParse === 'function' && body.safeParse(undefined).success) {
        for (const method of methods) optionalBodies.push({ path, method });
      }
      return jsonSchemaTransform(input);
    },
    transformObject(input: ObjectTransform) {
      const doc = jsonSchemaTransformObject(input) as { paths?: Record<string, Record<string, { requestBody?: { required?: boolean } }>> };
      for (const { path, method } of optionalBodies) {
        const requestBody = doc.paths?.[path]?.[method]?.requestBody;
        if (requestBody) requestBody.required = false;
      }
      return finishDocument(doc, { scopes }) as ReturnType<typeof jsonSchemaTransformObject>;
    },
  };
}

/** A route's schemas with each lazy one (schemas/lazy.ts) replaced by the schema it builds. */
function built(schema: RouteTransform['schema']): RouteTransform['schema'] {
  if (!schema) return schema;
  const unwrap = (part: unknown) => (part instanceof z.ZodLazy ? part.unwrap() : part);
  const parts = { ...schema } as Record<string, unknown>;
  for (const key of ['body', 'querystring', 'params', 'headers']) if (key in parts) parts[key] = unwrap(parts[key]);
  if (parts.response)
    parts.response = Object.fromEntries(Object.entries(parts.response as Record<string, unknown>).map(([status, response]) => [status, unwrap(response)]));
  return parts as RouteTransform['schema'];
}
