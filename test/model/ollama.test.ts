import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { createModel } from '../../src/model/index.js';
import { OllamaModel } from '../../src/model/ollama.js';
import { ModelError } from '../../src/model/types.js';
import type { ChatMessage, ModelErrorKind, ToolSpec } from '../../src/model/types.js';
import { closedPortURL, stallingFetch, startFakeLlm } from '../helpers/fake-llm.js';
import type { FakeLlm } from '../helpers/fake-llm.js';

const RUN: ToolSpec = {
  name: 'run_command',
  description: 'Run a shell command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};
const START: ChatMessage[] = [
  { role: 'system', content: 'You are wisp.' },
  { role: 'user', content: 'What is in this directory?' },
];

let fake: FakeLlm;
beforeEach(async () => {
  fake = await startFakeLlm();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await fake.close();
});

function model(timeoutMs = 5000, name = 'qwen3:8b'): OllamaModel {
  return new OllamaModel({ model: name, baseURL: fake.url, timeoutMs });
}

async function failure(p: Promise<unknown>): Promise<ModelError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    return err as ModelError;
  }
  throw new Error('expected the call to fail');
}

async function expectKind(p: Promise<unknown>, kind: ModelErrorKind): Promise<ModelError> {
  const err = await failure(p);
  expect(err.kind, err.message).toBe(kind);
  return err;
}


describe('ollama backend: a tool call, then a reply', () => {
  it('streams a tool call, sends the result back in Ollama shape, then streams the text', async () => {
    fake.set({ thinking: 'They want a listing.' });
    const m = createModel('ollama:qwen3:8b', { ...defaultConfig(), ollama: { baseURL: fake.url, timeoutSeconds: 5 } });
    const thinking: string[] = [];
    const first = await m.generate(START, { tools: [RUN], onThinking: (d) => thinking.push(d) });

    expect(first.text).toBe('');
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0].name).toBe('run_command');
    expect(first.toolCalls[0].arguments).toEqual({ command: 'ls -la' });
    expect(first.toolCalls[0].id).toMatch(/^call_\d+$/);
    expect(thinking.join('')).toBe('They want a listing.');
    expect(first.usage).toEqual({ promptTokens: 42, completionTokens: 7 });
    expect(first.finishReason).toBe('stop');

    const sent = fake.requests[0];
    expect(sent.path).toBe('/api/chat');
    expect(sent.body).toMatchObject({
      model: 'qwen3:8b',
      stream: true,
      messages: [
        { role: 'system', content: 'You are wisp.' },
        { role: 'user', content: 'What is in this directory?' },
      ],
      tools: [{ type: 'function', function: { name: 'run_command', description: 'Run a shell command', parameters: RUN.parameters } }],
    });

    const call = first.toolCalls[0];
    const history: ChatMessage[] = [
      ...START,
      { role: 'assistant', content: first.text, toolCalls: first.toolCalls },
      { role: 'tool', toolCallId: call.id, name: call.name, content: 'a.txt\nb.txt' },
    ];
    const deltas: string[] = [];
    const second = await m.generate(history, { tools: [RUN], onText: (d) => deltas.push(d) });

    expect(second.text).toBe('The directory holds two files.');
    expect(second.toolCalls).toEqual([]);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(second.text);

    const body = fake.requests[1].body as { messages: unknown[] };
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: call.id, function: { name: 'run_command', arguments: { command: 'ls -la' } } }],
    });
    expect(body.messages[3]).toMatchObject({ role: 'tool', tool_name: 'run_command', content: 'a.txt\nb.txt' });
  });

  it('keeps the ids Ollama gives its tool calls', async () => {
    fake.set({ ollamaIds: true });
    const reply = await model().generate(START, { tools: [RUN] });
    expect(reply.toolCalls[0].id).toBe('call_ol0');
  });

  it('reads a whole (non-streamed) JSON reply too', async () => {
    fake.set({ mode: 'plain' });
    const m = model();
    const first = await m.generate(START, { tools: [RUN] });
    expect(first.toolCalls.map((c) => [c.name, c.arguments])).toEqual([['run_command', { command: 'ls -la' }]]);
    const deltas: string[] = [];
    const second = await m.generate(
      [...START, { role: 'assistant', content: '', toolCalls: first.toolCalls }, { role: 'tool', toolCallId: first.toolCalls[0].id, name: 'run_command', content: 'x' }],
      { tools: [RUN], onText: (d) => deltas.push(d) },
    );
    expect(second.text).toBe('The directory holds two files.');
    expect(deltas.join('')).toBe(second.text);
  });

  it('leaves tools out of the request when none are offered, and then the fake answers with text', async () => {
    const reply = await model().generate(START, { tools: [] });
    expect(reply.text).toBe('The directory holds two files.');
    expect(fake.requests[0].body).not.toHaveProperty('tools');
  });

  it('reads a bare name as an Ollama model', async () => {
    const m = createModel('qwen3:8b', { ...defaultConfig(), ollama: { baseURL: fake.url, timeoutSeconds: 5 } });
    expect(m.id).toBe('ollama:qwen3:8b');
    await m.generate(START, { tools: [] });
    expect(fake.requests[0]).toMatchObject({ path: '/api/chat', body: { model: 'qwen3:8b' } });
  });
});

