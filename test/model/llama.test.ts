// The in-process backend. File checks need no model; the rest runs the real tiny model from ../shared/models and
// skips, saying so, when that file is absent.
import { existsSync, mkdirSync, mkdtempSync, openSync, readSync, closeSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { checkGgufFile, resolveGgufPath } from '../../src/model/gguf-file.js';
import { MAX_GRAMMAR_BOUND, toGrammarSchema } from '../../src/model/llama-schema.js';
import { createModel, isModelError, parseModelSpec } from '../../src/model/index.js';
import { askOperatorTool } from '../../src/tools/ask-operator.js';
import { selectTools, toolSchema } from '../../src/tools/registry.js';
import { lengthNotice } from '../../src/session/conversation.js';

// CI clones the repo with shared/ beside it; a worktree under wt/ has it one more level up.
const CANDIDATES = ['../../../shared/models/tiny-toolcaller.gguf', '../../../../shared/models/tiny-toolcaller.gguf'].map((p) => resolve(__dirname, p));
const TINY = CANDIDATES.find((p) => existsSync(p)) ?? CANDIDATES[0]!;
const haveTiny = existsSync(TINY);
if (!haveTiny) console.warn(`skipping the in-process model tests: ${TINY} is absent (see ../shared/models/README.md)`);

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'wisp-llama-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = ConfigSchema.parse({ models: { threads: 1, maxTokens: 64, contextSize: 2048, loadTimeoutSeconds: 60 } });

describe('llama: specs and files', () => {
  it('parses llama:PATH and keeps the path as written', () => {
    expect(parseModelSpec('llama:./m dir/x.gguf')).toEqual({ backend: 'llama', name: './m dir/x.gguf', implied: false });
    expect(() => parseModelSpec('llama:')).toThrow(/names no file/);
    expect(() => parseModelSpec('llama.cpp:x')).toThrow(/llama:PATH\.gguf/);
  });

  it('llama:NAME resolves under $WISP_HOME/models; paths resolve from the working directory', () => {
    expect(resolveGgufPath('qwen', '/h', '/w')).toBe('/h/models/qwen.gguf');
    expect(resolveGgufPath('x.gguf', '/h', '/w')).toBe('/w/x.gguf');
    expect(resolveGgufPath('../m/x', '/h', '/w')).toBe('/m/x');
  });

  it('a missing file, a directory and a file with the wrong magic are usage errors before anything loads', () => {
    const usage = (f: () => unknown, re: RegExp) => {
      try {
        f();
      } catch (err) {
        expect(isModelError(err, 'usage')).toBe(true);
        expect((err as Error).message).toMatch(re);
        return;
      }
      throw new Error('expected a usage error');
    };
    usage(() => checkGgufFile(join(dir, 'none.gguf'), 'llama:none'), /does not exist/);
    mkdirSync(join(dir, 'd.gguf'));
    usage(() => checkGgufFile(join(dir, 'd.gguf'), 'llama:d'), /is a directory/);
    writeFileSync(join(dir, 'junk.gguf'), 'GGML not really');
    usage(() => checkGgufFile(join(dir, 'junk.gguf'), 'llama:junk'), /not a GGUF model file/);
    writeFileSync(join(dir, 'short.gguf'), 'GG');
    usage(() => checkGgufFile(join(dir, 'short.gguf'), 'llama:short'), /not a GGUF model file/);
    usage(() => createModel(`llama:${join(dir, 'junk.gguf')}`, config), /not a GGUF model file/);
  });
});

describe('the length cut-off', () => {
  it('says where the reply was cut and by which key', () => {
    expect(lengthNotice(4096)).toBe('(the reply was cut at 4096 tokens: models.maxTokens)');
  });
});

describe('llama: tool schemas for the grammar', () => {
  it('no bound the llama.cpp grammar refuses (2000 and up) survives, the zod check keeps its own', () => {
    const schema = toGrammarSchema(toolSchema(askOperatorTool));
    const text = JSON.stringify(schema);
    expect(text).not.toMatch(/"maxLength":\s*([2-9]\d{3}|\d{5,})/);
    expect(MAX_GRAMMAR_BOUND).toBeLessThan(2000);
    expect(askOperatorTool.schema.safeParse({ question: 'x'.repeat(2001) }).success).toBe(false);
  });

  it('no advertised tool schema carries a bound of exactly 2000 (llama-server refuses every request then)', () => {
    for (const tool of selectTools({ disabled: [] })) expect(JSON.stringify(toolSchema(tool)), tool.name).not.toMatch(/"max(Length|Items)":2000\b/);
  });

  it('keeps the key order, the descriptions and the required list; drops unknown keywords', () => {
    const out = toGrammarSchema({
      type: 'object',
      properties: { a: { type: 'string', minLength: 1, maxLength: 16384, pattern: 'x', description: 'A' } },
      required: ['a'],
      additionalProperties: false,
    });
    expect(JSON.stringify(out)).toBe(
      '{"type":"object","properties":{"a":{"type":"string","minLength":1,"description":"A"}},"required":["a"],"additionalProperties":false}',
    );
    expect(toGrammarSchema({})).toHaveProperty('oneOf');
  });
});

describe.skipIf(!haveTiny)('llama: the tiny model in-process', () => {
  it('loads once and streams a reply whose pieces join to the text', async () => {
    const model = createModel(`llama:${TINY}`, config);
    const pieces: string[] = [];
    const reply = await model.generate([{ role: 'user', content: 'hello' }], { tools: [], onText: (d) => pieces.push(d) });
    expect(pieces.join('')).toBe(reply.text);
    expect(reply.text.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(reply.finishReason);
  }, 300_000);

  it('stops at models.maxTokens and says finishReason length', async () => {
    const short = createModel(`llama:${TINY}`, ConfigSchema.parse({ models: { threads: 1, maxTokens: 16, contextSize: 2048 } }));
    const reply = await short.generate([{ role: 'user', content: 'tell me a long story' }], { tools: [] });
    expect(reply.finishReason).toBe('length');
  }, 300_000);

  it('an abort mid-reply rejects with kind aborted', async () => {
    const model = createModel(`llama:${TINY}`, ConfigSchema.parse({ models: { threads: 1, maxTokens: 2000, contextSize: 4096 } }));
    const ac = new AbortController();
    let n = 0;
    const err = await model
      .generate([{ role: 'user', content: 'tell me a long story' }], {
        tools: [],
        signal: ac.signal,
        onText: () => {
          if (++n === 3) ac.abort();
        },
      })
      .catch((e: unknown) => e);
    expect(isModelError(err, 'aborted')).toBe(true);
  }, 300_000);

  it('a conversation longer than the context ends in a reply (node-llama-cpp shifts the context) or a ModelError, never a raw crash', async () => {
    const tiny = createModel(`llama:${TINY}`, ConfigSchema.parse({ models: { threads: 1, maxTokens: 16, contextSize: 512 } }));
    const got = await tiny.generate([{ role: 'user', content: 'word '.repeat(3000) }], { tools: [] }).catch((e: unknown) => e);
    if (got instanceof Error) expect(isModelError(got)).toBe(true);
    else expect(typeof (got as { text: unknown }).text).toBe('string');
  }, 300_000);

  it('a truncated GGUF (right magic, missing tensor data) fails to load with a clear error', async () => {
    const cut = join(dir, 'cut.gguf');
    const fd = openSync(TINY, 'r');
    const head = Buffer.alloc(200_000);
    readSync(fd, head, 0, head.length, 0);
    closeSync(fd);
    writeFileSync(cut, head);
    const model = createModel(`llama:${cut}`, ConfigSchema.parse({ models: { threads: 1, loadTimeoutSeconds: 60 } }));
    const err = await model.generate([{ role: 'user', content: 'hello' }], { tools: [] }).catch((e: unknown) => e);
    expect(isModelError(err)).toBe(true);
    expect((err as Error).message).toMatch(/could not load|took longer/);
  }, 300_000);
});
