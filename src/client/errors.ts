/**
 * Errors the client raises. An API error carries the problem details the server sent (API.md §5);
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
  constructor(
    readonly baseUrl: string,
    override readonly cause: unknown,
  ) {
    super(`No answer from ${baseUrl}: ${(cause as Error)?.message ?? String(cause)}. Is the server running? (crm sandbox start)`);
    this.name = 'CrmNetworkError';
  }
}
