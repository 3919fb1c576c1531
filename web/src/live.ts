// Everything live on the dashboard comes over one connection, GET /dashboard/stream (Server-Sent
// Events): new events and the usage report once a second. It is opened once when the dashboard
// is signed in and shared by every page, resuming after the last event id when it drops.
// EventSource cannot send the X-CRM-Dashboard header that makes the server accept the session
// cookie, so the stream is read with fetch and parsed here.
import { effect, signal } from '@preact/signals';
import { hideDashboardRequests } from './components/dashboard-requests.js';

export interface LiveEvent {
  id: string;
  type: string;
  created_at: string;
  data: { object: Record<string, unknown> };
  /** On *.updated: the changed fields' values before the change. */
  previous_attributes?: Record<string, unknown>;
}

export type StatusClass = '2xx' | '4xx' | '429' | '5xx';

export interface UsageReport {
  /** 'api' when the dashboard's own requests are left out (?usage_source=api), else null. */
  source: 'api' | 'dashboard' | null;
  totals: { requests: number };
  by_source: { source: 'api' | 'dashboard'; requests: number }[];
  by_key: { key_id: string; requests: number }[];
  by_endpoint: { endpoint: string; requests: number }[];
  by_status: { status: number; requests: number }[];
  quota: { limit: number; used: number; remaining: number; resets_at: string } | null;
  rate_limit: { limit: number; window_seconds: number } | null;
  requests_per_second: { window_seconds: number; average: number; series: number[]; by_class: { status_class: StatusClass; series: number[] }[] };
}

/** What the session may follow (the first message says), until then unknown. */
export const liveScopes = signal<{ events: boolean; usage: boolean } | undefined>(undefined);
export const liveUsage = signal<UsageReport | null>(null);

const eventListeners = new Set<(e: LiveEvent) => void>();

/** Calls `fn` with each new event until the returned function is called. */
export function onLiveEvent(fn: (e: LiveEvent) => void): () => void {
  eventListeners.add(fn);
  return () => void eventListeners.delete(fn);
}

interface SseMessage {
  id: string | undefined;
  event: string;
  data: string;
}

async function* sseMessages(body: ReadableStream): AsyncGenerator<SseMessage> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const m: SseMessage = { id: undefined, event: 'message', data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        if (colon <= 0) continue; // comments (heartbeats) start with ':'
        const field = line.slice(0, colon);
        const text = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') m.id = text;
        else if (field === 'event') m.event = text;
        else if (field === 'data') m.data += m.data ? `\n${text}` : text;
      }
      yield m;
    }
  }
}

const RECONNECT_MS = 1000;

/**
 * Opens the live stream; the returned function closes it (on sign-out). "Hide dashboard requests"
 * asks for the usage report without them (?usage_source=api): a change reconnects at once, resuming
 * after the last event as after a drop.
 */
export function connectLive(): () => void {
  const abort = new AbortController();
  let connection: AbortController | undefined;
  let reconnectNow = false;
  const stopWatching = effect(() => {
    void hideDashboardRequests.value;
    reconnectNow = true;
    connection?.abort();
  });
  abort.signal.addEventListener('abort', () => {
    stopWatching();
    connection?.abort();
  });
  let lastEventId: string | undefined;
  void (async () => {
    while (!abort.signal.aborted) {
      reconnectNow = false;
      connection = new AbortController();
      try {
        const headers: Record<string, string> = { 'x-crm-dashboard': '1', accept: 'text/event-stream' };
        if (lastEventId) headers['last-event-id'] = lastEventId;
        const path = hideDashboardRequests.peek() ? '/dashboard/stream?usage_source=api' : '/dashboard/stream';
        const response = await fetch(path, { headers, credentials: 'same-origin', signal: connection.signal });
        if (response.status === 401) return; // signed out elsewhere: the next API call shows the sign-in form
        if (response.ok && response.body) {
          for await (const m of sseMessages(response.body)) {
            if (m.id) lastEventId = m.id;
            if (m.event === 'scopes') liveScopes.value = JSON.parse(m.data);
            else if (m.event === 'usage') liveUsage.value = JSON.parse(m.data);
            else if (m.event === 'event') for (const fn of eventListeners) fn(JSON.parse(m.data));
          }
        }
      } catch {
        // The sandbox restarted or the network dropped: try again below.
      }
      if (!reconnectNow) await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  })();
  return () => abort.abort();
}
