import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CrmApiError, CrmNetworkError } from '../client/errors.js';

/**
 * Defining a tool takes one call: its zod input schema (from the resource schemas), its output
 * schema, and what kind of action it is, from which the MCP annotations follow. API errors come
 * back as tool errors the assistant can read and act on, never as protocol failures.
 */
type ToolKind = 'read' | 'create' | 'update' | 'destroy';

const ANNOTATIONS: Record<ToolKind, { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean }> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  // A create runs again on a second call, unless it repeats the idempotency_key.
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  // Setting the same fields twice leaves the same record.
  update: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  destroy: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
};

const idempotencyKeyField = {
  idempotency_key: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/)
    .optional()
    .describe('Reuse the same key when retrying this call: the write then happens at most once (kept 24 h). A new one is made if absent.'),
};

export interface ToolSpec<I extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  kind: ToolKind;
  input: I;
  output: z.ZodObject;
  /** Writes also get the optional idempotency_key the kit adds to their input. */
  run(input: z.output<I> & { idempotency_key?: string }): Promise<unknown>;
}

export function defineTool<I extends z.ZodObject>(server: McpServer, spec: ToolSpec<I>): void {
  // A new object, not .extend(): the resource schemas carry refinements, which the server checks anyway.
  const input = spec.kind === 'read' ? spec.input : z.object({ ...spec.input.shape, ...idempotencyKeyField });
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: input,
      // A fresh object: a schema registered under an id would be emitted as a bare $ref, and MCP
      // clients expect an output schema of type object at the top.
      outputSchema: z.object(spec.output.shape),
      annotations: { title: spec.title, ...ANNOTATIONS[spec.kind], openWorldHint: false },
    },
    (async (args: z.output<I> & { idempotency_key?: string }): Promise<CallToolResult> => {
      try {
        const result = (await spec.run(args)) as Record<string, unknown>;
        return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result };
      } catch (error) {
        return toolError(error);
      }
    }) as never,
  );
}

function toolError(error: unknown): CallToolResult {
  let text: string;
  if (error instanceof CrmApiError) {
    const fields = error.errors?.map((e) => `\n- ${e.path || '(input)'}: ${e.message}`).join('') ?? '';
    text = `${error.code} (HTTP ${error.status}): ${error.detail}${fields}`;
  } else if (error instanceof CrmNetworkError) {
    text = `unavailable: ${error.message}`;
  } else {
    text = `internal_error: ${(error as Error).message ?? String(error)}`;
  }
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Output of list tools: a page of records and the cursor for the next one. */
export function pageOf(item: z.ZodType) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });
export const pathId = (id: string) => encodeURIComponent(id);
