// Issue 14 points 1–3 in a real pseudo-terminal (node-pty + headless xterm), against the built CLI and a slow
// script model: prose typed at 10 keys a second straddling the dialog's opening, a key 100 ms after it opens, a
// paste holding y/s/p/a, type-ahead during a turn, and Ctrl+C / Ctrl+D. Each asserts that nothing ran and that the
// audit log holds no approval. Needs the build (npx tsc -p tsconfig.build.json).
//
// Real time on a shared machine: the test process itself can stall, and then the rhythm it meant to type is not the
// one it typed (a 100 ms gap becomes 700 ms, which *is* a pause). Each rhythm test measures the gaps it produced and,
// when the machine did not let it type the rhythm, runs the scenario again; the assertions are never weakened.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { chatSetup, READY, usePtyChats } from '../helpers/pty-chat.js';
import type { PtyTerm } from '../helpers/pty-term.js';

const DIALOG = 'approve a command?';
const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A gap the test meant as typing must stay well under the dialog's 500 ms quiet period. */
const TYPING_GAP_MAX = 350;
/** A key meant 100 ms after the dialog appeared must reach wisp well before its 250 ms reaction floor. */
const REACTION_GAP_MAX = 150;
/** Timer lateness of this process that means it was not running: then it cannot say when it saw the dialog. */
const STARVED_MS = 40;

const start = usePtyChats();
/** Chats of the scenario now running: a scenario run again first ends those of its last run. */
let running: PtyTerm[] = [];

function chat(responses: unknown[]) {
  const s = chatSetup(responses);
  const { home, work } = s;
  const t = start(s);
  running.push(t);
  /** Every approval.decided event in the audit log (there must be none). */
  const approvals = () => {
    const logs = join(home, 'logs');
    if (!existsSync(logs)) return [];
    return readdirSync(logs)
      .flatMap((f) => readFileSync(join(logs, f), 'utf8').split('\n'))
      .filter((l) => l.includes('"approval.decided"'));
  };
  return { t, work, home, approvals };
}

/** Types one key (a character, or each string of a list) every `gapMs`; returns the longest gap that really happened. */
async function typeAt(t: PtyTerm, text: string | readonly string[], gapMs: number): Promise<number> {
  let longest = 0;
  let prev = performance.now();
  for (const ch of text) {
    const now = performance.now();
    longest = Math.max(longest, now - prev);
    prev = now;
    t.write(ch);
    await sleep(gapMs);
  }
  return longest;
}

/** Runs `scenario` until the machine let it type its rhythm (it returns true), at most 8 times. */
async function withRhythm(scenario: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 8; i++) {
    if (await scenario()) return;
    for (const t of running) t.kill();
    running = [];
  }
  throw new Error('the machine was too busy to type the rhythm under test eight times running');
}

/**
 * Presses `key` after a pause, and again after another while `waiting(screen)` still holds (for keys whose pause is
 * not under test: a stalled machine can make a pause look like typing). Checks before each press, so no extra key
 * lands in the input line once the dialog has taken one.
 */
async function answer(t: PtyTerm, key: string, waiting: (screen: string) => boolean) {
  for (let i = 0; i < 8; i++) {
    await sleep(700);
    if (!waiting(await t.screen())) return;
    t.write(key);
    for (let w = 0; w < 30 && waiting(await t.screen()); w++) await sleep(50); // time for the answer to show
  }
}

