import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { DOCS_FILES, DOCS_HTML, docsAsset, type DocsFile } from '../dashboard/assets.js';

const File = z.object({ file: z.string() });

/**
 * `/docs`: the interactive API reference (Swagger UI over GET /v1/openapi.json), from memory, with
 * the dashboard's headers (registerDashboardGuards). @fastify/swagger-ui would read its files from
 * disk, which the single binary lacks.
 */
export function apiReferenceRoutes(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get('/docs', { schema: { hide: true } }, async (_req, reply) => reply.type('text/html; charset=utf-8').send(DOCS_HTML));
  app.get('/docs/assets/:file', { schema: { hide: true, params: File } }, async (req, reply) => {
    const file = req.params.file as DocsFile;
    const text = Object.hasOwn(DOCS_FILES, file) ? docsAsset(file) : undefined;
    if (text === undefined) {
      const why = Object.hasOwn(DOCS_FILES, file) ? ' The API reference is not built: run npm run build.' : '';
      throw new ApiError('not_found', `No file '${file}' in the API reference.${why}`);
    }
    return reply.header('cache-control', 'no-cache').type(`${DOCS_FILES[file]}; charset=utf-8`).send(text);
  });
}
