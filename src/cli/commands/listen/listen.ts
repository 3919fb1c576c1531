import { followEvents, type StreamItem } from '../../../client/event-stream.js';
import { CrmApiError } from '../../../client/errors.js';
import { EVENT_TYPES } from '../../../domain/event-types.js';
import type { GlobalOptions } from '../../api.js';
import { HOW_TO_LOG_IN } from '../../credentials.js';
import { checkForwardUrl, EventForwarder } from './forward.js';
import { loadListenState, saveListenPosition } from './listen-state.js';
import { bold, CliError, cyan, dim, jsonText, printJson, terminalSafe, yellow } from '../../output.js';
import { EXIT } from '../../exit-codes.js';

export interface ListenOptions extends GlobalOptions {
  forwardTo: string;
  events?: string;
  from?: string;
  state: string;
  retries: number;
}

/**
 * `crm listen`: follows the event stream of --base-url and POSTs each event to --forward-to,
 * signed with the listen secret. One event at a time, in order: an event is forwarded only after
 * the previous one succeeded or used up its retries. The position (last event handled) is saved
 * after each, so a restart first forwards what was missed, and a stop (SIGINT/SIGTERM) lets the
 * forward under way finish first, so nothing is forwarded twice.
 */
export async function listenCommand(options: ListenOptions): Promise<void> {
  if (!options.apiKey) throw options.noKeyReason ? new CliError(options.noKeyReason, EXIT.failure) : new CliError(HOW_TO_LOG_IN, EXIT.usage);
  const url = checkForwardUrl(options.forwardTo);
  const wanted = parseTypes(options.events);
  if (options.from !== undefined && options.from !== 'now' && !/^evt_[0-9A-Z]{0,26}$/.test(options.from)) {
    throw new CliError(`--from takes "now" or an event id (evt_…), not '${options.from}'.`, EXIT.usage);
  }
  const state = loadListenState(options.state, options.baseUrl);
  // An explicit --from wins; otherwise resume where the last run stopped; on a first run, from now.
  let position = options.from === 'now' ? undefined : (options.from ?? state.last_event_id ?? undefined);

  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const forwarder = new EventForwarder({ url, secret: state.secret, retries: options.retries, json: options.json, signal: stop.signal });
  let connected = false;

  // The stream is read apart from forwarding, so a slow receiver never stalls the connection
  // (heartbeats keep arriving); items wait here in order.
  const queue: StreamItem[] = [];
  let wake: (() => void) | undefined;
  let streamError: unknown;
  let streamDone = false;
  const reader = (async () => {
    try {
      const stream = followEvents({
        baseUrl: options.baseUrl,
        apiKey: options.apiKey!,
        after: position,
        signal: stop.signal,
        // "Ready" once the stream is open: events made from then on are sure to be forwarded.
        onConnected: () => {
          if (connected) note(options, 'reconnected');
          else announce(options, url, state.secret, position);
          connected = true;
        },
        onDisconnected: (reason, ms) => note(options, `stream dropped (${reason}); reconnecting in ${(ms / 1000).toFixed(1)} s`),
      });
      for await (const item of stream) {
        queue.push(item);
        wake?.();
      }
    } catch (error) {
      streamError = error;
    } finally {
      streamDone = true;
      wake?.();
    }
  })();

  try {
    for (;;) {
      const item = queue.shift();
      if (!item) {
        if (streamDone || stop.signal.aborted) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
        continue;
      }
      if (item.kind === 'event' && (!wanted || wanted.has(item.type))) {
        const outcome = await forwarder.forward({ id: item.id, type: item.type, body: item.data });
        // Stopped while the forward failed: keep the position, so the next run tries it again.
        if (!outcome.ok && stop.signal.aborted) break;
      }
      if (item.id !== position) {
        position = item.id;
        saveListenPosition(options.state, options.baseUrl, position);
      }
      if (stop.signal.aborted) break;
    }
  } finally {
    stop.abort();
    await reader;
    await forwarder.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  if (streamError) {
    if (streamError instanceof CrmApiError) {
      const hint = streamError.status === 401 ? ' Check --api-key / CRM_API_KEY.' : streamError.status === 403 ? ' The key needs the events:read scope.' : '';
      throw new CliError(`${streamError.message}${hint}`);
    }
    throw streamError;
  }
  note(options, position ? `stopped; the next run resumes after ${position}` : 'stopped');
}

function parseTypes(list: string | undefined): Set<string> | undefined {
  if (list === undefined) return undefined;
  const types = list
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const unknown = types.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length || types.length === 0)
    throw new CliError(`Unknown event type(s) for --events: ${unknown.join(', ') || '(none)'}. Known: ${EVENT_TYPES.join(', ')}.`, EXIT.usage);
  return new Set(types);
}

function announce(options: ListenOptions, url: string, secret: string, position: string | undefined): void {
  const from = position ? `after ${position}` : 'now';
  if (options.json) {
    printJson({ ready: true, base_url: options.baseUrl, forward_to: url, secret, from, events: options.events?.split(',') ?? ['*'] });
    return;
  }
  process.stdout.write(
    [
      `${bold('Ready!')} Forwarding events from ${cyan(options.baseUrl)} to ${cyan(url)}`,
      `  Listen secret  ${secret}  ${dim('(the same on every run; verify with verifyWebhook() or any Standard Webhooks library)')}`,
      `  Starting       ${from}${options.events ? `  ${dim(`only ${options.events}`)}` : ''}`,
      dim('  Press Ctrl+C to stop.'),
      '',
    ].join('\n'),
  );
}

function note(options: ListenOptions, text: string): void {
  if (options.json) process.stderr.write(`${jsonText({ note: text })}\n`);
  else process.stderr.write(`${yellow('listen', process.stderr)}: ${terminalSafe(text)}\n`);
}
