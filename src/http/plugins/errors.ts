import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import type { ZodError } from 'zod';
import { newId } from '../../domain/ids.js';
import { hasDotSegment, routedPath } from '../route-surface.js';
import { ApiError, problemBody, type ErrorCode, type FieldError } from '../../errors.js';

/**
 * The one place where failures become HTTP responses: RFC 9457 problem+json with the stable codes
 * of docs/reference/errors.md. Anything that is not an ApiError or a known Fastify error is a bug and becomes a
 * 500 with no detail: no stack, no SQL, nothing from the inside reaches a client.
 */
function sendProblem(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply
    .code(error.status)
    .type('application/problem+json; charset=utf-8')
    .send(problemBody(error.code, error.message, String(reply.request.id), error.errors));
}

/** zod issues as the `errors` list: a dotted path, a machine code and a sentence. */
function fieldErrors(error: ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: path ? `${path}.${key}` : key,
        code: 'unknown_field',
        message: `Unknown field '${key}'.`,
      }));
    }
    return [{ path, code: issue.code, message: issue.message }];
  });
}

/** Validation of the body is 422 (the JSON was fine, its content not); of the query or path, 400. */
export function validationError(error: ZodError, httpPart: string | undefined): ApiError {
  const errors = fieldErrors(error);
  if (httpPart === 'body') {
    return new ApiError('validation_failed', `The request body is invalid: ${errors.map((e) => `${e.path || '(body)'}: ${e.message}`).join('; ')}`, { errors });
  }
  return new ApiError('invalid_request', `Invalid ${httpPart ?? 'request'} parameters: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`, { errors });
}

const FASTIFY_ERRORS: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: ['payload_too_large', 'The request body is larger than 10 MB.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['unsupported_media_type', 'Send the body as application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['invalid_request', 'The Content-Length header does not match the body.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['malformed_json', 'The body is empty; send a JSON object.'],
  FST_ERR_CTP_INVALID_JSON_BODY: ['malformed_json', 'The body is not valid JSON.'],
  FST_ERR_BAD_URL: ['invalid_request', 'The URL is not valid: it has a broken percent-encoding.'],
  FST_ERR_MAX_PARAM_LENGTH: ['invalid_request', 'A path parameter is too long.'],
};

/** 413 naming the limit of the route that refused: 10 MB with a credential, 64 KB without (app.ts). */
function payloadTooLarge(limitBytes: number): ApiError {
  const limit = limitBytes >= 1024 * 1024 ? `${limitBytes / (1024 * 1024)} MB` : `${limitBytes / 1024} KB`;
  return new ApiError('payload_too_large', `The request body is larger than ${limit}, this route's limit.`);
}

export function toApiError(error: FastifyError | Error): ApiError {
  if (error instanceof ApiError) return error;
  const known = FASTIFY_ERRORS[(error as FastifyError).code ?? ''];
  if (known) return new ApiError(known[0], known[1]);
  const status = (error as FastifyError).statusCode;
  if (error instanceof SyntaxError || (status === 400 && /JSON/i.test(error.message))) {
    return new ApiError('malformed_json', 'The body is not valid JSON.');
  }
  if (status === 413) return new ApiError('payload_too_large', 'The request body is larger than 10 MB.');
  if (status === 415) return new ApiError('unsupported_media_type', 'Send the body as application/json.');
  if (status && status >= 400 && status < 500) return new ApiError('invalid_request', error.message);
  return new ApiError('internal_error', 'Something went wrong on our side. Retry later; if it persists, report the request_id.');
}

/**
 * Fastify's `frameworkErrors` option: failures its router meets before any hook runs (a URL with
 * broken percent-encoding, a path parameter past maxParamLength). Without it Fastify answers
 * them with its own JSON body, no problem+json and no request id.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('x-request-id', request.id);
  return sendProblem(reply, toApiError(error));
}

const DISCARD_MAX_BYTES = 32 * 1024 * 1024;
const DISCARD_MAX_MS = 10_000;

/**
 * A 413 is decided before the body is read. Answered at once, the connection closes with the
 * client's bytes unread, the kernel resets it, and a client still writing (fetch, the sync CLI)
 * sees EPIPE/ECONNRESET instead of the 413. So the rest of the body is read and dropped first,
 * up to 32 MB or 10 s, which lets the client finish sending and read the answer.
 */
function discardRequestBody(raw: FastifyRequest['raw']): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData).off('end', finish).off('error', finish).off('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DISCARD_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, DISCARD_MAX_MS);
    raw.on('data', onData).on('end', finish).on('error', finish).on('close', finish);
    raw.resume();
  });
}

function patternToRegex(url: string): RegExp {
  const body = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

export function registerErrorHandling(
  app: FastifyInstance,
  /** Sees every failure before it is answered; returns a reply when it answered it instead (an idempotent replay). */
  onFailure: (request: FastifyRequest, reply: FastifyReply, error: ApiError, body: ReturnType<typeof problemBody>) => FastifyReply | undefined = () =>
    undefined,
): void {
  // Route patterns, collected as routes are added, to tell 405 (the path exists) from 404; made
  // into regular expressions at the first request that matches no route, not in every start's
  // ~100 onRoute calls (~1 ms of it, docs/benchmarks.md). Routes cannot be added once the app is ready.
  const routes: { url: string; method: string }[] = [];
  let patterns: { regex: RegExp; method: string }[] | undefined;
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ url: route.url, method });
  });

  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const tooLarge = !(error instanceof ApiError) && toApiError(error).code === 'payload_too_large';
    const apiError = tooLarge ? payloadTooLarge(request.routeOptions.bodyLimit) : toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    const answered = onFailure(request, reply, apiError, problemBody(apiError.code, apiError.message, String(request.id), apiError.errors));
    if (answered) return answered;
    if (apiError.code === 'payload_too_large') await discardRequestBody(request.raw);
    return sendProblem(reply, apiError);
  });

  // No route: answered before the body is read, so an unknown path costs no parsing (docs/security.md#bodies).
  const answerUnmatched = (request: FastifyRequest, reply: FastifyReply) => {
    const path = routedPath(request);
    patterns ??= routes.map(({ url, method }) => ({ regex: patternToRegex(url), method }));
    const allowed = [...new Set(patterns.filter((p) => p.regex.test(path)).map((p) => p.method))].filter((m) => m !== 'HEAD');
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(reply, new ApiError('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(', ')}.`));
    }
    return sendProblem(reply, new ApiError('not_found', `No route ${request.method} ${path}. The API reference is at /v1/openapi.json.`));
  };
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return answerUnmatched(request, reply);
    if (hasDotSegment(request))
      return sendProblem(reply, new ApiError('not_found', `No route ${request.method} ${routedPath(request)}: paths with . or .. segments name no route.`));
  });
  app.setNotFoundHandler(answerUnmatched);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them: a URL or headers over 16 KB (431),
 * or bytes that are not HTTP (400). Answered as problem+json like every other error, instead of
 * Fastify's own JSON shape, and the connection closed (the parser cannot go on with it).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify(
    tooLarge
      ? problemBody(
          'headers_too_large',
          'The request line or headers are over 16 KB. Send long values in the body (a bulk call, a POST) instead of the URL.',
          newId('req'),
        )
      : problemBody('invalid_request', 'The request is not valid HTTP.', newId('req')),
  );
  const status = tooLarge ? 431 : 400;
  socket.end(
    `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
