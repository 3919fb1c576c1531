// Records named in the assistant's answers (docs/dashboard.md#the-assistant). The model is told to put
// a record's id in parentheses after its name, "Acme GmbH (cli_01J…)": the panel links the name to
// the record's page and drops the id. Pure text work, tested in test/unit/web-assistant.test.ts.
import { type RecordResource, resourceOfId } from './tools.js';

export interface Mention {
  /** The text between the previous mention and this one (the "(" before a parenthesized id left out). */
  before: string;
  id: string;
  resource: RecordResource;
  /** Written as "Name (id)": the parentheses are dropped, and the name before them is the link. */
  parenthesized: boolean;
}

const ID = /\b(?:cli|lead|deal|inv)_[0-9A-Za-z]{4,}\b/g;
/** "Acme (cli_…)", "Acme (id: cli_…)", "Acme (ID cli_…)". */
const OPENS = /\s*\(\s*(?:id:?\s*)?$/i;
const CLOSES = /^\s*\)/;

/** The record ids in `text`. While it streams (`complete` false) an id at its very end may not be whole yet, and waits. */
export function findMentions(text: string, complete: boolean): { mentions: Mention[]; rest: string } {
  const mentions: Mention[] = [];
  let from = 0;
  for (const match of text.matchAll(ID)) {
    const end = match.index + match[0].length;
    if (!complete && end === text.length) break;
    const before = text.slice(from, match.index);
    const opens = OPENS.exec(before);
    const closes = CLOSES.exec(text.slice(end));
    const parenthesized = opens !== null && closes !== null;
    mentions.push({ before: parenthesized ? before.slice(0, opens.index) : before, id: match[0], resource: resourceOfId(match[0])!, parenthesized });
    from = parenthesized ? end + closes[0].length : end;
  }
  return { mentions, rest: text.slice(from) };
}

const CLOSERS = /[”"'’*_]*$/;
const fold = (text: string) => text.normalize('NFC').toLocaleLowerCase();

/**
 * Whether the text before a "(id)" ends with the record's name (its quotes or bold marks aside):
 * then that name becomes the link, as the answer wrote it. null when the words before are others.
 */
export function nameAtEnd(before: string, name: string): { lead: string; name: string; trail: string } | null {
  const trimmed = before.trimEnd();
  const trail = CLOSERS.exec(trimmed)![0];
  const body = trimmed.slice(0, trimmed.length - trail.length);
  const wanted = name.trim();
  if (!wanted || body.length < wanted.length || fold(body.slice(body.length - wanted.length)) !== fold(wanted)) return null;
  const lead = body.slice(0, body.length - wanted.length);
  // "Acme" at the end of "MegaAcme" is not the name: it must start a word.
  if (lead && /[\p{L}\p{N}]$/u.test(lead) && /^[\p{L}\p{N}]/u.test(wanted)) return null;
  return { lead, name: body.slice(body.length - wanted.length), trail };
}

/** Markdown's **bold** and __bold__ as plain words: the panel shows text, not markup. */
export const withoutEmphasis = (text: string): string => text.replace(/\*\*([^*\n]+)\*\*/g, '$1').replace(/__([^_\n]+)__/g, '$1');
