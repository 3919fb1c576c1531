/**
 * Which model the built-in assistant talks to (docs/assistant.md#set-up-a-model-provider): set by
 * `crm sandbox start --assistant-url URL --assistant-model M [--assistant-provider P]` or the
 * CRM_ASSISTANT_* environment variables. The key is read from the environment only, so it shows in
 * no process list, and stays in this process: never sent to a browser, logged, or put in an error.
 */
export interface AssistantConfig {
  provider: 'openai' | 'anthropic';
  /** The API's base URL, e.g. http://127.0.0.1:11434/v1 (Ollama) or https://api.anthropic.com/v1. */
  url: string;
  model: string;
  apiKey?: string;
  /** How long to wait for the model's first words, and then between its words (default 120 s). */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 120_000;

const ASSISTANT_PROVIDERS = ['openai', 'anthropic'] as const;

export interface AssistantFlags {
  assistantUrl?: string;
  assistantModel?: string;
  assistantProvider?: string;
}

/**
 * The configuration from flags, then the environment; undefined when no URL is given (the panel
 * then says how to set one). Throws a message for the user on a half or wrong configuration.
 */
export function assistantConfig(flags: AssistantFlags, env: NodeJS.ProcessEnv = process.env): AssistantConfig | undefined {
  const url = flags.assistantUrl ?? env.CRM_ASSISTANT_URL;
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`The assistant URL "${url}" is not a URL: give the provider's API base, e.g. http://127.0.0.1:11434/v1 for Ollama.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`The assistant URL must be http or https, not ${parsed.protocol}`);
  const provider = flags.assistantProvider ?? env.CRM_ASSISTANT_PROVIDER ?? (parsed.hostname === 'api.anthropic.com' ? 'anthropic' : 'openai');
  if (!(ASSISTANT_PROVIDERS as readonly string[]).includes(provider)) {
    throw new Error(`Unknown assistant provider "${provider}": use openai (OpenAI Chat Completions: OpenAI, Azure, Ollama, vLLM…) or anthropic.`);
  }
  const model = flags.assistantModel ?? env.CRM_ASSISTANT_MODEL;
  if (!model) throw new Error('Say which model the assistant uses: --assistant-model NAME or CRM_ASSISTANT_MODEL (e.g. llama3.1 for Ollama).');
  const apiKey = env.CRM_ASSISTANT_API_KEY;
  const timeoutMs = env.CRM_ASSISTANT_TIMEOUT_MS ? Number(env.CRM_ASSISTANT_TIMEOUT_MS) : DEFAULT_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new Error('CRM_ASSISTANT_TIMEOUT_MS must be a whole number of milliseconds.');
  return { provider: provider as AssistantConfig['provider'], url: url.replace(/\/+$/, ''), model, timeoutMs, ...(apiKey ? { apiKey } : {}) };
}
