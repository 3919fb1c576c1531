import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from '../errors.js';

/**
 * The JSON body parser. Two differences from Fastify's own: an empty body counts as no body (many
 * HTTP libraries send Content-Type: application/json on every request, also on POST /win), and
 * the errors speak our codes, with a detail that says what is wrong.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const forbidden = /prototype/i.test((error as Error).message);
      done(
        new ApiError(
          'malformed_json',
          forbidden ? 'The body uses a forbidden key (__proto__ or constructor.prototype).' : `The body is not valid JSON: ${(error as Error).message}.`,
        ),
      );
    }
  });
}
