// Shared pieces for the ui tests: dialog requests, a fake engine, and key presses that wait for Ink to handle them.
import type { ApprovalRequest, InquiryRequest } from '../../src/escalation/types.js';
import type { DialogRequest } from '../../ui/dialog-store.js';
import type { ChatEngine, TurnHandlers, TurnSummary } from '../../ui/engine.js';
import type { SlashResult } from '../../ui/slash.js';

export const KEYS = {
  enter: '\r',
  escape: '\x1b',
  left: '\x1b[D',
  right: '\x1b[C',
  up: '\x1b[A',
  down: '\x1b[B',
  tab: '\t',
  backspace: '\x7f',
  ctrlC: '\x03',
  pageDown: '\x1b[6~',
  pageUp: '\x1b[5~',
} as const;

export function approvalRequest(over: Partial<ApprovalRequest> = {}, extra: Partial<DialogRequest> = {}): DialogRequest & { verb: 'approval' } {
  return {
    verb: 'approval',
    id: 'a1',
    source: { kind: 'local' },
    raisedAt: Date.now(),
    request: {
      command: 'touch marker-t',
      line: 'ls && touch marker-t',
      pattern: 'touch *',
      directory: '/work/project',
      level: 'moderate',
      reasons: ['modifies files'],
      ...over,
    },
    ...extra,
  } as DialogRequest & { verb: 'approval' };
}

export function inquiryRequest(over: Partial<InquiryRequest> = {}, extra: Partial<DialogRequest> = {}): DialogRequest & { verb: 'inquiry' } {
  return {
    verb: 'inquiry',
    id: 'q1',
    source: { kind: 'local' },
    raisedAt: Date.now(),
    request: { question: 'Which README should I keep?', ...over },
    ...extra,
  } as DialogRequest & { verb: 'inquiry' };
}

/**
 * Lets Ink read the key and React commit the update (real timers). A timer alone is not enough on a loaded machine:
 * when the process was not scheduled for longer than `ms`, Node runs due timers before the immediates queued earlier,
 * and React's scheduler (which renders a key that arrived while the previous render's effects were pending) runs on
 * immediates. Waiting for a few immediates after the timer lets what React queued first run first.
 */
export async function settle(ms = 20): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
}

export async function press(stdin: { write(data: string): void }, ...keys: string[]): Promise<void> {
  for (const k of keys) {
    stdin.write(k);
    await settle();
  }
}

/** An engine whose turns are driven by the test. */
export class FakeEngine implements ChatEngine {
  readonly prompts: string[] = [];
  readonly slashes: string[] = [];
  persistDays = 30;
  turnImpl: (prompt: string, h: TurnHandlers) => Promise<TurnSummary> = async () => ({ text: 'ok' });
  slashImpl: (line: string) => SlashResult = () => ({ kind: 'print', text: 'slash output' });
  info() {
    return { model: 'script:/tmp/s.json', channel: 'terminal', sandbox: 'bwrap', sandboxOk: true };
  }
  turn(prompt: string, h: TurnHandlers): Promise<TurnSummary> {
    this.prompts.push(prompt);
    return this.turnImpl(prompt, h);
  }
  slash(line: string): SlashResult {
    this.slashes.push(line);
    return this.slashImpl(line);
  }
}

/** Waits (polling, up to `timeoutMs`) until `check` holds: for effects that take several ticks, on a loaded machine. */
export async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return; // the assertion that follows reports what is wrong
    await settle(10);
  }
}

/**
 * Presses `key` after a pause longer than the dialog's quiet period, again (after another pause) until `done()` —
 * on a loaded machine a stall of the test process can make a pause look like typing (ui/key-rhythm.ts), and then
 * the dialog rightly ignores the key. Used only where the pause itself is not what the test is about.
 */
export async function pressAfterPause(stdin: { write(s: string): void }, key: string, quietMs: number, done: () => boolean): Promise<void> {
  for (let i = 0; i < 10 && !done(); i++) {
    await settle(quietMs + 100);
    await press(stdin, key);
    await until(done, 200);
  }
}
