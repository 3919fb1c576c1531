// What the panel says when a turn could not be had: what happened, in a line, and what to do next.
// The API's own detail (which names the provider's address) is shown under it.
import { ApiProblem } from '../api.js';

export interface TurnProblem {
  message: string;
  detail: string;
}

export function turnProblem(error: unknown): TurnProblem {
  if (!(error instanceof ApiProblem)) {
    return {
      message: 'The connection to the sandbox was lost before the answer was complete.',
      detail: 'Check that the sandbox is still running, then send your message again.',
    };
  }
  const detail = error.message;
  switch (error.code) {
    case 'assistant_provider_unavailable':
      return { message: "The model provider didn't answer. Check that it is running and reachable, then send your message again.", detail };
    case 'assistant_provider_rate_limited':
      return { message: 'The model provider is rate limiting this sandbox. Wait a minute, then send your message again.', detail };
    case 'assistant_provider_timeout':
      return { message: 'The model provider took too long to answer. Try again, or use a smaller or faster model.', detail };
    case 'assistant_not_configured':
      return { message: 'The assistant has no model provider. Set one up (below), then restart the sandbox.', detail };
    case 'conflict':
      return { message: 'This change was already answered, in another tab or window. The conversation is shown as it now is.', detail };
    case 'not_found':
      return { message: 'This conversation is no longer there (conversations are kept 30 days). Start a new one.', detail };
    case 'insufficient_scope':
      return { message: "This session's API key may not use the assistant: it needs the assistant:use scope.", detail };
    case 'rate_limited':
    case 'quota_exceeded':
      return { message: "This key's rate limit was reached. Wait a moment, then send your message again.", detail };
    default:
      return { message: 'The assistant could not answer. Send your message again; if it keeps failing, the sandbox log says why.', detail };
  }
}
