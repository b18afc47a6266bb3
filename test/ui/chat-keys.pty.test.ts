// Issue 14 points 1–3 in a real pseudo-terminal (node-pty + headless xterm), against the built CLI and a slow
// script model: prose typed at 10 keys a second straddling the dialog's opening, a key 100 ms after it opens, a
// paste holding y/s/p/a, type-ahead during a turn, and Ctrl+C / Ctrl+D. Each asserts that nothing ran and that the
// audit log holds no approval. Needs the build (npx tsc -p tsconfig.build.json).
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshHome } from '../helpers/cli.js';
import { PtyTerm } from '../helpers/pty-term.js';

const READY = 'type a prompt, or /help';
const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let terms: PtyTerm[] = [];
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx tsc -p tsconfig.build.json)`);
});
afterEach(() => {
  for (const t of terms) t.kill();
  terms = [];
});

function chat(responses: unknown[]) {
  const { dir, home } = freshHome();
  const work = join(dir, 'work');
  mkdirSync(work);
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  const t = new PtyTerm(process.execPath, [BIN, 'chat', '-m', `script:${script}`], { cwd: work, env: { WISP_HOME: home } });
  terms.push(t);
  /** Every approval.decided event in the audit log (there must be none that approved). */
  const approvals = () => {
    const logs = join(home, 'logs');
    if (!existsSync(logs)) return [];
    return readdirSync(logs)
      .flatMap((f) => readFileSync(join(logs, f), 'utf8').split('\n'))
      .filter((l) => l.includes('"approval.decided"'));
  };
  return { t, work, home, approvals };
}

async function typeAt(t: PtyTerm, text: string, gapMs: number) {
  for (const ch of text) {
    t.write(ch);
    await sleep(gapMs);
  }
}

describe('wisp chat answers only deliberate keys (pty)', () => {
  it('prose at 10 keys/s straddling the opening approves nothing and is kept in the input line', async () => {
    const { t, work, approvals } = chat([{ ...run('touch marker-a'), delayMs: 1200 }, { text: 'Done.' }]);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    const prose = 'yes sure, and please also add a test for it as well';
    await typeAt(t, prose, 100); // about 5 s: the dialog opens after ~1.2 s, mid-sentence
    const screen = await t.waitFor('approve a command?');
    expect(screen).toContain('typing detected: keys are ignored until you pause');
    expect(screen).toContain(`› ${prose}`);
    expect(existsSync(join(work, 'marker-a'))).toBe(false);
    expect(approvals()).toEqual([]);
    await sleep(700);
    t.write('n');
    await t.waitFor('Done.');
    expect(existsSync(join(work, 'marker-a'))).toBe(false);
  }, 60_000);

  it('a key 100 ms after the dialog opens does not answer it', async () => {
    const { t, work, approvals } = chat([run('touch marker-b'), { text: 'Done.' }]);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    await t.waitFor('approve a command?');
    await sleep(100);
    t.write('y');
    await t.waitFor('typing detected');
    await sleep(300);
    expect(await t.screen()).toContain('approve a command?');
    expect(existsSync(join(work, 'marker-b'))).toBe(false);
    expect(approvals()).toEqual([]);
  }, 60_000);

  it('a paste holding y, s, p and a answers nothing', async () => {
    const { t, work, approvals } = chat([run('touch marker-c'), { text: 'Done.' }]);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    await t.waitFor('approve a command?');
    await sleep(800);
    t.write('yes, save the plan as a file\r');
    await sleep(400);
    t.write('ysap');
    await sleep(800);
    expect(await t.screen()).toContain('approve a command?');
    expect(existsSync(join(work, 'marker-c'))).toBe(false);
    expect(approvals()).toEqual([]);
  }, 60_000);

  it('"a" highlights always and spells it out; only Enter after a pause confirms it', async () => {
    const { t, work } = chat([run('touch marker-d'), { text: 'Done.' }]);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    await t.waitFor('approve a command?');
    await sleep(700);
    t.write('a');
    const screen = await t.waitFor('Enter to confirm: approve touch * in ANY directory, stored for 30 days');
    expect(screen).toContain('▸[a] always 30d');
    expect(existsSync(join(work, 'marker-d'))).toBe(false);
    await sleep(700);
    t.write('\r');
    await t.waitFor('Done.');
    expect(existsSync(join(work, 'marker-d'))).toBe(true);
  }, 60_000);
});

describe('type-ahead and Ctrl+C / Ctrl+D (pty)', () => {
  it('text typed during a slow turn is shown, queued with Enter, and sent when the turn ends', async () => {
    const { t } = chat([{ text: 'First answer.', delayMs: 2000 }, { text: 'Second answer.' }]);
    await t.waitFor(READY);
    await t.typeLine('first');
    await t.waitFor('thinking');
    await t.typeLine('second');
    await t.waitFor('queued › second');
    const after = await t.waitFor('Second answer.');
    expect(after).toMatch(/First answer\.[\s\S]*› second[\s\S]*Second answer\./);
  }, 60_000);

  it('Ctrl+C clears a draft, then asks, then quits; Ctrl+D quits on an empty line', async () => {
    const { t } = chat([{ text: 'unused' }]);
    await t.waitFor(READY);
    t.write('some draft');
    await t.waitFor('› some draft');
    t.write('\x03');
    await t.waitFor(READY);
    t.write('\x03');
    await t.waitFor('press Ctrl+C again to quit');
    t.write('\x03');
    await expect(t.exited).resolves.toMatchObject({ exitCode: 0 });

    const second = chat([{ text: 'unused' }]).t;
    await second.waitFor(READY);
    second.write('\x04');
    await expect(second.exited).resolves.toMatchObject({ exitCode: 0 });
  }, 60_000);
});
