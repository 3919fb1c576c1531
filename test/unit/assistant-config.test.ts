import { describe, expect, it } from 'vitest';
import { assistantConfig } from '../../src/assistant/config.js';

/** docs/assistant.md#set-up-a-model-provider: flags first, then CRM_ASSISTANT_*; the key from the environment only. */
describe('the assistant configuration', () => {
  it('is absent without a URL, and the panel then explains the setup', () => {
    expect(assistantConfig({}, {})).toBeUndefined();
    expect(assistantConfig({ assistantModel: 'm' }, { CRM_ASSISTANT_MODEL: 'm' })).toBeUndefined();
  });

  it('takes flags over the environment, reads the key from the environment, and trims the URL', () => {
    const config = assistantConfig(
      { assistantUrl: 'http://127.0.0.1:11434/v1/', assistantModel: 'llama3.1' },
      { CRM_ASSISTANT_URL: 'http://elsewhere/v1', CRM_ASSISTANT_MODEL: 'other', CRM_ASSISTANT_API_KEY: 'sk-env' },
    );
    expect(config).toEqual({ provider: 'openai', url: 'http://127.0.0.1:11434/v1', model: 'llama3.1', apiKey: 'sk-env', timeoutMs: 120_000 });
  });

  it('speaks Anthropic to api.anthropic.com unless told otherwise', () => {
    expect(assistantConfig({}, { CRM_ASSISTANT_URL: 'https://api.anthropic.com/v1', CRM_ASSISTANT_MODEL: 'c' })?.provider).toBe('anthropic');
    expect(assistantConfig({ assistantProvider: 'openai' }, { CRM_ASSISTANT_URL: 'https://api.anthropic.com/v1', CRM_ASSISTANT_MODEL: 'c' })?.provider).toBe(
      'openai',
    );
  });

  it.each([
    [{ assistantUrl: 'not a url', assistantModel: 'm' }, {}, /is not a URL/],
    [{ assistantUrl: 'ftp://x/v1', assistantModel: 'm' }, {}, /http or https/],
    [{ assistantUrl: 'http://x/v1' }, {}, /--assistant-model/],
    [{ assistantUrl: 'http://x/v1', assistantModel: 'm', assistantProvider: 'gemini' }, {}, /Unknown assistant provider "gemini"/],
    [{ assistantUrl: 'http://x/v1', assistantModel: 'm' }, { CRM_ASSISTANT_TIMEOUT_MS: '2s' }, /whole number of milliseconds/],
  ])('refuses %o with a message that says what to do', (flags, env, message) => {
    expect(() => assistantConfig(flags, env)).toThrow(message);
  });
});
