/**
 * One base class, `CrmError`, and one class per family (docs/sdk-surface.md#errors). The class is picked from
 * the status and the problem's `code` (RFC 9457 body: type, title, status, detail, code, request_id,
 * errors), as stripe-node's Error.ts does.
 */
export interface ValidationIssue {
  path: string;
  code: string;
  message: string;
}

export class CrmError extends Error {
  override name = 'CrmError';
  /** HTTP status; undefined for a ConnectionError (no response). */
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly errors: ValidationIssue[];
  /** The response body as received (the problem object, or text). */
  readonly body: unknown;
  readonly headers: Headers | undefined;

  constructor(
    message: string,
    init: { status?: number; code?: string; requestId?: string; errors?: ValidationIssue[]; body?: unknown; headers?: Headers; cause?: unknown } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
    this.body = init.body;
    this.headers = init.headers;
  }
}

export class AuthenticationError extends CrmError {
  override name = 'AuthenticationError';
}
export class PermissionError extends CrmError {
  override name = 'PermissionError';
}
export class NotFoundError extends CrmError {
  override name = 'NotFoundError';
}
export class ConflictError extends CrmError {
  override name = 'ConflictError';
}
export class IdempotencyError extends CrmError {
  override name = 'IdempotencyError';
}
export class ValidationError extends CrmError {
  override name = 'ValidationError';
}
export class PlanLimitError extends CrmError {
  override name = 'PlanLimitError';
}
export class ApiError extends CrmError {
  override name = 'ApiError';
}
export class ConnectionError extends CrmError {
  override name = 'ConnectionError';
}
export class SignatureVerificationError extends CrmError {
  override name = 'SignatureVerificationError';
}
export class RateLimitError extends CrmError {
  override name = 'RateLimitError';
  /** Seconds the server asked to wait (Retry-After), if it said. */
  readonly retryAfter: number | undefined;
  constructor(message: string, init: ConstructorParameters<typeof CrmError>[1] & { retryAfter?: number }) {
    super(message, init);
    this.retryAfter = init.retryAfter;
  }
}

/** The error for a response that is not 2xx. */
export function errorFromResponse(status: number, headers: Headers, body: unknown): CrmError {
  const problem = (typeof body === 'object' && body !== null ? body : {}) as {
    detail?: string;
    title?: string;
    code?: string;
    request_id?: string;
    errors?: ValidationIssue[];
  };
  const init = {
    status,
    ...(problem.code !== undefined ? { code: problem.code } : {}),
    requestId: problem.request_id ?? headers.get('x-request-id') ?? undefined,
    errors: problem.errors ?? [],
    body,
    headers,
  } as const;
  const message = problem.detail ?? problem.title ?? (typeof body === 'string' && body ? body : `HTTP ${status}`);
  if (problem.code?.startsWith('idempotency_key_')) return new IdempotencyError(message, init);
  if (status === 429) {
    const retryAfter = Number(headers.get('retry-after'));
    return new RateLimitError(message, { ...init, ...(Number.isFinite(retryAfter) && headers.has('retry-after') ? { retryAfter } : {}) });
  }
  switch (status) {
    case 400:
    case 422:
      return new ValidationError(message, init);
    case 401:
      return new AuthenticationError(message, init);
    case 402:
      return new PlanLimitError(message, init);
    case 403:
      return new PermissionError(message, init);
    case 404:
      return new NotFoundError(message, init);
    case 409:
      return new ConflictError(message, init);
    default:
      return new ApiError(message, init);
  }
}
