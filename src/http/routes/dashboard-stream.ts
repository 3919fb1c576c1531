import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Account } from '../../accounts/account.js';
import { hasScope } from '../../domain/scopes.js';
import { ApiError } from '../../errors.js';
import { EventPosition } from '../../schemas/event.js';
import type { Ctx } from '../../services/context.js';
import { sessionPrincipal } from '../../services/dashboard-sessions.js';
import { latestEventId } from '../../services/event-log.js';
import { usageReport } from '../../accounts/usage-report.js';
import { RequestSourceSchema } from '../../schemas/request-source.js';
import { dashboardHeader, sessionCookie } from '../dashboard/cookie.js';
import { followEvents, sseStreams } from '../sse.js';
import { enterAccountOfSession } from '../../accounts/credentials.js';
import type { AccountRegistry } from '../../accounts/registry.js';

const Headers = z.looseObject({ 'last-event-id': EventPosition.optional() });
/** usage_source: the usage report of that source's requests only (the Usage page's "Hide dashboard requests"). */
const Query = z.strictObject({ usage_source: RequestSourceSchema().optional() });

/**
 * GET /dashboard/stream: everything live the dashboard shows, on one connection (browsers allow
 * six per origin over HTTP/1.1, and a poll per page would count in the usage it charts):
 *   `event: scopes`  first, what the session may see: {"events": bool, "usage": bool};
 *   `event: event`   each new event (`id:` its id, `data:` the event JSON), with events:read;
 *   `event: usage`   the usage report once a second, with usage:read (?usage_source=api: of the
 *                    requests the dashboard did not make, as GET /v1/usage?source=api).
 * It resumes after Last-Event-ID like /v1/events/stream, and is not a /v1 request: it is in
 * neither the request log nor the usage counts.
 */
export function dashboardStreamRoutes(fastify: FastifyInstance, ctx: Ctx, accounts: AccountRegistry, current: () => Account): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const streams = sseStreams(fastify);

  app.get('/dashboard/stream', { schema: { hide: true, headers: Headers, querystring: Query } }, async (req, reply) => {
    const id = sessionCookie(ctx, req);
    if (id) enterAccountOfSession(accounts, id);
    // The cookie counts only with the dashboard's header, as on /v1: a cross-site EventSource cannot send it.
    const principal = id && dashboardHeader(req) ? sessionPrincipal(ctx, id) : undefined;
    if (!id || !principal) throw new ApiError('unauthenticated', 'Not signed in to the dashboard.');
    const scopes = { events: hasScope(principal.scopes, 'events:read'), usage: hasScope(principal.scopes, 'usage:read') };

    const account = current(); // the stream outlives this request's scope: hold on to its account
    req.credential = { kind: 'session', id }; // the stream ends with the session (sign-out, expiry, its key revoked)
    req.principal = principal; // the session streams as its key: they share the key's streams (stream-slots.ts)
    const stream = streams.open(req, reply, account.ctx);
    stream.write(`event: scopes\ndata: ${JSON.stringify(scopes)}\n\n`);
    if (scopes.events) {
      const resumeAfter = req.headers['last-event-id'];
      const position = resumeAfter ?? latestEventId(ctx.db);
      if (resumeAfter === undefined) stream.write(`id: ${position}\n\n`);
      followEvents(account.ctx, stream, position, { name: 'event' });
    }
    if (scopes.usage) {
      const message = () => `event: usage\ndata: ${JSON.stringify(usageReport(account, principal, undefined, req.query.usage_source))}\n\n`;
      stream.write(message());
      stream.every(1000, message);
    }
  });
}
