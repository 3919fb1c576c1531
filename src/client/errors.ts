/**
 * Errors the client raises. An API error carries the problem details the server sent (docs/reference/errors.md);
 * a network error means no HTTP answer came at all. Each CLI command maps them to exit codes once.
 */
export class CrmApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly requestId: string | undefined,
    readonly errors: { path: string; code: string; message: string }[] | undefined,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    super(`${detail} (${status} ${code}${requestId ? `, request ${requestId}` : ''})`);
    this.name = 'CrmApiError';
  }
}

export class CrmNetworkError extends Error {
  /** Nothing listens at the address (ECONNREFUSED): on this machine, the server is not running. */
  readonly refused: boolean;

  constructor(
    readonly baseUrl: string,
    override readonly cause: unknown,
  ) {
    const refused = isConnectionRefused(cause);
    super(
      refused
        ? `No answer from ${baseUrl}: nothing listens there (connection refused). Is the server running? Start the sandbox with \`crm sandbox start\`, or check --base-url.`
        : `No answer from ${baseUrl}: ${(cause as Error)?.message ?? String(cause)}. Is the server running? (crm sandbox start)`,
    );
    this.name = 'CrmNetworkError';
    this.refused = refused;
  }
}

/** undici puts the socket's error code on the error, or on its cause. */
export function isConnectionRefused(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.code === 'ECONNREFUSED') return true;
  }
  return false;
}
