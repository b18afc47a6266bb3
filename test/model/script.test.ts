import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { createModel } from '../../src/model/index.js';
import { pieces } from '../../src/model/script.js';
import { ModelError } from '../../src/model/types.js';
import type { ChatMessage, LanguageModel } from '../../src/model/types.js';

const dir = mkdtempSync(join(tmpdir(), 'wisp-script-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function scriptFile(content: unknown): string {
  const file = join(dir, `s${++n}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}
function load(file: string): LanguageModel {
  return createModel(`script:${file}`, defaultConfig());
}
const USER: ChatMessage[] = [{ role: 'user', content: 'go' }];

function usageError(fn: () => unknown): ModelError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ModelError);
    const e = err as ModelError;
    expect(e.kind).toBe('usage');
    expect(e.exitCode).toBe(64);
    return e;
  }
  throw new Error('expected a usage error');
}

const DEMO = {
  responses: [
    { toolCalls: [{ name: 'run_command', arguments: { command: 'touch marker' } }] },
    { text: 'Made it; now reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'marker' } }, { name: 'run_command', arguments: { command: 'ls' } }] },
    { text: 'Created the marker.' },
  ],
};

describe('script backend', () => {
  it('plays the responses in order, with tool call ids call_1, call_2, …', async () => {
    const file = scriptFile(DEMO);
    const m = load(file);
    expect(m.id).toBe(`script:${file}`);

    const r1 = await m.generate(USER, { tools: [] });
    expect(r1).toEqual({
      text: '',
      toolCalls: [{ id: 'call_1', name: 'run_command', arguments: { command: 'touch marker' } }],
      finishReason: 'tool_calls',
    });
    const r2 = await m.generate(USER, { tools: [] });
    expect(r2.text).toBe('Made it; now reading.');
    expect(r2.toolCalls).toEqual([
      { id: 'call_2', name: 'read_file', arguments: { path: 'marker' } },
      { id: 'call_3', name: 'run_command', arguments: { command: 'ls' } },
    ]);
    const deltas: string[] = [];
    const r3 = await m.generate(USER, { tools: [], onText: (d) => deltas.push(d) });
    expect(r3).toEqual({ text: 'Created the marker.', toolCalls: [], finishReason: 'stop' });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Created the marker.');
  });

  it('past the end → script-exhausted, naming the file', async () => {
    const file = scriptFile({ responses: [{ text: 'only one' }] });
    const m = load(file);
    await m.generate(USER, { tools: [] });
    const err = await m.generate(USER, { tools: [] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ModelError);
    expect((err as ModelError).kind).toBe('script-exhausted');
    expect((err as ModelError).exitCode).toBe(1);
    expect((err as ModelError).message).toContain(file);
  });

  it('fork() starts a new conversation at the first response; the original goes on where it was', async () => {
    const m = load(scriptFile(DEMO));
    await m.generate(USER, { tools: [] });
    await m.generate(USER, { tools: [] });
    const f = m.fork();
    const first = await f.generate(USER, { tools: [] });
    expect(first.toolCalls).toEqual([{ id: 'call_1', name: 'run_command', arguments: { command: 'touch marker' } }]);
    expect((await m.generate(USER, { tools: [] })).text).toBe('Created the marker.');
    expect((await f.generate(USER, { tools: [] })).text).toBe('Made it; now reading.');
  });

  it('hands out copies of the arguments: a caller changing them does not change the script', async () => {
    const m = load(scriptFile(DEMO));
    const r = await m.generate(USER, { tools: [] });
    (r.toolCalls[0].arguments as { command: string }).command = 'rm -rf /';
    const again = await m.fork().generate(USER, { tools: [] });
    expect(again.toolCalls[0].arguments).toEqual({ command: 'touch marker' });
  });

  it('passes string arguments through raw, to rehearse a model that wrote invalid JSON; missing arguments are {}', async () => {
    const m = load(scriptFile({ responses: [{ toolCalls: [{ name: 'run_command', arguments: '{"command": "ls' }, { name: 'ask_operator' }] }] }));
    const r = await m.generate(USER, { tools: [] });
    expect(r.toolCalls.map((c) => c.arguments)).toEqual(['{"command": "ls', {}]);
  });

  it('waits delayMs, and an abort signal cuts the wait short', async () => {
    const m = load(scriptFile({ responses: [{ text: 'slow', delayMs: 150 }, { text: 'slower', delayMs: 10_000 }] }));
    const started = Date.now();
    expect((await m.generate(USER, { tools: [] })).text).toBe('slow');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 50);
    const err = await m.generate(USER, { tools: [], signal: ctl.signal }).catch((e: unknown) => e);
    expect((err as ModelError).kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('an already-aborted signal → aborted', async () => {
    const m = load(scriptFile(DEMO));
    const ctl = new AbortController();
    ctl.abort();
    const err = await m.generate(USER, { tools: [], signal: ctl.signal }).catch((e: unknown) => e);
    expect((err as ModelError).kind).toBe('aborted');
  });

  it('resolves a relative path against the given directory', async () => {
    const sub = join(dir, 'sub');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'rel.json'), JSON.stringify({ responses: [{ text: 'relative' }] }));
    const m = createModel('script:sub/rel.json', defaultConfig(), { cwd: dir });
    expect(m.id).toBe(`script:${join(sub, 'rel.json')}`);
    expect((await m.generate(USER, { tools: [] })).text).toBe('relative');
  });
});

describe('script backend: bad files are usage errors that name the file and the problem', () => {
  it('a missing file', () => {
    const file = join(dir, 'nope.json');
    const err = usageError(() => load(file));
    expect(err.message).toContain(file);
    expect(err.message).toContain('no such file');
  });

  it('a directory', () => {
    const err = usageError(() => load(dir));
    expect(err.message).toContain('directory');
  });

  it('not JSON', () => {
    const file = scriptFile('{"responses": [');
    const err = usageError(() => load(file));
    expect(err.message).toContain(file);
    expect(err.message).toContain('not valid JSON');
  });

  it('no responses', () => {
    const err = usageError(() => load(scriptFile({ responses: [] })));
    expect(err.message).toContain('at least one response');
  });

  it('a response with neither text nor toolCalls', () => {
    const err = usageError(() => load(scriptFile({ responses: [{ text: 'ok' }, {}] })));
    expect(err.message).toContain('responses[1]');
    expect(err.message).toContain('"text", "toolCalls" or both');
  });

  it('a misspelt key (tool_calls) is refused, not silently ignored', () => {
    const err = usageError(() => load(scriptFile({ responses: [{ tool_calls: [{ name: 'x', arguments: {} }] }] })));
    expect(err.message).toContain('tool_calls');
  });

  it('a tool call without a name', () => {
    const err = usageError(() => load(scriptFile({ responses: [{ toolCalls: [{ arguments: {} }] }] })));
    expect(err.message).toContain('responses[0].toolCalls[0].name');
  });

  it('the top level is not {"responses": …}', () => {
    const err = usageError(() => load(scriptFile([{ text: 'a' }])));
    expect(err.message).toContain('script format');
    expect(err.message).toContain('docs/models.md');
  });
});

describe('pieces', () => {
  it('cuts text into up to three pieces that join back, never inside a code point', () => {
    expect(pieces('')).toEqual([]);
    expect(pieces('a')).toEqual(['a']);
    expect(pieces('abcdef')).toEqual(['ab', 'cd', 'ef']);
    const emoji = '👍🏽ok🎉';
    expect(pieces(emoji).join('')).toBe(emoji);
    for (const p of pieces(emoji)) expect(p).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });
});

describe('docs/models.md', () => {
  it('its script example is a valid script that plays as described', async () => {
    const doc = readFileSync(new URL('../../docs/models.md', import.meta.url), 'utf8');
    const block = /```json\n([\s\S]*?)```/.exec(doc);
    expect(block).not.toBeNull();
    const m = load(scriptFile(block![1]));
    expect((await m.generate(USER, { tools: [] })).toolCalls[0]).toEqual({
      id: 'call_1',
      name: 'run_command',
      arguments: { command: 'touch marker' },
    });
    await m.generate(USER, { tools: [] });
    expect((await m.generate(USER, { tools: [] })).text).toBe('Created the marker.');
  });
});
