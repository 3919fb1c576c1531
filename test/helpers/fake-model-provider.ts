import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted model provider for the assistant's tests: a real HTTP server on loopback that speaks
 * the OpenAI Chat Completions protocol (POST …/chat/completions) and Anthropic's Messages protocol
 * (POST …/messages), streamed or not, as the request asks. Each model call takes the next step of
 * the script; a step is a reply (text and/or tool calls) or a fault (an HTTP status, a hang, a
 * stream that breaks off). Every request is kept, headers and body, for the tests to inspect.
 */
interface ToolCallStep {
  name: string;
  args: Record<string, unknown>;
}

type Step = { text?: string; toolCalls?: ToolCallStep[] } | { status: number; body?: unknown } | { hang: true } | { broken: true };

/** A step, or a function of the request that returns one (to answer from what the model was sent). */
type ScriptStep = Step | ((request: ProviderRequest) => Step);

interface ProviderRequest {
  protocol: 'openai' | 'anthropic';
  headers: IncomingMessage['headers'];
  body: any;
}

export interface FakeProvider {
  /** The base URL to configure: `${url}/v1`. */
  url: string;
  requests: ProviderRequest[];
  /** How many requests left hanging (a `hang` step) were closed by the caller. */
  abandoned(): number;
  /** Steps to answer, in order; a call beyond the script gets a plain "Done." text. */
  script(steps: ScriptStep[]): void;
  close(): Promise<void>;
}

export async function startFakeProvider(options: { apiKey?: string } = {}): Promise<FakeProvider> {
  const requests: ProviderRequest[] = [];
  let steps: ScriptStep[] = [];
  const hanging = new Set<ServerResponse>();
  let abandoned = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const protocol = req.url?.endsWith('/chat/completions') ? 'openai' : req.url?.endsWith('/messages') ? 'anthropic' : undefined;
    if (req.method !== 'POST' || !protocol) {
      res.writeHead(404).end();
      return;
    }
    const request: ProviderRequest = { protocol, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    requests.push(request);
    if (options.apiKey) {
      const sent = protocol === 'openai' ? req.headers.authorization : `Bearer ${req.headers['x-api-key']}`;
      // As OpenAI does, the refusal quotes the key it was sent.
      if (sent !== `Bearer ${options.apiKey}`)
        return json(res, 401, { error: { message: `Incorrect API key provided: ${sent?.slice(7)}.`, type: 'invalid_request_error' } });
    }
    const next = steps.shift() ?? { text: 'Done.' };
    const step = typeof next === 'function' ? next(request) : next;
    if ('status' in step) return json(res, step.status, step.body ?? { error: { message: `scripted ${step.status}`, type: 'rate_limit_error' } });
    if ('hang' in step) {
      hanging.add(res);
      res.once('close', () => {
        if (hanging.delete(res)) abandoned++;
      });
      return;
    }
    const stream = request.body.stream === true;
    if ('broken' in step) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"index":0,"delta":{"content":"Partial'); // cut mid-JSON
      res.destroy();
      return;
    }
    if (protocol === 'openai') openAiReply(res, step, stream);
    else anthropicReply(res, step, stream);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    abandoned: () => abandoned,
    script: (s) => {
      steps = [...s];
    },
    close: async () => {
      const left = [...hanging];
      hanging.clear();
      for (const res of left) res.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sse(res: ServerResponse, events: [string | undefined, unknown][], done?: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  if (done) res.write(`data: ${done}\n\n`);
  res.end();
}

let callCounter = 0;
const callId = () => `call_${++callCounter}`;

function openAiReply(res: ServerResponse, step: { text?: string; toolCalls?: ToolCallStep[] }, stream: boolean): void {
  const calls = (step.toolCalls ?? []).map((c) => ({ id: callId(), type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } }));
  const finish = calls.length ? 'tool_calls' : 'stop';
  const base = { id: 'chatcmpl-fake', created: 1_700_000_000, model: 'fake-model' };
  if (!stream) {
    return json(res, 200, {
      ...base,
      object: 'chat.completion',
      choices: [
        { index: 0, message: { role: 'assistant', content: step.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: finish },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  }
  const chunk = (delta: unknown, finish_reason: string | null = null) => [
    undefined,
    { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] },
  ];
  const events: [string | undefined, unknown][] = [chunk({ role: 'assistant', content: '' }) as [undefined, unknown]];
  // Text in a few pieces, as a model streams it.
  for (const piece of (step.text ?? '').match(/.{1,12}/gs) ?? []) events.push(chunk({ content: piece }) as [undefined, unknown]);
  calls.forEach((call, index) => {
    events.push(
      chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }) as [undefined, unknown],
    );
    events.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }) as [undefined, unknown]);
  });
  events.push(chunk({}, finish) as [undefined, unknown]);
  sse(res, events, '[DONE]');
}

function anthropicReply(res: ServerResponse, step: { text?: string; toolCalls?: ToolCallStep[] }, stream: boolean): void {
  const blocks: ({ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown })[] = [];
  if (step.text) blocks.push({ type: 'text', text: step.text });
  for (const call of step.toolCalls ?? []) blocks.push({ type: 'tool_use', id: `toolu_${++callCounter}`, name: call.name, input: call.args });
  const stopReason = step.toolCalls?.length ? 'tool_use' : 'end_turn';
  const message = {
    id: 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: 'fake-model',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
  if (!stream) return json(res, 200, { ...message, content: blocks, stop_reason: stopReason });
  const events: [string, unknown][] = [['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null } }]];
  blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push(['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }]);
      for (const piece of block.text.match(/.{1,12}/gs) ?? []) {
        events.push(['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }]);
      }
    } else {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } },
      ]);
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } },
      ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } }]);
  events.push(['message_stop', { type: 'message_stop' }]);
  sse(res, events);
}
