import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { createModel } from '../../src/model/index.js';
import { OpenAIModel } from '../../src/model/openai.js';
import { ModelError } from '../../src/model/types.js';
import type { ChatMessage, ModelErrorKind, ToolSpec } from '../../src/model/types.js';
import { closedPortURL, stallingFetch, startFakeLlm } from '../helpers/fake-llm.js';
import type { FakeLlm } from '../helpers/fake-llm.js';

const RUN: ToolSpec = {
  name: 'run_command',
  description: 'Run a shell command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};
const READ: ToolSpec = {
  name: 'read_file',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
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

function model(timeoutMs = 5000, apiKey?: string): OpenAIModel {
  return new OpenAIModel({ model: 'local', baseURL: fake.openaiURL, timeoutMs, ...(apiKey ? { apiKey } : {}) });
}

async function expectKind(p: Promise<unknown>, kind: ModelErrorKind): Promise<ModelError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    const e = err as ModelError;
    expect(e.kind, e.message).toBe(kind);
    return e;
  }
  throw new Error('expected the call to fail');
}


describe('openai backend: a tool call, then a reply', () => {
  it('joins streamed tool-call fragments, sends the result back in OpenAI shape, then streams the text', async () => {
    fake.set({ thinking: 'A listing, then.' });
    const config = { ...defaultConfig(), openai: { baseURL: fake.openaiURL, timeoutSeconds: 5 } };
    const m = createModel('openai:local', config, { env: {} });
    const thinking: string[] = [];
    const first = await m.generate(START, { tools: [RUN], onThinking: (d) => thinking.push(d) });

    expect(first.text).toBe('');
    expect(first.toolCalls).toEqual([{ id: 'call_oa0', name: 'run_command', arguments: { command: 'ls -la' } }]);
    expect(first.finishReason).toBe('tool_calls');
    expect(first.usage).toEqual({ promptTokens: 42, completionTokens: 7 });
    expect(thinking.join('')).toBe('A listing, then.');

    const sent = fake.requests[0];
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toMatchObject({
      model: 'local',
      stream: true,
      messages: START,
      tools: [{ type: 'function', function: { name: 'run_command', description: 'Run a shell command', parameters: RUN.parameters } }],
    });

    const call = first.toolCalls[0];
    const deltas: string[] = [];
    const second = await m.generate(
      [
        ...START,
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: call.id, name: call.name, content: 'a.txt\nb.txt' },
      ],
      { tools: [RUN], onText: (d) => deltas.push(d) },
    );
    expect(second.text).toBe('The directory holds two files.');
    expect(second.toolCalls).toEqual([]);
    expect(second.finishReason).toBe('stop');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(second.text);

    const body = fake.requests[1].body as { messages: unknown[] };
    expect(body.messages[2]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'call_oa0', type: 'function', function: { name: 'run_command', arguments: '{"command":"ls -la"}' } }],
    });
    expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_oa0', content: 'a.txt\nb.txt' });
  });

  it('joins two interleaved tool calls by index', async () => {
    fake.set({
      toolCalls: [
        { name: 'read_file', arguments: { path: 'README.md' } },
        { name: 'run_command', arguments: { command: 'git status --short' } },
      ],
    });
    const reply = await model().generate(START, { tools: [READ, RUN] });
    expect(reply.toolCalls).toEqual([
      { id: 'call_oa0', name: 'read_file', arguments: { path: 'README.md' } },
      { id: 'call_oa1', name: 'run_command', arguments: { command: 'git status --short' } },
    ]);
  });

  it('sends Authorization: Bearer with OPENAI_API_KEY', async () => {
    fake.set({ apiKey: 'sk-test' });
    const config = { ...defaultConfig(), openai: { baseURL: fake.openaiURL, timeoutSeconds: 5 } };
    const m = createModel('openai:local', config, { env: { OPENAI_API_KEY: 'sk-test' } });
    await m.generate(START, { tools: [RUN] });
    expect(fake.requests[0].headers.authorization).toBe('Bearer sk-test');
  });

  it('reads a whole (non-streamed) completion too', async () => {
    fake.set({ mode: 'plain' });
    const m = model();
    const first = await m.generate(START, { tools: [RUN] });
    expect(first.toolCalls).toEqual([{ id: 'call_oa0', name: 'run_command', arguments: { command: 'ls -la' } }]);
    const deltas: string[] = [];
    const second = await m.generate(
      [...START, { role: 'assistant', content: '', toolCalls: first.toolCalls }, { role: 'tool', toolCallId: 'call_oa0', name: 'run_command', content: 'x' }],
      { tools: [RUN], onText: (d) => deltas.push(d) },
    );
    expect(second.text).toBe('The directory holds two files.');
    expect(deltas.join('')).toBe(second.text);
  });

  it('leaves tools out of the request when none are offered', async () => {
    const reply = await model().generate(START, { tools: [] });
    expect(reply.text).toBe('The directory holds two files.');
    expect(fake.requests[0].body).not.toHaveProperty('tools');
  });
});

