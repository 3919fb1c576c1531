import type { FastifyInstance } from 'fastify';
import type { UsageMeter } from '../../services/usage.js';
import { requestSource } from '../request-source.js';
import { surfaceOf } from '../route-surface.js';

/** Counts every authenticated /v1 response for GET /v1/usage, by route pattern, not raw URL. */
export function registerUsageMetering(app: FastifyInstance, currentMeter: () => UsageMeter): void {
  app.addHook('onResponse', async (request, reply) => {
    if (!request.principal || surfaceOf(request) !== 'api') return;
    const route = request.routeOptions.url?.replace(/:([a-z_]+)/g, '{$1}') ?? '(unknown route)';
    currentMeter().record(request.principal.subject, `${request.method} ${route}`, reply.statusCode, requestSource(request));
  });
}
