import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from '../errors.js';
import { redactText } from '../services/redact.js';

/**
 * How deep a body may nest arrays and objects. The API's deepest body (an invoice's lines, a
 * custom field's value) is 4 levels; parsing and then stringifying a body 100,000 levels deep
 * cost seconds of the one thread and overflowed the stack (docs/security.md#bodies), so deeper bodies are
 * refused before they are parsed.
 */
const MAX_BODY_DEPTH = 64;

/** What the request log keeps of a body the parser refused: its start, secrets redacted. */
const REFUSED_PREVIEW_CHARS = 1024;

declare module 'fastify' {
  interface FastifyRequest {
    /** The start of a body that was not JSON (or nested too deep), for the request log. */
    refusedBody?: string;
    /** A parsed body's text as sent, until the request log has taken its copy (then undefined). */
    bodyText?: string;
  }
}

/**
 * The JSON body parser. Two differences from Fastify's own: an empty body counts as no body (many
 * HTTP libraries send Content-Type: application/json on every request, also on POST /win), and
 * the errors speak our codes, with a detail that says what is wrong.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    const refuse = (error: ApiError) => {
      request.refusedBody = redactText(text.slice(0, REFUSED_PREVIEW_CHARS));
      done(error);
    };
    if (nestsDeeperThan(text, MAX_BODY_DEPTH)) {
      return refuse(
        new ApiError(
          'invalid_request',
          `The body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels; no request of this API needs more than a few.`,
        ),
      );
    }
    try {
      const parsed: unknown = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
      request.bodyText = text;
      done(null, parsed);
    } catch (error) {
      const forbidden = /prototype/i.test((error as Error).message);
      refuse(
        new ApiError(
          'malformed_json',
          forbidden ? 'The body uses a forbidden key (__proto__ or constructor.prototype).' : `The body is not valid JSON: ${(error as Error).message}.`,
        ),
      );
    }
  });
}

/**
 * Whether JSON text opens more than `limit` arrays or objects inside each other, brackets inside
 * strings not counted. One pass that jumps over strings with indexOf (most of a body is strings:
 * a 500-lead bulk batch scans in ~0.1 ms, half of its JSON.parse) and stops at the first level
 * too deep.
 */
function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i);
      if (i === -1) return false; // an unterminated string: JSON.parse says what is wrong
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** The index of the quote that closes the string opened at `open` (one not escaped), or -1. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c /* \ */) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
  return -1;
}

/** For the request log: the body as parsed, or the start of the text the parser refused. */
export const bodyForLog = (request: FastifyRequest): unknown => request.body ?? request.refusedBody;
