// The panel of a sandbox started without a model provider (GET /v1/assistant → configured: false):
// how to give it one, with the flags, the environment variables and a local Ollama as the example.
import { CopyButton } from '../components/table.js';

const OLLAMA = 'crm sandbox start --assistant-url http://127.0.0.1:11434/v1 --assistant-model llama3.1';
/** The same command a flag a line, so no line breaks inside a flag or the URL in a narrow panel. */
const OLLAMA_LINES = 'crm sandbox start \\\n  --assistant-url http://127.0.0.1:11434/v1 \\\n  --assistant-model llama3.1';
const DOCS = 'https://github.com/crm-sandbox/crm-sandbox/blob/main/docs/assistant.md';

const SETTINGS: [flag: string, env: string, what: string][] = [
  ['--assistant-url', 'CRM_ASSISTANT_URL', "The provider's API base URL"],
  ['--assistant-model', 'CRM_ASSISTANT_MODEL', 'The model to use'],
  ['--assistant-provider', 'CRM_ASSISTANT_PROVIDER', 'openai (the default: OpenAI, Ollama, vLLM, LM Studio…) or anthropic'],
  ['', 'CRM_ASSISTANT_API_KEY', "The provider's key, if it needs one (environment only: never on the command line)"],
  ['', 'CRM_ASSISTANT_TIMEOUT_MS', 'How long to wait for the model (default 120000)'],
];

export function Setup() {
  return (
    <div class="assistant-setup">
      <h3>Set up a model provider</h3>
      <p>
        The assistant answers with a language model of your choice: any server that speaks OpenAI's Chat Completions API (OpenAI, Ollama, vLLM, LM Studio…) or
        Anthropic's Messages API. This sandbox was started without one.
      </p>
      <p>With Ollama running on this machine, restart the sandbox with:</p>
      <pre tabIndex={0} aria-label="Command for Ollama">
        {OLLAMA_LINES}
      </pre>
      <CopyButton text={OLLAMA} label="Copy command" />
      <h4 class="assistant-settings-head">Flags and environment variables</h4>
      <dl class="assistant-settings">
        {SETTINGS.map(([flag, env, what]) => (
          <div key={env}>
            <dt>
              {flag && (
                <>
                  <code>{flag}</code>
                  {' or '}
                </>
              )}
              <code>{env}</code>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <p>
        Every change the assistant proposes waits for your Run. More in{' '}
        <a href={DOCS} target="_blank" rel="noreferrer">
          the assistant's documentation (docs/assistant.md)
        </a>
        .
      </p>
    </div>
  );
}
