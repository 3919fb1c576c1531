import type { CrmClient } from '../../client/client.js';
import { CrmApiError } from '../../client/errors.js';
import type { FieldObject, FieldType } from '../../domain/custom-fields.js';
import { SyncUsageError } from '../errors.js';

/**
 * A custom field definition as sync needs it (docs/reference/custom-fields.md): what a column of
 * that field holds and how its cells read and write. Plain data: the export's render thread gets
 * it as it is.
 */
export interface FieldDef {
  key: string;
  label: string;
  type: FieldType;
  options: { value: string; label: string }[] | null;
  decimals: number | null;
}

/** What sync asks the server about definitions: the CLI gives the typed client's side of it. */
export interface FieldsApi {
  /** The object's definitions in their order, or undefined for a server without /v1/fields (before definitions). */
  list(object: FieldObject): Promise<FieldDef[] | undefined>;
  create(body: FieldCreateBody): Promise<FieldDef>;
}

interface FieldCreateBody {
  object: FieldObject;
  key: string;
  label: string;
  type: FieldType;
  options?: { value: string; label: string }[];
}

const OBJECT_OF = { leads: 'lead', clients: 'client', deals: 'deal' } as const;
export const fieldObjectOf = (resource: keyof typeof OBJECT_OF): FieldObject => OBJECT_OF[resource];

/**
 * The definitions of one object, every page (at most 200 an object). A server without the route
 * (404) is one from before definitions: sync then works as it did. A key that may not read them
 * (403) cannot tell what the columns mean, so it stops with what to do.
 */
export async function listDefinitions(client: CrmClient, object: FieldObject): Promise<FieldDef[] | undefined> {
  try {
    return await client.all<FieldDef>('/v1/fields', { object, limit: 100 });
  } catch (error) {
    if (error instanceof CrmApiError && error.status === 404) return undefined;
    if (error instanceof CrmApiError && error.status === 403)
      throw new SyncUsageError(
        `This API key may not read the ${object}s' custom field definitions (it lacks the fields:read scope), which tell what the file's columns mean. Use a key with fields:read.`,
      );
    throw error;
  }
}

export function fieldsApi(client: CrmClient): FieldsApi {
  return {
    list: (object) => listDefinitions(client, object),
    create: (body) => client.post<FieldDef>('/v1/fields', body),
  };
}
