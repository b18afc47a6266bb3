// The in-process backend on a GGUF file this suite writes itself (test/helpers/gguf-writer.ts): random weights, a
// byte-level vocabulary. No file from outside the repo: loading, streaming, abort, the context bound, the length cut-off
// and bad files. One model file, loaded once (the backend shares it per process).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { createModel, isModelError } from '../../src/model/index.js';
import { writeTinyGguf } from '../helpers/gguf-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'wisp-gguf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'random.gguf');
const bytes = writeTinyGguf(file, { chatTemplate: "{% for m in messages %}{{ m.role }}: {{ m.content }}\n{% endfor %}assistant:" });
const cfg = (models: Record<string, unknown>) => ConfigSchema.parse({ models: { threads: 1, loadTimeoutSeconds: 60, ...models } });
const say = (text: string) => [{ role: 'user' as const, content: text }];

describe('a GGUF written by the test helper', () => {
  it('loads and streams; the pieces join to the text; it stops at models.maxTokens with finishReason length', async () => {
    const model = createModel(`llama:${file}`, cfg({ maxTokens: 16, contextSize: 512 }));
    const pieces: string[] = [];
    const reply = await model.generate(say('hello'), { tools: [], onText: (d) => pieces.push(d) });
    expect(pieces.join('')).toBe(reply.text);
    expect(pieces.length).toBeGreaterThan(0);
    expect(reply.finishReason).toBe('length'); // its end-of-sequence token can never win (see the helper)
    expect(reply.usage).toMatchObject({ completionTokens: 16 });
  }, 120_000);

  it('an abort during the reply rejects with kind aborted', async () => {
    const model = createModel(`llama:${file}`, cfg({ maxTokens: 400, contextSize: 1024 }));
    const ac = new AbortController();
    let tokens = 0;
    const err = await model
      .generate(say('hello'), {
        tools: [],
        signal: ac.signal,
        onText: () => {
          if (++tokens === 2) ac.abort();
        },
      })
      .catch((e: unknown) => e);
    expect(isModelError(err, 'aborted')).toBe(true);
  }, 120_000);

  it('a prompt longer than the context is refused with its size', async () => {
    const model = createModel(`llama:${file}`, cfg({ maxTokens: 16, contextSize: 512 }));
    const err = await model.generate(say('x'.repeat(2000)), { tools: [] }).catch((e: unknown) => e);
    expect(isModelError(err, 'rejected')).toBe(true);
    expect((err as Error).message).toMatch(/does not fit the model's context \(512 tokens\)/);
  }, 120_000);

  it('tools with a template that has no <tool_call> syntax: a clear refusal, not a guess', async () => {
    const model = createModel(`llama:${file}`, cfg({ maxTokens: 16, contextSize: 512 }));
    const err = await model
      .generate(say('hi'), { tools: [{ name: 'run_command', description: 'run', parameters: { type: 'object' } }] })
      .catch((e: unknown) => e);
    expect(isModelError(err, 'rejected')).toBe(true);
    expect((err as Error).message).toMatch(/no tool-call syntax.*--no-tools/);
  }, 120_000);

  it('bad files: wrong magic and a directory are usage errors; a file cut inside its tensors fails to load, clearly', async () => {
    const wrong = join(dir, 'wrong.gguf');
    writeFileSync(wrong, Buffer.concat([Buffer.from('GGML'), bytes.subarray(4)]));
    expect(() => createModel(`llama:${wrong}`, cfg({}))).toThrow(/not a GGUF model file/);
    expect(() => createModel(`llama:${dir}`, cfg({}))).toThrow(/is a directory/);
    const cut = join(dir, 'cut.gguf');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const err = await createModel(`llama:${cut}`, cfg({}))
      .generate(say('hi'), { tools: [] })
      .catch((e: unknown) => e);
    expect(isModelError(err)).toBe(true);
    expect((err as Error).message).toMatch(/could not load|took longer/);
  }, 120_000);
});
