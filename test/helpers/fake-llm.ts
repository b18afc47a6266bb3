// A fake model server for tests: node:http on 127.0.0.1:0, speaking Ollama (POST /api/chat, NDJSON) and the
// OpenAI-compatible API (POST /v1/chat/completions, SSE), streamed or whole, and misbehaving on request.
//
// The dialogue: while the request holds no `role: "tool"` message (and tools were offered), the fake asks for its
// tool calls; once a tool result is there, it answers with text. Every request is recorded for assertions.
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fault =
  | 'none'
  | 'server-error' // 500 with an error body in the server's shape
  | 'malformed' // 200, but the body is not the protocol
  | 'html' // 200 with an HTML page (a wrong base URL hitting a web server)
  | 'hang' // never answers at all
  | 'stall' // answers the head and one chunk, then goes silent
  | 'drop' // answers the head and one chunk, then destroys the socket
  | 'stream-error' // an error object in the middle of the stream
  | 'truncated' // the stream ends without its last line / [DONE]
  | 'bad-args' // a tool call whose arguments are not valid JSON
  | 'no-tools'; // 400: the model cannot use tools (Ollama's words)

export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface FakeLlmOptions {
  /** The final answer, sent once a tool result is in the conversation. */
  text: string;
  /** The tool calls asked for first (several are interleaved in the OpenAI stream, to exercise joining by index). */
  toolCalls: FakeToolCall[];
  /** Reasoning sent before the answer (Ollama `message.thinking`, OpenAI `delta.reasoning_content`). */
  thinking?: string;
  /** `stream` follows the request's `stream` flag; `plain` always answers with one JSON body. */
  mode: 'stream' | 'plain';
  fault: Fault;
  /** When set, a request for another model gets the server's 404 "model not found". */
  models?: string[];
  /** When set, OpenAI requests need `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Ollama: include `id` on tool calls (newer servers do; older ones send none). */
  ollamaIds: boolean;
  /** The pause between two streamed chunks. */
  chunkDelayMs: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (or the raw text when it was not JSON). */
  body: unknown;
}

/** The parts of a chat request body the fake reads. */
interface ChatBody {
  model?: string;
  stream?: boolean;
  tools?: unknown[];
  messages?: Array<{ role?: string }>;
}

export interface FakeLlm {
  /** `http://127.0.0.1:PORT` — Ollama's base URL. */
  readonly url: string;
  /** `http://127.0.0.1:PORT/v1` — the OpenAI-compatible base URL. */
  readonly openaiURL: string;
  readonly requests: RecordedRequest[];
  /** Changes the behaviour for the following requests. */
  set(options: Partial<FakeLlmOptions>): void;
  close(): Promise<void>;
}

const DEFAULTS: FakeLlmOptions = {
  text: 'The directory holds two files.',
  toolCalls: [{ name: 'run_command', arguments: { command: 'ls -la' } }],
  mode: 'stream',
  fault: 'none',
  ollamaIds: false,
  chunkDelayMs: 2,
};

export async function startFakeLlm(initial: Partial<FakeLlmOptions> = {}): Promise<FakeLlm> {
  let options: FakeLlmOptions = { ...DEFAULTS, ...initial };
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const chat = (typeof body === 'object' && body !== null ? body : {}) as ChatBody;
      if (req.method === 'POST' && req.url === '/api/chat') return ollama(chat, res, options);
      if (req.method === 'POST' && req.url === '/v1/chat/completions') return openai(chat, req, res, options);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiURL: `${url}/v1`,
    requests,
    set(next) {
      options = { ...options, ...next };
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A base URL where nothing listens (a port that was just freed). */
export async function closedPortURL(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (data += c));
    req.on('end', () => resolve(data));
    req.on('error', reject);
  });
}

function wantsToolCalls(body: ChatBody, o: FakeLlmOptions): boolean {
  const hasResult = (body.messages ?? []).some((m) => m.role === 'tool');
  return !hasResult && (body.tools?.length ?? 0) > 0 && o.toolCalls.length > 0;
}