describe('ollama backend: failures', () => {
  it('connection refused → unreachable, naming the URL, `ollama serve` and the other backends', async () => {
    const url = await closedPortURL();
    const err = await expectKind(new OllamaModel({ model: 'qwen3:8b', baseURL: url, timeoutMs: 5000 }).generate(START, { tools: [] }), 'unreachable');
    expect(err.message).toContain(`${url}/api/chat`);
    expect(err.message).toContain('connection refused');
    expect(err.message).toContain('ollama serve');
    expect(err.message).toContain('-m openai:NAME');
    expect(err.message).toContain('-m script:PATH');
    expect(err.exitCode).toBe(1);
  });

  it('404 model → not-found, telling how to pull it', async () => {
    fake.set({ models: ['llama3.1:8b'] });
    const err = await expectKind(model().generate(START, { tools: [RUN] }), 'not-found');
    expect(err.status).toBe(404);
    expect(err.message).toContain('ollama pull qwen3:8b');
  });

  it('404 for a bare name also says how the name was read', async () => {
    fake.set({ models: [] });
    const m = createModel('llamacpp2:q4', { ...defaultConfig(), ollama: { baseURL: fake.url, timeoutSeconds: 5 } });
    const err = await expectKind(m.generate(START, { tools: [] }), 'not-found');
    expect(err.message).toContain('ollama pull llamacpp2:q4');
    expect(err.message).toContain('as an Ollama model');
  });

  it('404 from something that is not Ollama → not-found about the base URL', async () => {
    const m = new OllamaModel({ model: 'qwen3:8b', baseURL: `${fake.url}/v1`, timeoutMs: 5000 });
    const err = await expectKind(m.generate(START, { tools: [] }), 'not-found');
    expect(err.message).toContain('ollama.baseURL');
  });

  it('500 → server, with the body’s message', async () => {
    fake.set({ fault: 'server-error' });
    const err = await expectKind(model().generate(START, { tools: [RUN] }), 'server');
    expect(err.status).toBe(500);
    expect(err.message).toContain('llama runner process has terminated');
  });

  it('a model without tool support → rejected, suggesting one with it', async () => {
    fake.set({ fault: 'no-tools' });
    const err = await expectKind(model(5000, 'gemma:2b').generate(START, { tools: [RUN] }), 'rejected');
    expect(err.message).toContain('does not support tools');
    expect(err.message).toContain('-m ollama:qwen3:8b');
  });

  it('a body that is not NDJSON → bad-reply', async () => {
    fake.set({ fault: 'malformed' });
    const err = await expectKind(model().generate(START, { tools: [RUN] }), 'bad-reply');
    expect(err.message).toContain('this is not json');
  });

  it('an HTML page → bad-reply', async () => {
    fake.set({ fault: 'html' });
    await expectKind(model().generate(START, { tools: [RUN] }), 'bad-reply');
  });

  it('an error line in the stream → server', async () => {
    fake.set({ fault: 'stream-error' });
    const err = await expectKind(model().generate(START, { tools: [] }), 'server');
    expect(err.message).toContain('an error was encountered while running the model');
  });

  it('a stream that ends without `done` → server, not a silently short reply', async () => {
    fake.set({ fault: 'truncated' });
    const err = await expectKind(model().generate(START, { tools: [] }), 'server');
    expect(err.message).toContain('ended before');
  });

  it('a connection dropped mid-stream → server', async () => {
    fake.set({ fault: 'drop' });
    await expectKind(model().generate(START, { tools: [] }), 'server');
  });

  it('tool-call arguments that are not JSON are kept as the raw string, and echoed back as {}', async () => {
    fake.set({ fault: 'bad-args' });
    const m = model();
    const reply = await m.generate(START, { tools: [RUN] });
    expect(reply.toolCalls[0].arguments).toBe('{"command": "ls');
    fake.set({ fault: 'none' });
    const call = reply.toolCalls[0];
    await m.generate(
      [...START, { role: 'assistant', content: '', toolCalls: [call] }, { role: 'tool', toolCallId: call.id, name: call.name, content: 'error: arguments are not JSON' }],
      { tools: [RUN] },
    );
    const body = fake.requests[1].body as { messages: Array<{ tool_calls?: Array<{ function: { arguments: unknown } }> }> };
    expect(body.messages[2].tool_calls?.[0].function.arguments).toEqual({});
  });

  it('a server that never answers → timeout within the bound', async () => {
    fake.set({ fault: 'hang' });
    const started = Date.now();
    const err = await expectKind(model(300).generate(START, { tools: [] }), 'timeout');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(2000);
    expect(err.message).toContain('ollama.timeoutSeconds');
  });

  it('a slow stream that keeps sending is not cut off: the bound is on silence, not on the whole reply', async () => {
    fake.set({ chunkDelayMs: 120, text: 'one two three four five six' });
    const started = Date.now();
    const reply = await model(400).generate(START, { tools: [] });
    expect(reply.text).toBe('one two three four five six');
    expect(Date.now() - started).toBeGreaterThan(600);
  });

  it('a stream that stalls → timeout', async () => {
    vi.stubGlobal('fetch', stallingFetch('{"model":"qwen3:8b","message":{"role":"assistant","content":"Hel"},"done":false}\n', 'application/x-ndjson'));
    const started = Date.now();
    const err = await expectKind(model(300).generate(START, { tools: [] }), 'timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err.message).toContain('stopped sending');
  });

  it('honours ollama.timeoutSeconds from the config', async () => {
    fake.set({ fault: 'hang' });
    const m = createModel('ollama:qwen3:8b', { ...defaultConfig(), ollama: { baseURL: fake.url, timeoutSeconds: 1 } });
    const started = Date.now();
    const err = await expectKind(m.generate(START, { tools: [] }), 'timeout');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(2500);
    expect(err.message).toContain('1 s');
  });

  it('an abort signal ends a hanging call at once → aborted', async () => {
    fake.set({ fault: 'hang' });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const started = Date.now();
    await expectKind(model(10_000).generate(START, { tools: [], signal: ctl.signal }), 'aborted');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('an abort signal ends a stalled stream → aborted', async () => {
    fake.set({ fault: 'stall' });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    await expectKind(model(10_000).generate(START, { tools: [], signal: ctl.signal }), 'aborted');
  });

  it('an already-aborted signal sends nothing', async () => {
    const ctl = new AbortController();
    ctl.abort();
    await expectKind(model().generate(START, { tools: [], signal: ctl.signal }), 'aborted');
    expect(fake.requests).toHaveLength(0);
  });
});
