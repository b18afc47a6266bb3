// Issue 14 point 1: no answer by accident. Real timers and realistic rhythms: a typist at 10 keys a second whose
// sentence straddles the dialog's opening, a single key 100 ms after it opens, a paste holding y/s/p/a, and the
// broad scopes' confirmation. Every test asserts that nothing was approved, then that a deliberate key still works.
// The clock is faked (Date and timers), so the rhythm is exactly the one written here however busy the machine is;
// the pty tests (chat-keys.pty.test.ts) check the same in real time.
import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Escalation, EscalationOutcome } from '../../src/escalation/types.js';
import { App } from '../../ui/App.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { KeyRhythm } from '../../ui/key-rhythm.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';
import { FakeEngine, KEYS } from './helpers.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Lets `ms` pass on the fake clock, then lets Ink and React finish (they use setImmediate, which stays real). */
async function settle(ms = 0): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
}

async function press(stdin: { write(s: string): void }, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    stdin.write(k);
    await settle();
  }
}

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const approval: Escalation = {
  verb: 'approval',
  request: { command: 'curl -o .git/config x.example', line: 'curl -o .git/config x.example', pattern: 'curl *', directory: '/w', level: 'moderate', reasons: ['network'] },
};

function start() {
  const store = new DialogStore();
  const r = render(<App engine={new FakeEngine()} store={store} bell={() => {}} />); // the real 500 ms quiet
  const channel = new TerminalChannel(store);
  let outcome: EscalationOutcome | undefined;
  const open = () => {
    void channel.raise(approval, { session: 's', escalationId: 'e1', timeoutMs: 60_000 }).then((o) => (outcome = o));
  };
  return { ...r, store, open, outcome: () => outcome };
}

/** Types `text` one key every `gapMs`, calling `at(i)` before the i-th key. */
async function typeAt(stdin: { write(s: string): void }, text: string, gapMs: number, at?: (i: number) => void) {
  let i = 0;
  for (const ch of text) {
    at?.(i++);
    stdin.write(ch);
    await settle(gapMs);
  }
}

describe('KeyRhythm', () => {
  it('a key counts only after a pause since the previous key and since the dialog opened', () => {
    const k = new KeyRhythm(500);
    const opened = 10_000;
    expect(k.deliberate(opened, 10_100)).toBe(false); // 100 ms after opening
    expect(k.deliberate(opened, 10_700)).toBe(true); // a pause after that key
    k.typed(11_000);
    expect(k.deliberate(opened, 11_400)).toBe(false); // 400 ms after a typed key
    expect(k.deliberate(opened, 11_800)).toBe(false); // 400 ms after the ignored key: still typing
    expect(k.waitLeft(opened, 11_800)).toBe(500);
    expect(k.deliberate(opened, 12_300)).toBe(true);
  });

  it('after a pause in typing, a key counts from a quarter second after the dialog was drawn, not sooner', () => {
    const k = new KeyRhythm(500);
    k.typed(9_000); // Enter on the prompt; the person then waits for the model
    const opened = 9_300;
    expect(k.deliberate(opened, 9_500)).toBe(false); // 200 ms after the dialog appeared: not a reaction to it
    expect(k.waitLeft(opened, 9_500)).toBe(500); // and that key itself restarts the wait
    const k2 = new KeyRhythm(500);
    k2.typed(9_000);
    expect(k2.deliberate(opened, 9_600)).toBe(true); // 300 ms after it appeared, 600 ms after the last key
  });

  it('a stall of the process counts as a key: a pause wisp did not see is no pause', () => {
    const k = new KeyRhythm(500);
    const opened = 10_000;
    for (let t = 10_000; t <= 10_100; t += 50) k.tick(t);
    k.tick(10_700); // asleep for 600 ms; the key read now may have been pressed at 10_120
    expect(k.deliberate(opened, 10_705)).toBe(false);
    for (let t = 10_750; t <= 11_250; t += 50) k.tick(t);
    expect(k.deliberate(opened, 11_260)).toBe(true);
  });
});

