import { AssistantTurns } from '../../../client/assistant-turn.js';
import { CrmApiError, CrmNetworkError } from '../../../client/errors.js';
import type { AssistantConfirmation, AssistantStreamEvent } from '../../../schemas/assistant.js';
import { type GlobalOptions, requireApiKey } from '../../api.js';
import { EXIT } from '../../exit-codes.js';
import { onInterrupt } from '../../interrupt.js';
import { CliError } from '../../output.js';
import { askOnTerminal } from './yes-no-prompt.js';
import { jsonView, terminalView } from './turn-view.js';

export interface AskOptions extends GlobalOptions {
  conversation?: string;
  yes: boolean;
}

/**
 * `crm ask "…"`: one turn of the built-in assistant (docs/assistant.md), shown as it streams. A
 * write the model proposes runs only when approved: --yes approves each, a terminal asks about
 * each, and with neither (a script, --json) each is cancelled and the command exits 1, so that
 * nothing is written unattended unless asked for and a script notices what was not done.
 */
export async function askCommand(options: AskOptions, words: string[]): Promise<void> {
  const content = words.join(' ').trim();
  if (!content) throw new CliError('Say what to ask, e.g. crm ask "which deals are in negotiation?"', EXIT.usage);
  const apiKey = requireApiKey(options);
  const interrupt = onInterrupt();
  const turns = new AssistantTurns({ baseUrl: options.baseUrl, apiKey, signal: interrupt.signal });
  const view = options.json ? jsonView() : terminalView();
  let conversationId = options.conversation;
  let cancelledUnattended = 0;
  let prompting = false;

  /** Shows a stream's events as they come; the writes it proposed are answered after its `done`. */
  async function play(events: AsyncGenerator<AssistantStreamEvent>): Promise<{ status: string; proposed: AssistantConfirmation[] }> {
    const proposed: AssistantConfirmation[] = [];
    let status: string | undefined;
    for await (const event of events) {
      view.event(event);
      if (event.conversation_id) conversationId = event.conversation_id;
      if (event.type === 'confirmation_required' && event.confirmation) proposed.push(event.confirmation);
      if (event.type === 'done') status = event.status ?? 'complete';
      if (event.type === 'error') throw new CliError(`The assistant stopped: ${event.detail ?? 'no reason given'} (${event.code ?? 'error'})`);
    }
    if (!status) throw new CliError('The answer broke off: the server closed the stream before the end of the turn.');
    return { status, proposed };
  }

  async function approve(confirmation: AssistantConfirmation): Promise<boolean> {
    if (options.yes) {
      view.card(confirmation, 'approved-by-flag');
      return true;
    }
    if (options.json || !process.stdin.isTTY) {
      cancelledUnattended++;
      view.card(confirmation, 'cancelled-unattended');
      return false;
    }
    view.card(confirmation, 'asked');
    prompting = true;
    const yes = await askOnTerminal('Run this? [y/N] ', interrupt.signal);
    prompting = false;
    return yes;
  }

  let failed: unknown;
  try {
    let turn = await play(turns.ask({ content, conversation_id: options.conversation }));
    // The turn goes on once every write of the step is answered: the last answer streams the rest.
    while (turn.status === 'awaiting_confirmation' && turn.proposed.length) {
      let next = turn;
      for (const confirmation of turn.proposed) next = await play(turns.answer(confirmation.id, await approve(confirmation)));
      turn = next;
    }
  } catch (error) {
    failed = interrupt.signal.aborted ? interrupted(prompting) : failure(error, options);
  } finally {
    interrupt.dispose();
    await turns.close();
  }
  // Said after a failure too: a conversation that broke off can be continued.
  view.end(conversationId);
  if (failed) throw failed;
  if (cancelledUnattended) {
    const writes = cancelledUnattended === 1 ? 'The proposed write was' : `${cancelledUnattended} proposed writes were`;
    throw new CliError(`${writes} cancelled: there was no terminal to ask. Run again with --yes to run writes without asking.`);
  }
}

/** Ctrl+C: at the prompt, the write stays proposed (the server has not been answered). */
function interrupted(atPrompt: boolean): CliError {
  return new CliError(
    atPrompt
      ? 'Stopped (Ctrl+C): the proposed write was not run. It waits in the conversation; a new question there cancels it.'
      : 'Stopped (Ctrl+C) before the end of the turn.',
  );
}

/** What went wrong, said so that the user knows what to do next (exit 1, docs/assistant.md). */
function failure(error: unknown, options: AskOptions): unknown {
  if (error instanceof CliError || !(error instanceof Error)) return error;
  if (error instanceof CrmNetworkError) return new CliError(error.message);
  if (!(error instanceof CrmApiError)) return new CliError(error.message);
  switch (error.code) {
    case 'assistant_not_configured':
      return new CliError(
        `The assistant of ${options.baseUrl} has no model provider. Start the sandbox with one, e.g. for Ollama:\n` +
          '  crm sandbox start --assistant-url http://127.0.0.1:11434/v1 --assistant-model llama3.1\n' +
          'or set CRM_ASSISTANT_URL and CRM_ASSISTANT_MODEL (and CRM_ASSISTANT_API_KEY for a hosted provider) before ' +
          '`crm sandbox start`. See docs/assistant.md.',
      );
    case 'assistant_provider_rate_limited':
      return new CliError(`The model provider is rate limiting the sandbox: wait a moment and ask again. (${error.message})`);
    case 'assistant_provider_timeout':
      return new CliError(`The model provider did not answer in time (a local model may still be loading): ask again. (${error.message})`);
    case 'assistant_provider_unavailable':
      return new CliError(`The model provider failed: ${error.message} Check that it runs and that the sandbox's --assistant-url points at it.`);
  }
  if (error.status === 401) return new CliError(`${error.message} Check the key: \`crm whoami\` shows which one was used.`);
  if (error.status === 403) return new CliError(`${error.message} The assistant needs a key with the assistant:use scope.`);
  if (error.status === 404 && options.conversation) {
    return new CliError(`${error.message} A conversation is kept 30 days, and only the key that began it can continue it.`);
  }
  return new CliError(error.message);
}
