// Server-Sent Events over fetch: EventSource cannot send the X-CRM-Dashboard header that makes
// the server accept the session cookie, so the stream is read and parsed here.
export interface SseMessage {
  id: string;
  event: string;
  data: string;
}

export function followStream(path: string, onMessage: (m: SseMessage) => void, signal: AbortSignal): void {
  void (async () => {
    const response = await fetch(path, { headers: { 'x-crm-dashboard': '1', accept: 'text/event-stream' }, credentials: 'same-origin', signal });
    if (!response.ok || !response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const m: SseMessage = { id: '', event: 'message', data: '' };
        for (const line of block.split('\n')) {
          const colon = line.indexOf(':');
          if (colon <= 0) continue;
          const field = line.slice(0, colon);
          const text = line.slice(colon + 1).replace(/^ /, '');
          if (field === 'id') m.id = text;
          else if (field === 'event') m.event = text;
          else if (field === 'data') m.data += m.data ? `\n${text}` : text;
        }
        if (m.data) onMessage(m);
      }
    }
  })().catch(() => undefined);
}