describe('wisp chat answers only deliberate keys (pty)', () => {
  it('prose at 10 keys/s straddling the opening approves nothing and is kept in the input line', async () => {
    const prose = 'yes sure, and please also add a test for it as well';
    await withRhythm(async () => {
      const { t, work, approvals } = chat([{ ...run('touch marker-a'), delayMs: 1200 }, { text: 'Done.' }]);
      await t.waitFor(READY);
      await t.typeLine('make a marker');
      await t.waitFor('thinking');
      let openedAt = 0;
      t.onRaw(DIALOG, () => (openedAt = performance.now()));
      const started = performance.now();
      const longest = await typeAt(t, prose, 100); // ~5 s; the dialog opens after ~1.2 s, mid-sentence
      // The rhythm held, and the dialog did open while the sentence was being typed; else the scenario did not happen.
      if (longest > TYPING_GAP_MAX || openedAt === 0 || openedAt > performance.now() - 1000) return false;
      const screen = await t.waitFor(`› ${prose}`);
      expect(openedAt).toBeGreaterThan(started);
      expect(screen).toContain('typing detected: keys are ignored until you pause');
      expect(screen).toContain(DIALOG);
      expect(existsSync(join(work, 'marker-a'))).toBe(false);
      expect(approvals()).toEqual([]);
      await answer(t, 'n', (screen) => screen.includes(DIALOG));
      await t.waitFor('Done.');
      expect(existsSync(join(work, 'marker-a'))).toBe(false);
      return true;
    });
  }, 180_000);

  it('← held to mend the input line while the dialog opens leaves the focus on no; the Enter after a pause approves nothing', async () => {
    await withRhythm(async () => {
      const { t, work, approvals } = chat([{ ...run('touch marker-arrows'), delayMs: 1200 }, { text: 'Done.' }]);
      await t.waitFor(READY);
      await t.typeLine('make a marker');
      await t.waitFor('thinking');
      let openedAt = 0;
      t.onRaw(DIALOG, () => (openedAt = performance.now()));
      // Key repeat of ← at ~12 a second for 2.5 s: the dialog opens after ~1.2 s, in the middle of it.
      const longest = await typeAt(t, Array<string>(30).fill('\x1b[D'), 80);
      if (longest > TYPING_GAP_MAX || openedAt === 0 || openedAt > performance.now() - 800) return false;
      const screen = await t.screen();
      expect(screen).toContain(DIALOG);
      expect(screen).toMatch(/▸\[n\] no/);
      await sleep(900); // reads, then presses Enter meaning to send the mended line
      t.write('\r');
      await t.waitFor('Done.');
      expect(existsSync(join(work, 'marker-arrows'))).toBe(false);
      expect(approvals().filter((l) => l.includes('"decision":"approved"'))).toEqual([]);
      return true;
    });
  }, 180_000);

  it('a key 100 ms after the dialog opens does not answer it', async () => {
    await withRhythm(async () => {
      const { t, work, approvals } = chat([run('touch marker-b'), { text: 'Done.' }]);
      await t.waitFor(READY);
      let seen = 0;
      let sent = 0;
      // The key must leave within the reaction floor of when wisp drew the dialog. This process sees the dialog only
      // when it is scheduled: if it was starved around then (its timers ran late), it saw the dialog late and the
      // key was not 100 ms after the opening from wisp's side, so the scenario is run again.
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      t.onRaw(DIALOG, () => {
        seen = performance.now();
        setTimeout(() => {
          sent = performance.now();
          t.write('y');
          lag.disable();
        }, 100);
      });
      await t.typeLine('make a marker');
      await t.waitFor(DIALOG);
      await sleep(800);
      lag.disable();
      if (sent === 0 || sent - seen > REACTION_GAP_MAX || lag.max / 1e6 > STARVED_MS) return false;
      expect(await t.screen()).toContain(DIALOG);
      expect(existsSync(join(work, 'marker-b'))).toBe(false);
      expect(approvals()).toEqual([]);
      return true;
    });
  }, 180_000);

  it('a paste holding y, s, p and a answers nothing', async () => {
    const { t, work, approvals } = chat([run('touch marker-c'), { text: 'Done.' }]);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    await t.waitFor(DIALOG);
    await sleep(800);
    t.write('yes, save the plan as a file\r');
    await sleep(800);
    t.write('ysap');
    await sleep(800);
    expect(await t.screen()).toContain(DIALOG);
    expect(existsSync(join(work, 'marker-c'))).toBe(false);
    expect(approvals()).toEqual([]);
  }, 120_000);

  it('"a" highlights always and spells it out; Enter after a pause confirms it', async () => {
    const { t, work } = chat([run('touch marker-d'), { text: 'Done.' }]);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    await t.waitFor(DIALOG);
    const confirm = 'Enter to confirm: approve touch * in ANY directory, stored for 30 days';
    await answer(t, 'a', (screen) => !screen.includes(confirm));
    const screen = await t.waitFor(confirm);
    expect(screen).toContain('▸[a] always 30d');
    expect(existsSync(join(work, 'marker-d'))).toBe(false);
    await answer(t, '\r', (screen) => screen.includes(DIALOG));
    await t.waitFor('Done.');
    expect(existsSync(join(work, 'marker-d'))).toBe(true);
  }, 120_000);
});

describe('type-ahead and Ctrl+C / Ctrl+D (pty)', () => {
  it('text typed during a slow turn is shown, queued with Enter, and sent when the turn ends', async () => {
    const { t } = chat([{ text: 'First answer.', delayMs: 2500 }, { text: 'Second answer.' }]);
    await t.waitFor(READY);
    await t.typeLine('first');
    await t.waitFor('thinking');
    await t.typeLine('second');
    await t.waitFor('queued › second');
    const after = await t.waitFor('Second answer.');
    expect(after).toMatch(/First answer\.[\s\S]*› second[\s\S]*Second answer\./);
  }, 120_000);

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
  }, 120_000);
});
