import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, type LanguageModel } from 'ai';
import { ApiError } from '../errors.js';
import { type AssistantConfig, DEFAULT_TIMEOUT_MS } from './config.js';

/** The model behind the assistant, through the Vercel AI SDK's providers (docs/assistant.md#set-up-a-model-provider). */
export function languageModel(config: AssistantConfig): LanguageModel {
  if (config.provider === 'anthropic') {
    return createAnthropic({ baseURL: config.url, apiKey: config.apiKey ?? 'none' })(config.model);
  }
  // Local servers (Ollama, llama.cpp, LM Studio) take no key; OpenAI and Azure need one.
  return createOpenAICompatible({ name: 'assistant', baseURL: config.url, ...(config.apiKey ? { apiKey: config.apiKey } : {}) }).chatModel(config.model);
}

/** The provider's origin, for the status and messages: never its path's secrets or the key. */
const providerOrigin = (config: AssistantConfig): string => new URL(config.url).origin;

/**
 * A provider's failure as the API's problem: 504 when it did not answer in time, 502 when it was
 * unreachable, refused, rate limited or sent what cannot be read. Never a 500, and never the key:
 * a provider may echo it in an error (OpenAI shows its start), so it is cut from every detail.
 */
export function providerProblem(error: unknown, config: AssistantConfig): ApiError {
  const where = providerOrigin(config);
  const redact = (text: string) => (config.apiKey ? text.split(config.apiKey).join('[redacted]') : text);
  const cause = unwrap(error);
  if (isTimeout(cause)) {
    return new ApiError(
      'assistant_provider_timeout',
      `The model at ${where} did not answer within ${(config.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000} s. Try again, or a smaller model.`,
    );
  }
  if (APICallError.isInstance(cause) && cause.statusCode === 429) {
    const retry = cause.responseHeaders?.['retry-after'];
    return new ApiError(
      'assistant_provider_rate_limited',
      redact(
        `The model provider at ${where} is rate limiting requests (HTTP 429)${retry ? `; it asks to retry after ${retry} s` : ''}. Wait a moment and ask again.`,
      ),
    );
  }
  if (APICallError.isInstance(cause) && cause.statusCode) {
    return new ApiError(
      'assistant_provider_unavailable',
      redact(`The model provider at ${where} answered HTTP ${cause.statusCode}: ${firstLine(cause.message)}`),
    );
  }
  if (APICallError.isInstance(cause) || isNetworkError(cause)) {
    return new ApiError(
      'assistant_provider_unavailable',
      `Could not reach the model provider at ${where}. Is it running? (${redact(firstLine(describe(cause)))})`,
    );
  }
  return new ApiError(
    'assistant_provider_unavailable',
    redact(`The model provider at ${where} sent an answer that could not be read: ${firstLine(describe(cause))}`),
  );
}

function unwrap(error: unknown): unknown {
  // RetryError and friends keep the last attempt's error.
  const last = (error as { lastError?: unknown })?.lastError;
  return last ?? error;
}

function isTimeout(error: unknown): boolean {
  const e = error as { name?: string; cause?: { name?: string } } | undefined;
  return e?.name === 'TimeoutError' || e?.cause?.name === 'TimeoutError' || e?.name === 'AbortError';
}

function isNetworkError(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } })?.cause?.code ?? (error as { code?: string })?.code;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|UND_ERR_SOCKET)$/.test(code);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error.cause as Error | undefined)?.message;
    return cause && !error.message.includes(cause) ? `${error.message}: ${cause}` : error.message;
  }
  return String(error);
}

const firstLine = (text: string) => text.split('\n')[0]!.slice(0, 300);
