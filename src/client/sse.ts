/**
 * A Server-Sent Events parser (WHATWG HTML §9.2.6) over a byte stream: lines end in CRLF, LF or
 * CR; `:` starts a comment; a blank line ends a message. Unlike EventSource it also hands out
 * id-only messages (no data): the crm stream uses one to tell a new client its starting position.
 */
export interface SseMessage {
  /** The id field of this message, if it had one. */
  id: string | undefined;
  event: string;
  data: string;
  hasData: boolean;
}

export async function* parseSse(chunks: AsyncIterable<Buffer | string>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder('utf-8');
  let buffer = '';
  let id: string | undefined;
  let event = '';
  let data: string[] = [];
  const take = (): SseMessage | undefined => {
    const message = id === undefined && data.length === 0 ? undefined : { id, event: event || 'message', data: data.join('\n'), hasData: data.length > 0 };
    id = undefined;
    event = '';
    data = [];
    return message;
  };
  // Each complete line of the buffer; at the end of the stream a trailing CR is complete too.
  function* lines(final: boolean): Generator<string> {
    for (;;) {
      const match = /\r\n|\r|\n/.exec(buffer);
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
      if (!match || (!final && match[0] === '\r' && match.index === buffer.length - 1)) return;
      yield buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
    }
  }
  function* handle(line: string): Generator<SseMessage> {
    if (line === '') {
      const message = take();
      if (message) yield message;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
  }
  for await (const chunk of chunks) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) yield* handle(line);
  }
  for (const line of lines(true)) yield* handle(line);
}
