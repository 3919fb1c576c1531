import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { IdParams } from '../../schemas/common.js';
import { Invoice, InvoiceCreate, InvoiceList, InvoiceListQuery, InvoiceUpdate } from '../../schemas/invoice.js';
import type { Ctx } from '../../services/context.js';
import { createInvoice, getInvoice, listInvoices, payInvoice, sendInvoice, updateInvoice, voidInvoice } from '../../services/invoices.js';
import { respond } from '../plugins/idempotency.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { crudRoutes } from './crud.js';

export function invoiceRoutes(fastify: FastifyInstance, ctx: Ctx): void {
  // Invoices are financial records: no DELETE, they are voided.
  crudRoutes(fastify, ctx, {
    path: '/v1/invoices',
    tag: 'Invoices',
    noun: 'invoice',
    scope: 'invoices',
    schemas: { create: InvoiceCreate, update: InvoiceUpdate, query: InvoiceListQuery, item: Invoice, list: InvoiceList },
    ops: { create: createInvoice, list: listInvoices, get: getInvoice, update: updateInvoice },
  });

  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const actions = [
    ['send', 'Send a draft invoice: sets the payment link and mails it to the recipient', sendInvoice],
    ['pay', 'Pay an open invoice (sandbox simulation of the payment page)', payInvoice],
    ['void', 'Void a draft or open invoice', voidInvoice],
  ] as const;
  for (const [action, summary, run] of actions) {
    app.post(`/v1/invoices/:id/${action}`, {
      config: { scope: 'invoices:write' },
      schema: {
        tags: ['Invoices'],
        security: BEARER,
        summary,
        params: IdParams,
        response: { 200: Invoice, ...errorResponses('not_found', 'invalid_transition') },
      },
      handler: async (req, reply) => respond(ctx, req, reply, 200, () => run(ctx, req.params.id)),
    });
  }
}
