import type { FastifyInstance } from 'fastify';
import type { UsageMeter } from '../../services/usage.js';

/** Counts every authenticated /v1 response for GET /v1/usage, by route pattern, not raw URL. */
export function registerUsageMetering(app: FastifyInstance, currentMeter: () => UsageMeter): void {
  app.addHook('onResponse', async (request, reply) => {
    if (!request.principal || !request.url.startsWith('/v1/')) return;
    const route = request.routeOptions.url?.replace(/:([a-z_]+)/g, '{$1}') ?? '(unknown route)';
    currentMeter().record(request.principal.subject, `${request.method} ${route}`, reply.statusCode);
  });
}
