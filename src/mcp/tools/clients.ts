import { z } from 'zod';
import { Client, ClientCreate, ClientListQuery, ClientUpdate, Contact, ContactCreate, ContactUpdate } from '../../schemas/client.js';
import type { McpBackend } from '../backend.js';
import { type CrmTool, Deleted, pageOf, pathId, toolsOf } from '../tool-kit.js';

type Keyed = { idempotency_key?: string };
const ClientId = z.object({ id: z.string().describe('The client id (cli_…)') });
const ContactIds = z.object({ client_id: z.string().describe('The client id (cli_…)'), contact_id: z.string().describe('The contact person id (con_…)') });

export function clientTools(api: McpBackend): CrmTool[] {
  const tool = toolsOf('clients');
  return [
    tool({
      name: 'search_clients',
      title: 'Search clients',
      description:
        'Finds clients by words in their name, email, website or their contact persons’ names and emails (`q`, prefix match), or lists them all, oldest first (order=desc: newest first; sort by name or updated_at); results carry their contact persons.',
      kind: 'read',
      input: ClientListQuery.unwrap(),
      output: pageOf(Client.unwrap()),
      run: (q) => api.call('GET', '/v1/clients', { query: q }),
    }),
    tool({
      name: 'get_client',
      title: 'Get a client',
      description: 'Gets one client with its contact persons.',
      kind: 'read',
      input: ClientId,
      output: Client.unwrap(),
      run: ({ id }) => api.call('GET', `/v1/clients/${pathId(id)}`),
    }),
    tool({
      name: 'create_client',
      title: 'Create a client',
      description: 'Creates a client (a company by default, or a person), optionally with contact persons (at most one primary).',
      kind: 'create',
      input: ClientCreate.unwrap(),
      output: Client.unwrap(),
      run: ({ idempotency_key, ...body }: Keyed) => api.call('POST', '/v1/clients', { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'update_client',
      title: 'Update a client',
      description: 'Changes the given fields of a client; the address is merged field by field. Contact persons have their own tools.',
      kind: 'update',
      input: z.object({ ...ClientId.shape, ...ClientUpdate.unwrap().shape }),
      output: Client.unwrap(),
      run: ({ id, idempotency_key, ...body }: { id: string } & Keyed) =>
        api.call('PATCH', `/v1/clients/${pathId(id)}`, { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'delete_client',
      title: 'Delete a client',
      description: 'Deletes a client and its contact persons; its deals are kept without a client. Refused while the client has invoices.',
      kind: 'destroy',
      input: ClientId,
      output: Deleted,
      run: ({ id, idempotency_key }: { id: string } & Keyed) => api.call('DELETE', `/v1/clients/${pathId(id)}`, { idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'add_contact_person',
      title: 'Add a contact person',
      description: 'Adds a contact person to a client. Making it primary demotes the previous primary contact.',
      kind: 'create',
      input: z.object({ client_id: ContactIds.shape.client_id, ...ContactCreate.unwrap().shape }),
      output: Contact.unwrap(),
      run: ({ client_id, idempotency_key, ...body }: { client_id: string } & Keyed) =>
        api.call('POST', `/v1/clients/${pathId(client_id)}/contacts`, { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'update_contact_person',
      title: 'Update a contact person',
      description: 'Changes the given fields of a contact person.',
      kind: 'update',
      input: z.object({ ...ContactIds.shape, ...ContactUpdate.unwrap().shape }),
      output: Contact.unwrap(),
      run: ({ client_id, contact_id, idempotency_key, ...body }: z.output<typeof ContactIds> & Keyed) =>
        api.call('PATCH', `/v1/clients/${pathId(client_id)}/contacts/${pathId(contact_id)}`, { body, idempotencyKey: idempotency_key }),
    }),
    tool({
      name: 'remove_contact_person',
      title: 'Remove a contact person',
      description: 'Deletes a contact person from a client.',
      kind: 'destroy',
      input: ContactIds,
      output: Deleted,
      run: ({ client_id, contact_id, idempotency_key }: z.output<typeof ContactIds> & Keyed) =>
        api.call('DELETE', `/v1/clients/${pathId(client_id)}/contacts/${pathId(contact_id)}`, { idempotencyKey: idempotency_key }),
    }),
  ];
}
