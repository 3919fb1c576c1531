/**
 * The operations of the OpenAPI document the sandbox publishes, read generically (paths, methods,
 * parameters, request bodies, response media types) so the fuzzer keeps working as the document grows.
 */
export type Schema = Record<string, any>;

export interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }[];
  body?: { required: boolean; mediaType: string; schema: Schema };
  /** Media types any of its responses may have (used to skip streams). */
  responseTypes: string[];
}

export interface Document {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Replaces every local `$ref` with a copy of its target (cycles stop at depth 8). */
export function deref(doc: Document, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || typeof schema !== 'object') return {};
  if (typeof schema.$ref === 'string') {
    if (depth > 8) return {};
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: any, k: string) => o?.[k], doc);
    return deref(doc, target, depth + 1);
  }
  const out: Schema = Array.isArray(schema) ? [] : {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = value && typeof value === 'object' ? deref(doc, value, depth + 1) : value;
  }
  return out;
}

export function operationsOf(doc: Document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        .map((p: any) => deref(doc, p))
        .filter((p: any) => ['path', 'query', 'header'].includes(p.in))
        .map((p: any) => ({ name: p.name, in: p.in, required: Boolean(p.required || p.in === 'path'), schema: p.schema ?? { type: 'string' } }));
      const content = op.requestBody ? (deref(doc, op.requestBody).content ?? {}) : {};
      const mediaType = Object.keys(content)[0];
      const responseTypes = Object.values(op.responses ?? {}).flatMap((r: any) => Object.keys(deref(doc, r).content ?? {}));
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters,
        ...(mediaType ? { body: { required: Boolean(op.requestBody.required), mediaType, schema: deref(doc, content[mediaType].schema) } } : {}),
        responseTypes: [...new Set(responseTypes)],
      });
    }
  }
  return operations;
}