describe('openai backend: failures', () => {
  it('connection refused → unreachable, naming the URL and how to start a server', async () => {
    const url = await closedPortURL();
    const m = new OpenAIModel({ model: 'local', baseURL: `${url}/v1`, timeoutMs: 5000 });
    const err = await expectKind(m.generate(START, { tools: [] }), 'unreachable');
    expect(err.message).toContain(`${url}/v1/chat/completions`);
    expect(err.message).toContain('llama-server');
    expect(err.message).toContain('openai.baseURL');
    expect(err.message).toContain('-m ollama:NAME');
  });

  it('401 without a key → auth, telling to set OPENAI_API_KEY', async () => {
    fake.set({ apiKey: 'sk-right' });
    const err = await expectKind(model().generate(START, { tools: [] }), 'auth');
    expect(err.status).toBe(401);
    expect(err.message).toContain('OPENAI_API_KEY');
    expect(err.message).toContain('Invalid API key provided');
  });

  it('401 with a wrong key → auth, saying the key was refused', async () => {
    fake.set({ apiKey: 'sk-right' });
    const err = await expectKind(model(5000, 'sk-wrong').generate(START, { tools: [] }), 'auth');
    expect(err.message).toContain('refused the key in OPENAI_API_KEY');
  });

  it('404 model → not-found, with how to list the served models', async () => {
    fake.set({ models: ['other'] });
    const err = await expectKind(model().generate(START, { tools: [] }), 'not-found');
    expect(err.message).toContain('no model "local"');
    expect(err.message).toContain(`curl ${fake.openaiURL}/models`);
  });

  it('404 for a base URL without /v1 → not-found about openai.baseURL', async () => {
    const m = new OpenAIModel({ model: 'local', baseURL: fake.url, timeoutMs: 5000 });
    const err = await expectKind(m.generate(START, { tools: [] }), 'not-found');
    expect(err.message).toContain('/v1');
    expect(err.message).toContain('openai.baseURL');
  });

  it('500 → server, with the body’s message', async () => {
    fake.set({ fault: 'server-error' });
    const err = await expectKind(model().generate(START, { tools: [] }), 'server');
    expect(err.message).toContain('KV cache is full');
  });

  it('400 → rejected, with the body’s message', async () => {
    fake.set({ fault: 'no-tools' });
    const err = await expectKind(model().generate(START, { tools: [RUN] }), 'rejected');
    expect(err.message).toContain('does not support tools');
  });

  it('an event that is not JSON → bad-reply', async () => {
    fake.set({ fault: 'malformed' });
    const err = await expectKind(model().generate(START, { tools: [] }), 'bad-reply');
    expect(err.message).toContain('{not json');
  });

  it('an HTML page → bad-reply', async () => {
    fake.set({ fault: 'html' });
    await expectKind(model().generate(START, { tools: [] }), 'bad-reply');
  });

  it('an error event in the stream → server', async () => {
    fake.set({ fault: 'stream-error' });
    const err = await expectKind(model().generate(START, { tools: [] }), 'server');
    expect(err.message).toContain('the model crashed');
  });

  it('a stream that ends without finish_reason or [DONE] → server', async () => {
    fake.set({ fault: 'truncated' });
    await expectKind(model().generate(START, { tools: [RUN] }), 'server');
  });

  it('a connection dropped mid-stream → server', async () => {
    fake.set({ fault: 'drop' });
    await expectKind(model().generate(START, { tools: [] }), 'server');
  });

  it('tool-call arguments that are not JSON stay the raw string, and go back exactly as the model wrote them', async () => {
    fake.set({ fault: 'bad-args' });
    const m = model();
    const reply = await m.generate(START, { tools: [RUN] });
    expect(reply.toolCalls).toEqual([{ id: 'call_oa0', name: 'run_command', arguments: '{"command": "ls' }]);
    fake.set({ fault: 'none' });
    const call = reply.toolCalls[0];
    const second = await m.generate(
      [...START, { role: 'assistant', content: '', toolCalls: [call] }, { role: 'tool', toolCallId: call.id, name: call.name, content: 'error: not JSON' }],
      { tools: [RUN] },
    );
    expect(second.text).toBe('The directory holds two files.');
    const body = fake.requests[1].body as { messages: Array<{ tool_calls?: Array<{ function: { arguments: unknown } }> }> };
    expect(body.messages[2].tool_calls?.[0].function.arguments).toBe('{"command": "ls');
  });

  it('a server that never answers → timeout within the bound', async () => {
    fake.set({ fault: 'hang' });
    const started = Date.now();
    const err = await expectKind(model(300).generate(START, { tools: [] }), 'timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err.message).toContain('openai.timeoutSeconds');
  });

  it('a slow stream that keeps sending is not cut off: the bound is on silence, not on the whole reply', async () => {
    fake.set({ chunkDelayMs: 120, text: 'one two three four five six' });
    const started = Date.now();
    const reply = await model(400).generate(START, { tools: [] });
    expect(reply.text).toBe('one two three four five six');
    expect(Date.now() - started).toBeGreaterThan(600);
  });

  it('a stream that stalls → timeout', async () => {
    vi.stubGlobal('fetch', stallingFetch('data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}\n\n', 'text/event-stream'));
    const started = Date.now();
    await expectKind(model(300).generate(START, { tools: [] }), 'timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('honours openai.timeoutSeconds from the config', async () => {
    fake.set({ fault: 'hang' });
    const m = createModel('openai:local', { ...defaultConfig(), openai: { baseURL: fake.openaiURL, timeoutSeconds: 1 } }, { env: {} });
    const started = Date.now();
    await expectKind(m.generate(START, { tools: [] }), 'timeout');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(2500);
  });

  it('an abort signal ends the call → aborted', async () => {
    fake.set({ fault: 'stall' });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    const started = Date.now();
    await expectKind(model(10_000).generate(START, { tools: [], signal: ctl.signal }), 'aborted');
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('an error thrown by onText ends the call with that error', async () => {
    const boom = new Error('display closed');
    await expect(
      model().generate(START, {
        tools: [],
        onText: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
  });
});
