import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Client,
  ClientCreate,
  ClientList,
  ClientListQuery,
  ClientUpdate,
  Contact,
  ContactCreate,
  ContactList,
  ContactListQuery,
  ContactUpdate,
} from '../../schemas/client.js';
import { createClient, deleteClient, getClient, listClients, updateClient } from '../../services/clients.js';
import { createContact, deleteContact, getContact, listContacts, updateContact } from '../../services/contacts.js';
import type { Ctx } from '../../services/context.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, Deleted, errorResponses } from '../schema-docs.js';
import { crudRoutes } from './crud.js';

const ClientParams = z.object({ id: z.string().max(100) });
const ContactParams = z.object({ id: z.string().max(100), contact_id: z.string().max(100) });

export function clientRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  crudRoutes(fastify, ctx, {
    path: '/v1/clients',
    tag: 'Clients',
    noun: 'client',
    scope: 'clients',
    schemas: { create: ClientCreate, update: ClientUpdate, query: ClientListQuery, item: Client, list: ClientList },
    customFields: true,
    ops: { create: createClient, list: listClients, get: getClient, update: updateClient, remove: deleteClient },
  });

  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Contact persons'], security: BEARER };
  const read = { scope: 'clients:read' };
  const write = { scope: 'clients:write' };
  const contacts = '/v1/clients/:id/contacts';

  app.post(contacts, {
    config: write,
    schema: {
      ...base,
      summary: 'Add a contact person',
      params: ClientParams,
      body: ContactCreate,
      response: { 201: Contact, ...errorResponses('not_found', 'validation_failed') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 201, () => createContact(ctx, req.params.id, req.body)),
  });
  app.get(contacts, {
    config: read,
    schema: {
      ...base,
      summary: "List a client's contact persons",
      params: ClientParams,
      querystring: ContactListQuery,
      response: { 200: ContactList, ...errorResponses('not_found', 'invalid_cursor') },
    },
    handler: async (req) => listContacts(ctx, req.params.id, req.query),
  });
  app.get(`${contacts}/:contact_id`, {
    config: read,
    schema: { ...base, summary: 'Get a contact person', params: ContactParams, response: { 200: Contact, ...errorResponses('not_found') } },
    handler: async (req) => getContact(ctx, req.params.id, req.params.contact_id),
  });
  app.patch(`${contacts}/:contact_id`, {
    config: write,
    schema: {
      ...base,
      summary: 'Update a contact person',
      params: ContactParams,
      body: ContactUpdate,
      response: { 200: Contact, ...errorResponses('not_found', 'validation_failed') },
    },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => updateContact(ctx, req.params.id, req.params.contact_id, req.body)),
  });
  app.delete(`${contacts}/:contact_id`, {
    config: write,
    schema: { ...base, summary: 'Delete a contact person', params: ContactParams, response: { 200: Deleted, ...errorResponses('not_found') } },
    handler: async (req, reply) => respond(ctx, req, reply, 200, () => deleteContact(ctx, req.params.id, req.params.contact_id)),
  });
}