/** Words with their following space, so the pieces join back to the text. */
function words(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function thirds(s: string): string[] {
  const a = Math.floor(s.length / 3);
  const b = Math.floor((2 * s.length) / 3);
  return [s.slice(0, a), s.slice(a, b), s.slice(b)];
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

function early(fault: Fault, res: ServerResponse, contentType: string, first: string): boolean {
  switch (fault) {
    case 'hang':
      return true;
    case 'html':
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Welcome</title>');
      return true;
    case 'stall':
      res.writeHead(200, { 'content-type': contentType });
      res.write(first);
      return true;
    case 'drop':
      res.writeHead(200, { 'content-type': contentType });
      res.write(first, () => setTimeout(() => res.socket?.destroy(), 20));
      return true;
    default:
      return false;
  }
}

// ---- Ollama ------------------------------------------------------------------------------------------------

function ollama(body: ChatBody, res: ServerResponse, o: FakeLlmOptions): void {
  const model = body.model ?? '';
  if (o.models && !o.models.includes(model)) {
    return json(res, 404, { error: `model "${model}" not found, try pulling it first` });
  }
  if (o.fault === 'server-error') {
    return json(res, 500, { error: 'llama runner process has terminated: signal: killed' });
  }
  if (o.fault === 'no-tools') {
    return json(res, 400, { error: `registry.ollama.ai/library/${model} does not support tools` });
  }
  const stamp = { model, created_at: new Date(0).toISOString() };
  const head = { ...stamp, message: { role: 'assistant', content: '' }, done: false };
  const ndjson = 'application/x-ndjson';
  if (early(o.fault, res, ndjson, JSON.stringify(head) + '\n')) return;
  if (o.fault === 'malformed') {
    res.writeHead(200, { 'content-type': ndjson }).end('this is not json\n');
    return;
  }

  const lines: unknown[] = [];
  const last = {
    ...stamp,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: 'stop',
    prompt_eval_count: 42,
    eval_count: 7,
  };
  if (o.thinking) lines.push({ ...stamp, message: { role: 'assistant', content: '', thinking: o.thinking }, done: false });
  if (wantsToolCalls(body, o)) {
    const calls = o.toolCalls.map((c, index) => ({
      ...(o.ollamaIds ? { id: `call_ol${index}` } : {}),
      function: {
        index,
        name: c.name,
        arguments: o.fault === 'bad-args' ? '{"command": "ls' : c.arguments,
      },
    }));
    lines.push({ ...stamp, message: { role: 'assistant', content: '', tool_calls: calls }, done: false });
  } else {
    for (const w of words(o.text)) lines.push({ ...stamp, message: { role: 'assistant', content: w }, done: false });
  }
  if (o.fault === 'stream-error') lines.splice(1, 0, { error: 'an error was encountered while running the model' });

  if (o.mode === 'plain' || body.stream === false) {
    // One object: the whole message at once.
    const whole = {
      ...last,
      message: {
        role: 'assistant',
        content: wantsToolCalls(body, o) ? '' : o.text,
        ...(wantsToolCalls(body, o) ? { tool_calls: (lines.at(-1) as { message: { tool_calls: unknown } }).message.tool_calls } : {}),
      },
    };
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(whole, null, 2));
    return;
  }
  if (o.fault !== 'truncated') lines.push(last);
  res.writeHead(200, { 'content-type': ndjson });
  writeSlowly(res, lines.map((l) => JSON.stringify(l) + '\n'), o.chunkDelayMs);
}

// ---- OpenAI-compatible ---------------------------------------------------------------------------------------

function openai(body: ChatBody, req: IncomingMessage, res: ServerResponse, o: FakeLlmOptions): void {
  const model = body.model ?? '';
  if (o.apiKey && req.headers.authorization !== `Bearer ${o.apiKey}`) {
    return json(res, 401, {
      error: { message: 'Invalid API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
    });
  }
  if (o.models && !o.models.includes(model)) {
    return json(res, 404, {
      error: { message: `The model \`${model}\` does not exist.`, type: 'invalid_request_error', code: 'model_not_found' },
    });
  }
  if (o.fault === 'server-error') {
    return json(res, 500, { error: { code: 500, message: 'failed to decode the batch: KV cache is full', type: 'server_error' } });
  }
  if (o.fault === 'no-tools') {
    return json(res, 400, { error: { code: 400, message: 'this model does not support tools', type: 'invalid_request_error' } });
  }
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model };
  const chunk = (delta: unknown, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const event = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
  const sse = 'text/event-stream';
  if (early(o.fault, res, sse, event(chunk({ role: 'assistant', content: '' })))) return;
  if (o.fault === 'malformed') {
    res.writeHead(200, { 'content-type': sse }).end('data: {not json\n\n');
    return;
  }

  const toolTurn = wantsToolCalls(body, o);
  const argsText = (c: FakeToolCall) => (o.fault === 'bad-args' ? '{"command": "ls' : JSON.stringify(c.arguments));
  const usage = { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 };

  if (o.mode === 'plain' || body.stream === false) {
    const message = toolTurn
      ? {
          role: 'assistant',
          content: null,
          tool_calls: o.toolCalls.map((c, i) => ({ id: `call_oa${i}`, type: 'function', function: { name: c.name, arguments: argsText(c) } })),
        }
      : { role: 'assistant', content: o.text };
    return json(res, 200, {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, message, finish_reason: toolTurn ? 'tool_calls' : 'stop' }],
      usage,
    });
  }

  const events: string[] = [event(chunk({ role: 'assistant', content: null }))];
  if (o.thinking) events.push(event(chunk({ reasoning_content: o.thinking })));
  if (toolTurn) {
    // Each call opens with its id and name; then the argument text in thirds, the calls' fragments interleaved.
    o.toolCalls.forEach((c, index) =>
      events.push(
        event(chunk({ tool_calls: [{ index, id: `call_oa${index}`, type: 'function', function: { name: c.name, arguments: '' } }] })),
      ),
    );
    const pieces = o.toolCalls.map((c) => thirds(argsText(c)));
    for (let part = 0; part < 3; part++) {
      pieces.forEach((p, index) => events.push(event(chunk({ tool_calls: [{ index, function: { arguments: p[part] } }] }))));
    }
    events.push(event(chunk({}, 'tool_calls')));
  } else {
    for (const w of words(o.text)) events.push(event(chunk({ content: w })));
    events.push(event(chunk({}, 'stop')));
  }
  events.push(event({ ...base, choices: [], usage }));
  if (o.fault === 'stream-error') events.splice(2, 0, event({ error: { message: 'the model crashed', type: 'server_error' } }));
  if (o.fault === 'truncated') {
    // Cut before the finish chunk, as if the server died quietly.
    events.splice(events.findIndex((e) => e.includes('"finish_reason":"')));
  } else {
    events.push(event('[DONE]'));
  }
  res.writeHead(200, { 'content-type': sse, 'cache-control': 'no-cache' });
  writeSlowly(res, events, o.chunkDelayMs);
}

/** Writes each piece after a pause, so the client sees a real stream. */
function writeSlowly(res: ServerResponse, pieces: string[], delayMs: number): void {
  let i = 0;
  const step = (): void => {
    if (res.destroyed) return;
    if (i >= pieces.length) {
      res.end();
      return;
    }
    res.write(pieces[i++]);
    setTimeout(step, delayMs);
  };
  step();
}

/**
 * A fetch whose reply head and first chunk are already there when it resolves, then nothing more: the silence
 * timer can only fire after the head was read, however loaded the machine is (a real server's head can arrive after
 * a starved event loop runs its timers first, which made a stall read as "did not answer").
 */
export function stallingFetch(first: string, contentType: string): typeof fetch {
  return (async (_url: unknown, init?: RequestInit) => {
    const signal = init?.signal ?? undefined;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(first));
        signal?.addEventListener('abort', () => c.error(signal.reason), { once: true });
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': contentType } });
  }) as typeof fetch;
}
