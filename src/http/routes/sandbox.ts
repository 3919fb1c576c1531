import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MailboxMessage } from '../../schemas/invoice.js';
import type { Ctx } from '../../services/context.js';
import { getInvoiceByToken, payInvoice } from '../../services/invoices.js';
import { listMailbox } from '../../services/mailbox.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { paymentPage } from '../pay-page.js';

export interface SandboxControl {
  /** Wipes the data (API keys stay valid) and seeds again as at start. */
  reset(): { seeded: boolean };
}

/** Health, sandbox control and the payment page: the parts of the sandbox outside /v1. */
export function sandboxRoutes(fastify: FastifyInstance, ctx: Ctx, control: SandboxControl): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Sandbox'], security: BEARER };

  app.get('/healthz', {
    schema: { tags: ['Sandbox'], security: [], summary: 'Liveness and readiness', response: { 200: z.object({ status: z.literal('ok'), version: z.string() }) } },
    handler: async () => {
      ctx.db.prepare('SELECT 1').get();
      return { status: 'ok' as const, version: 'v1' };
    },
  });

  app.post('/_sandbox/reset', {
    config: { scope: '*' },
    schema: { ...base, summary: 'Reset the sandbox: delete all data, seed again; API keys stay valid', response: { 200: z.object({ status: z.literal('reset'), seeded: z.boolean() }), ...errorResponses() } },
    handler: async () => ({ status: 'reset' as const, ...control.reset() }),
  });

  app.get('/_sandbox/mailbox', {
    config: { scope: 'invoices:read' },
    schema: {
      ...base,
      summary: 'Messages the sandbox "sent" (newest first)',
      querystring: z.strictObject({ to: z.string().max(254).optional() }),
      response: { 200: z.object({ data: z.array(MailboxMessage) }), ...errorResponses('invalid_request') },
    },
    handler: async (req) => ({ data: listMailbox(ctx, req.query.to) }),
  });

  // The payment page is for people: HTML, and a form post (the only non-JSON body we accept).
  fastify.register(async (page) => {
    page.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    page.get('/pay/:token', { schema: { hide: true } }, async (req, reply) => {
      const invoice = getInvoiceByToken(ctx, (req.params as { token: string }).token);
      return reply.type('text/html; charset=utf-8').send(paymentPage(invoice));
    });
    page.post('/pay/:token', { schema: { hide: true } }, async (req, reply) => {
      const token = (req.params as { token: string }).token;
      const invoice = getInvoiceByToken(ctx, token);
      const paid = invoice.status === 'open' ? payInvoice(ctx, invoice.id) : invoice;
      return reply.type('text/html; charset=utf-8').send(paymentPage(paid));
    });
  });
}
