// Issue 19's "done when": `wisp chat -m llama:tiny-toolcaller.gguf`, no model server anywhere, answers "make a marker
// file" with the approval dialog, and approving runs `touch marker`. A real pseudo-terminal, the built CLI, the real
// tiny model in-process. Skips, saying so, when the model file is absent.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshHome } from '../helpers/cli.js';
import { PtyTerm } from '../helpers/pty-term.js';
import { TINY, haveTiny, warnIfNoTiny } from '../helpers/tiny-model.js';

warnIfNoTiny('wisp chat with the tiny model');

const READY = 'type a prompt, or /help';
let term: PtyTerm | undefined;

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx tsc -p tsconfig.build.json)`);
});
afterAll(() => term?.kill());

describe.skipIf(!haveTiny)('wisp chat with the tiny model in-process', () => {
  it('"make a marker file" opens the approval dialog for touch marker; y runs it', async () => {
    const { dir, home } = freshHome();
    const work = join(dir, 'work');
    mkdirSync(work);
    // No model server is involved: the config points both server backends at a closed port.
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({
        models: { threads: 1, maxTokens: 128, contextSize: 4096 },
        ollama: { baseURL: 'http://127.0.0.1:9' },
        openai: { baseURL: 'http://127.0.0.1:9/v1' },
      }),
    );
    const t = new PtyTerm(process.execPath, [BIN, 'chat', '-m', `llama:${TINY}`], { cwd: work, env: { WISP_HOME: home } });
    term = t;
    await t.waitFor(READY, 60_000);
    await t.typeLine('make a marker file');
    const dialog = await t.waitFor(/approve a command\?/, 180_000).catch((err: unknown) => {
      throw new Error(`the tiny model no longer asks for a command for "make a marker file": ${String(err)}`);
    });
    expect(dialog).toContain('touch marker');
    expect(existsSync(join(work, 'marker'))).toBe(false);
    await t.answerDialog('y', 'approve a command?');
    const after = await t.waitFor(/run_command: touch marker — approved/, 120_000);
    expect(after).not.toContain('approve a command?');
    expect(existsSync(join(work, 'marker'))).toBe(true);
    await t.waitFor('Done.', 120_000);
    t.write('\x03/quit\r');
    await expect(t.exited).resolves.toMatchObject({ exitCode: 0 });
  }, 400_000);
});
