import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CrmApiError, CrmNetworkError } from '../client/errors.js';
import type { SCOPES } from '../domain/scopes.js';

/**
 * A CRM tool is data: its name, its zod input and output schemas (from the resource schemas), the
 * scope it needs and what kind of action it is, from which the MCP annotations follow. The MCP
 * server registers these tools, and the built-in assistant offers the very same ones to its model
 * (docs/assistant.md), so a tool added here reaches both.
 */
type ToolKind = 'read' | 'create' | 'update' | 'destroy';

interface ToolAnnotations {
  readOnlyHint: boolean;
  /** MCP reserves `false` for tools that only add: anything that overwrites, clears, sends or deletes is true. */
  destructiveHint: boolean;
  idempotentHint: boolean;
}

const ANNOTATIONS: Record<ToolKind, ToolAnnotations> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
  // A create runs again on a second call, unless it repeats the idempotency_key.
  create: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  // Overwrites or nulls fields, or moves a record on for good (pay, send): setting the same twice leaves the same record.
  update: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
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

type Resource = (typeof SCOPES)[number] extends `${infer R}:${string}` ? R : never;

interface ToolSpec<I extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  kind: ToolKind;
  input: I;
  output: z.ZodObject;
  /** Writes also get the optional idempotency_key the kit adds to their input. */
  run(input: z.output<I> & { idempotency_key?: string }): Promise<unknown>;
}

export interface CrmTool {
  name: string;
  title: string;
  description: string;
  kind: ToolKind;
  /** The scope a caller needs to see and call the tool (the REST API checks it again on every call). */
  scope: string;
  annotations: ToolAnnotations;
  /** Strict: an unknown argument (a typo such as `nmae`) is an error, as it is on the REST API. */
  input: z.ZodObject;
  output: z.ZodObject;
  run(input: Record<string, unknown>): Promise<unknown>;
}

/** The tools of one resource: `x:read` for reads, `x:write` for the rest. */
export function toolsOf(resource: Resource) {
  return <I extends z.ZodObject>(spec: ToolSpec<I>): CrmTool => ({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    kind: spec.kind,
    scope: `${resource}:${spec.kind === 'read' ? 'read' : 'write'}`,
    annotations: ANNOTATIONS[spec.kind],
    // A new object, not .extend(): the resource schemas carry refinements, which the server checks anyway.
    input: z.strictObject(spec.kind === 'read' ? spec.input.shape : { ...spec.input.shape, ...idempotencyKeyField }),
    // A fresh object: a schema registered under an id would be emitted as a bare $ref, and MCP
    // clients expect an output schema of type object at the top.
    output: z.object(spec.output.shape),
    run: spec.run as CrmTool['run'],
  });
}

/** Runs a tool; API errors come back as tool errors the model can read and act on, never as protocol failures. */
export async function callTool(tool: CrmTool, args: Record<string, unknown>): Promise<CallToolResult> {
  try {
    const result = (await tool.run(args)) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result };
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: toolErrorText(error) }] };
  }
}

export function toolErrorText(error: unknown): string {
  if (error instanceof CrmApiError) {
    const fields = error.errors?.map((e) => `\n- ${e.path || '(input)'}: ${e.message}`).join('') ?? '';
    return `${error.code} (HTTP ${error.status}): ${error.detail}${fields}`;
  }
  if (error instanceof CrmNetworkError) return `unavailable: ${error.message}`;
  return `internal_error: ${(error as Error).message ?? String(error)}`;
}

/** Output of list tools: a page of records and the cursor for the next one. */
export function pageOf(item: z.ZodType) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) });
export const pathId = (id: string) => encodeURIComponent(id);
