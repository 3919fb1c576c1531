/**
 * Reads a Server-Sent Events stream of the API with fetch, not EventSource: EventSource cannot send the
 * X-CRM-Dashboard header that lets the session cookie count. Calls onData with each event's parsed data.
 */
export async function readStream(path: string, signal: AbortSignal, onData: (data: unknown) => void): Promise<void> {
  const response = await fetch(path, { headers: { 'x-crm-dashboard': '1' }, credentials: 'same-origin', signal });
  if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}`);
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
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (data) onData(JSON.parse(data.slice(6)));
    }
  }
}
