/**
 * The error vocabulary of the whole product (docs/reference/errors.md). Every layer throws ApiError with a
 * stable code; each edge (HTTP problem+json, CLI exit code, MCP tool error) maps codes once.
 */
export const ERRORS = {
  malformed_json: { status: 400, title: 'Malformed JSON' },
  invalid_request: { status: 400, title: 'Invalid request' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  unauthenticated: { status: 401, title: 'Unauthenticated' },
  plan_limit: { status: 402, title: 'Plan limit' },
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  forbidden_origin: { status: 403, title: 'Forbidden origin' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  invalid_transition: { status: 409, title: 'Invalid transition' },
  idempotency_key_in_use: { status: 409, title: 'Idempotency key in use' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  misdirected_request: { status: 421, title: 'Misdirected request' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  validation_failed: { status: 422, title: 'Validation failed' },
  idempotency_key_reused: { status: 422, title: 'Idempotency key reused' },
  rate_limited: { status: 429, title: 'Rate limited' },
  quota_exceeded: { status: 429, title: 'Quota exceeded' },
  internal_error: { status: 500, title: 'Internal error' },
  assistant_provider_unavailable: { status: 502, title: 'Model provider unavailable' },
  assistant_provider_rate_limited: { status: 502, title: 'Model provider rate limited' },
  assistant_not_configured: { status: 503, title: 'Assistant not configured' },
  unavailable: { status: 503, title: 'Unavailable' },
  assistant_provider_timeout: { status: 504, title: 'Model provider timed out' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** One problem with one field, as listed in a validation error's `errors` array. */
export interface FieldError {
  path: string;
  code: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, detail: string, options: { errors?: FieldError[]; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

export const notFound = (what: string, id: string) => new ApiError('not_found', `No ${what} with id '${id}'.`);

/** 403 naming the scope the caller lacks, in the detail and in WWW-Authenticate (RFC 6750 §3.1). */
export const insufficientScope = (scope: string, detail: string) =>
  new ApiError('insufficient_scope', detail, { headers: { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"` } });

export const fieldError = (path: string, code: string, message: string) => new ApiError('validation_failed', message, { errors: [{ path, code, message }] });

/** The RFC 9457 problem+json body of an error: what every HTTP edge (the app, the early server) sends. */
export function problemBody(code: ErrorCode, detail: string, requestId: string, errors?: FieldError[]) {
  const { status, title } = ERRORS[code];
  return { type: `/errors/${code}`, title, status, detail, code, request_id: requestId, ...(errors ? { errors } : {}) };
}
