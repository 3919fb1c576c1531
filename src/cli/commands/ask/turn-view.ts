import { toolInfo } from '../../../mcp/catalog.js';
import type { AssistantConfirmation, AssistantStreamEvent } from '../../../schemas/assistant.js';
import { bold, dim, green, printJson, red, terminalSafe } from '../../output.js';

/** What became of a proposed write, as the command decided it. */
type Decision = 'asked' | 'approved-by-flag' | 'cancelled-unattended';

/**
 * How `crm ask` shows a turn: as people read it (the answer on stdout, tool steps, cards and notes
 * on stderr) or, with --json, each event as one JSON line on stdout and nothing else.
 */
export interface TurnView {
  event(event: AssistantStreamEvent): void;
  /** A proposed write, shown before the command asks about it or says what it did with it. */
  card(confirmation: AssistantConfirmation, decision: Decision): void;
  /** The turn is over: where it can be continued. */
  end(conversationId: string | undefined): void;
}

export function jsonView(): TurnView {
  return {
    // The server's event as it sent it (the same JSON value, on one line; printJson escapes DEL and C1).
    event: (event) => printJson(event),
    card: () => {},
    end: () => {},
  };
}

/**
 * Everything the server sent goes through terminalSafe before it is printed: a record's name is
 * whatever someone typed into it, escape sequences included (docs/security.md, "The terminal").
 * The answer keeps its newlines and tabs; step lines and cards are one line each.
 */
export function terminalView(): TurnView {
  const out = process.stdout;
  const err = process.stderr;
  let midLine = false; // the answer's last line on stdout is not finished
  const endAnswerLine = () => {
    if (midLine) out.write('\n');
    midLine = false;
  };
  const note = (line: string) => {
    endAnswerLine();
    err.write(`${line}\n`);
  };
  const titles = new Map<string, string>(); // tool_call_id → the title its result line repeats

  return {
    event(event) {
      switch (event.type) {
        case 'text': {
          const text = terminalSafe(event.delta ?? '');
          if (!text) return;
          out.write(text);
          midLine = !text.endsWith('\n');
          return;
        }
        case 'tool_call': {
          const title = titleOf(event.tool);
          titles.set(event.tool_call_id ?? '', title);
          note(dim(`→ ${title} (${oneLine(`${event.tool ?? '?'}${argumentText(event.arguments)}`)})`, err));
          return;
        }
        case 'tool_result': {
          const title = titles.get(event.tool_call_id ?? '') ?? titleOf(event.tool);
          if (event.is_error) note(`  ${red('✗', err)} ${title}: ${oneLine(resultText(event.result), 200)}`);
          else note(`  ${green('✓', err)} ${dim(`${title}${countText(event.result)}`, err)}`);
          return;
        }
        case 'done':
          endAnswerLine();
          if (event.status === 'tool_limit') note(dim('(stopped after the turn’s limit of tool calls: ask it to go on)', err));
          return;
        default:
          // conversation: shown at the end; confirmation_required: shown by card() when it is decided;
          // error: the command ends with it as its message.
          return;
      }
    },
    card(confirmation, decision) {
      const warning = confirmation.destructive ? ` ${red('destructive', err)}` : '';
      note(`${bold('?', err)} ${bold(oneLine(confirmation.title), err)}${warning}`);
      note(`  ${oneLine(confirmation.summary, 500)}`);
      if (decision === 'approved-by-flag') note(dim('  Run (--yes)', err));
      if (decision === 'cancelled-unattended') note(`  ${red('Cancelled', err)}: not run (no terminal to ask; --yes runs writes without asking)`);
    },
    end(conversationId) {
      endAnswerLine();
      if (!conversationId) return;
      const id = oneLine(conversationId);
      note(dim(`conversation ${id} · continue it: crm ask --conversation ${id} "…"`, err));
    },
  };
}

function titleOf(tool: string | undefined): string {
  return oneLine(tool ? (toolInfo(tool)?.title ?? tool) : 'a tool');
}

/** Text from the server for one line of the terminal, cut at `max` characters. */
function oneLine(text: string, max = 120): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return terminalSafe(cut, true);
}

/** ` q=acme limit=5`: strings as they are unless they hold a space or a quote, the rest as JSON. */
function argumentText(args: Record<string, unknown> | undefined): string {
  const pairs = Object.entries(args ?? {}).map(([key, value]) => {
    const text = typeof value === 'string' && /^[^\s"']+$/.test(value) ? value : JSON.stringify(value);
    return `${key}=${text && text.length > 40 ? `${text.slice(0, 39)}…` : text}`;
  });
  return pairs.length ? ` ${pairs.join(' ')}` : '';
}

/** A list's size (`data`), or nothing: the result itself went to the model, not to the screen. */
function countText(result: unknown): string {
  const data = (result as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? ` · ${data.length} found` : '';
}

function resultText(result: unknown): string {
  return typeof result === 'string' ? result : (JSON.stringify(result) ?? 'failed');
}
