import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MailboxMessage } from '../../schemas/invoice.js';
import type { Ctx } from '../../services/context.js';
import { getInvoiceByToken, payInvoice } from '../../services/invoices.js';
import { listMailbox } from '../../services/mailbox.js';
import { MAX_PAUSE_SECONDS, pauseDeliveries, pausedUntil, resumeDeliveries } from '../../services/webhook-pause.js';
import { createLoginToken } from '../../services/dashboard-sessions.js';
import { ApiError } from '../../errors.js';
import { VERSION } from '../../version.js';
import { BEARER, errorResponses } from '../schema-docs.js';
import { PAY_PAGE_HEADERS, paymentPage } from '../pay-page.js';
import { enterAccountOfPaymentToken } from '../../accounts/credentials.js';
import type { AccountRegistry } from '../../accounts/registry.js';

export interface SandboxControl {
  /** Wipes the data (API keys stay valid) and seeds again as at start. */
  reset(): { seeded: boolean };
}

/** The link that signs a browser in: the token sits in the fragment, so it never reaches a server log or a Referer. */
export const dashboardLoginUrl = (baseUrl: string, token: string): string => `${baseUrl}/dashboard/#login=${token}`;

/** Health, sandbox control and the payment page: the parts of the sandbox outside /v1. */
export function sandboxRoutes(fastify: FastifyInstance, ctx: Ctx, control: SandboxControl, accounts: AccountRegistry): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const base = { tags: ['Sandbox'], security: BEARER };

  app.get('/healthz', {
    schema: {
      tags: ['Sandbox'],
      security: [],
      summary: 'Liveness and readiness',
      response: { 200: z.object({ status: z.literal('ok'), version: z.string() }) },
    },
    handler: async () => {
      ctx.db.prepare('SELECT 1').get();
      return { status: 'ok' as const, version: VERSION };
    },
  });

  app.post('/_sandbox/reset', {
    config: { scope: '*' },
    schema: {
      ...base,
      summary: 'Reset the sandbox: delete all data, seed again; API keys stay valid',
      response: { 200: z.object({ status: z.literal('reset'), seeded: z.boolean() }), ...errorResponses() },
    },
    handler: async () => ({ status: 'reset' as const, ...control.reset() }),
  });

  app.post('/_sandbox/dashboard_logins', {
    config: { scope: '*' },
    schema: {
      ...base,
      summary: 'A single-use dashboard sign-in link, valid 15 minutes (what `crm dashboard` prints)',
      response: {
        201: z.object({ url: z.string().max(400), token: z.string().max(100), expires_at: z.string().max(30) }).meta({ id: 'DashboardLogin' }),
        ...errorResponses(),
      },
    },
    handler: async (req, reply) => {
      const subject = req.principal?.subject ?? '';
      // The session will carry this key's rights; an OAuth token (even with `*`) is not a key.
      if (!subject.startsWith('key_')) throw new ApiError('insufficient_scope', 'Dashboard sign-in links are made with an API key, not an OAuth token.');
      const login = createLoginToken(ctx, subject);
      reply.code(201).header('cache-control', 'no-store');
      return { url: dashboardLoginUrl(ctx.baseUrl(), login.token), token: login.token, expires_at: login.expires_at };
    },
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

  // Webhook deliveries paused for a bulk fill (crm sync copy); a lease, so a killed copy cannot leave them off.
  const PauseState = z
    .object({ paused_until: z.string().nullable().describe('While set, events are recorded but not delivered (never later either)') })
    .meta({ id: 'WebhookPause' });
  app.get('/_sandbox/webhook_pause', {
    config: { scope: '*' },
    schema: { ...base, summary: 'Whether webhook deliveries are paused, and until when', response: { 200: PauseState, ...errorResponses() } },
    handler: async () => ({ paused_until: pausedUntil(ctx) }),
  });
  app.post('/_sandbox/webhook_pause', {
    config: { scope: '*' },
    schema: {
      ...base,
      summary: 'Pause webhook deliveries for some seconds: events of that time are recorded, never delivered',
      body: z.strictObject({ seconds: z.number().int().min(1).max(MAX_PAUSE_SECONDS).describe(`How long, 1..${MAX_PAUSE_SECONDS}; call again to extend`) }),
      response: { 200: PauseState, ...errorResponses('validation_failed') },
    },
    handler: async (req) => ({ paused_until: pauseDeliveries(ctx, req.body.seconds) }),
  });
  app.delete('/_sandbox/webhook_pause', {
    config: { scope: '*' },
    schema: { ...base, summary: 'Resume webhook deliveries (events of the pause are not replayed)', response: { 200: PauseState, ...errorResponses() } },
    handler: async () => {
      resumeDeliveries(ctx);
      return { paused_until: null };
    },
  });

  // The payment page is for people: HTML, and a form post (the only non-JSON body we accept).
  fastify.register(async (page) => {
    page.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    // First, so that every answer here carries them, refusals included.
    page.addHook('onRequest', async (_req, reply) => void reply.headers(PAY_PAGE_HEADERS));
    // The invoice's token names its account.
    page.addHook('preHandler', async (req) => void enterAccountOfPaymentToken(accounts, (req.params as { token: string }).token));
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