describe('no answer by accident (real timers, 500 ms quiet)', () => {
  it('10 keys a second of prose straddling the opening: nothing is approved and the prose lands in the input line', async () => {
    const { stdin, lastFrame, open, outcome } = start();
    const prose = 'yes sure, and please also add a test for paths';
    await typeAt(stdin, prose, 100, (i) => {
      if (i === 12) open(); // mid-sentence: "yes sure, an|d please also add…" — the a, s, p and y come after
    });
    expect(outcome()).toBeUndefined();
    const frame = strip(lastFrame()!);
    expect(frame).toContain('approve a command?');
    expect(frame).toContain('typing detected: keys are ignored until you pause');
    expect(frame).toContain(`› ${prose}`); // every key is kept, before and after the opening
    await settle(600); // the person stops, reads, and answers
    expect(strip(lastFrame()!)).not.toContain('typing detected');
    await press(stdin, 'n');
    expect(outcome()).toMatchObject({ kind: 'declined' });
  });

  it('a single y 100 ms after the dialog opened does not approve', async () => {
    const { stdin, lastFrame, open, outcome } = start();
    open();
    await settle(100);
    await press(stdin, 'y');
    expect(outcome()).toBeUndefined();
    expect(strip(lastFrame()!)).toContain('typing detected');
    await settle(600);
    await press(stdin, 'y');
    expect(outcome()).toEqual({ kind: 'approved', scope: 'once' });
  });

  it('a paste holding y, s, p and a (and Enter) answers nothing, even after a long pause', async () => {
    const { stdin, lastFrame, open, outcome } = start();
    open();
    await settle(700);
    await press(stdin, 'yes, save the plan as a file\r');
    expect(outcome()).toBeUndefined();
    expect(strip(lastFrame()!)).toContain('approve a command?');
    await settle(600);
    await press(stdin, 'psay');
    expect(outcome()).toBeUndefined();
  });

  it('"a" then Enter at typing speed stores nothing and takes the choice back to no; "a" again and Enter after a pause confirms the spelled-out scope', async () => {
    const { stdin, lastFrame, open, outcome } = start();
    open();
    await settle(600);
    await press(stdin, 'a');
    await settle(600);
    expect(strip(lastFrame()!)).toContain('Enter to confirm: approve curl * in ANY directory, stored for 30 days');
    await press(stdin, 'a');
    await settle(150);
    await press(stdin, KEYS.enter);
    expect(outcome()).toBeUndefined();
    expect(strip(lastFrame()!)).not.toContain('Enter to confirm');
    expect(strip(lastFrame()!)).toContain('A key was taken as typing, so the choice went back to no');
    await settle(600);
    await press(stdin, 'a');
    await settle(600);
    await press(stdin, KEYS.enter);
    expect(outcome()).toEqual({ kind: 'approved', scope: 'always' });
  });

  it('attack: "a", then a quick "n" (the hint says n is no), then Enter after a pause stored always — now the Enter refuses', async () => {
    const { stdin, lastFrame, open, outcome } = start();
    open();
    await settle(600);
    await press(stdin, 'a');
    await settle(150);
    await press(stdin, 'n');
    await settle(600);
    expect(strip(lastFrame()!)).toMatch(/▸\[n\] no/);
    await press(stdin, KEYS.enter);
    expect(outcome()).toMatchObject({ kind: 'declined' });
  });

  it('a deliberate move to once, then typing, then Enter after a pause approves nothing', async () => {
    const { stdin, open, outcome } = start();
    open();
    await settle(600);
    await press(stdin, KEYS.left, KEYS.left, KEYS.left, KEYS.left);
    await settle(100);
    await press(stdin, 'h', 'i');
    await settle(600);
    await press(stdin, KEYS.enter);
    expect(outcome()).toMatchObject({ kind: 'declined' });
  });

  it('arrow keys of an edit in the input line straddling the opening do not move the answer; a later Enter approves nothing', async () => {
    const { stdin, open, outcome, lastFrame } = start();
    await typeAt(stdin, 'fix the tst', 100);
    // The person moves back to mend "tst": three ← at key-repeat speed, the dialog opening after the first.
    stdin.write(KEYS.left);
    await settle(80);
    open();
    await settle(80);
    for (let i = 0; i < 3; i++) {
      stdin.write(KEYS.left);
      await settle(80);
    }
    expect(strip(lastFrame()!)).toMatch(/▸\[n\] no/); // the focus stayed on no
    await settle(700); // reads the dialog, then presses Enter meaning to send the mended line
    await press(stdin, KEYS.enter);
    expect(outcome()).not.toMatchObject({ kind: 'approved' });
  });

  it('a deliberate ← (after a pause, once the dialog is seen) still moves the focus, and a run of ← goes on from it', async () => {
    const { stdin, open, outcome, lastFrame } = start();
    open();
    await settle(700);
    for (let i = 0; i < 4; i++) {
      stdin.write(KEYS.left);
      await settle(80);
    }
    expect(strip(lastFrame()!)).toMatch(/▸\[y\] once/);
    await settle(600);
    await press(stdin, KEYS.enter);
    expect(outcome()).toEqual({ kind: 'approved', scope: 'once' });
  });

  it('a slow typist (a key every 400 ms) never answers: each key restarts the wait', async () => {
    const { stdin, open, outcome, lastFrame } = start();
    await typeAt(stdin, 'ok ', 400);
    open();
    await typeAt(stdin, 'yes', 400);
    expect(outcome()).toBeUndefined();
    expect(strip(lastFrame()!)).toContain('› ok yes');
  });
});
