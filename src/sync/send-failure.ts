import { CrmApiError, CrmNetworkError } from '../client/errors.js';

/**
 * What a failed bulk request means for the import. The client has already retried what can be
 * retried (network errors, 5xx, 429, a key still in use), so those now mean the server is not
 * taking requests: the import stops and leaves the rest for --resume. So do 401/403/404, which no
 * later batch would escape. Any other refusal (413, a 422 for the request) is about this batch:
 * its rows fail with that reason and the import goes on.
 */
export type SendFailure = { stops: true; message: string } | { stops: false; code: string; message: string };

export function classifyFailure(error: unknown): SendFailure {
  if (error instanceof CrmNetworkError) return { stops: true, message: error.message };
  if (error instanceof CrmApiError) {
    if (error.status >= 500 || error.status === 429 || error.status === 409) {
      return { stops: true, message: `The server kept failing after retries: ${error.message}` };
    }
    if (error.status === 401 || error.status === 403) {
      return {
        stops: true,
        message: `${error.message}. ${error.status === 401 ? 'Check --api-key / CRM_API_KEY.' : `The key needs the write scope for this resource.`}`,
      };
    }
    if (error.status === 404) return { stops: true, message: `${error.message}. Does this server support the bulk endpoints (POST /v1/<resource>/bulk)?` };
    return { stops: false, code: error.code, message: error.detail };
  }
  return { stops: true, message: `Unexpected failure: ${(error as Error)?.message ?? String(error)}` };
}
