import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Escalation } from '../../src/escalation/types.js';
import { App } from '../../ui/App.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { Feed } from '../../ui/feed.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';
import { FakeEngine, KEYS, press, pressAfterPause, settle, until } from './helpers.js';

afterEach(() => cleanup());

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

function start(engine = new FakeEngine(), extra: { quietMs?: number; feed?: Feed; onQuit?: () => void } = {}) {
  const store = new DialogStore();
  const r = render(<App engine={engine} store={store} bell={() => {}} quietMs={0} {...extra} />);
  return { ...r, store, engine, channel: new TerminalChannel(store) };
}

async function type(stdin: { write(s: string): void }, text: string) {
  for (const ch of text) await press(stdin, ch);
}

describe('App: a turn in the transcript', () => {
  it('shows the prompt, the gate line with its note, the output tail and the streamed reply', async () => {
    const engine = new FakeEngine();
    engine.turnImpl = async (_p, h) => {
      h.onText('Let me ');
      h.onText('check.\nRunning it');
      h.onEvent({ type: 'gate', tool: 'run_command', subject: 'ls -la', allowed: true, notes: ['safe by rules'] });
      h.onEvent({ type: 'output', tool: 'run_command', subject: 'ls -la', text: 'a.txt\nb.txt' });
      h.onEvent({ type: 'gate', tool: 'run_command', subject: 'rm -rf /', allowed: false, notes: ['blocked by policy: rm of /'] });
      h.onText('Done.\n');
      return { text: 'Let me check.\nRunning itDone.\n' };
    };
    const { stdin, lastFrame } = start(engine);
    await press(stdin, 'list files\r');
    await settle(50);
    const frame = lastFrame()!;
    expect(engine.prompts).toEqual(['list files']);
    expect(frame).toContain('› list files');
    expect(frame).toMatch(/Let me check\.\nRunning it\n· run_command: ls -la — safe by rules\n  │ a\.txt\n  │ b\.txt\n· run_command: rm -rf \/ — blocked by policy: rm of \/\nDone\./);
  });

  it('shows the spinner while the model thinks, then the input line again', async () => {
    const engine = new FakeEngine();
    let finish: () => void = () => {};
    engine.turnImpl = () => new Promise((r) => (finish = () => r({ text: 'hi' })));
    const { stdin, lastFrame } = start(engine);
    await press(stdin, 'hello\r');
    expect(lastFrame()).toContain('thinking…');
    finish();
    await settle();
    expect(lastFrame()).not.toContain('thinking…');
    expect(lastFrame()).toContain('type a prompt, or /help');
  });

  it('attack: Ctrl+C interrupts a turn, which withdraws its open dialog — and the refusal says so, not just "withdrawn"', async () => {
    const engine = new FakeEngine();
    const { stdin, lastFrame, channel } = start(engine);
    engine.turnImpl = async (_p, h) => {
      const outcome = await channel.raise(
        { verb: 'approval', request: { command: 'touch x', line: 'touch x', pattern: 'touch *', directory: '/w', level: 'moderate', reasons: [] } },
        { session: 's', escalationId: 'i1', timeoutMs: 60_000, signal: h.signal },
      );
      expect(outcome).toEqual({ kind: 'declined', reason: 'the request was closed: you interrupted the turn (Ctrl+C)' });
      throw new Error('aborted');
    };
    await press(stdin, 'go\r');
    expect(lastFrame()).toContain('approve a command?');
    await press(stdin, KEYS.ctrlC);
    await until(() => lastFrame()!.includes('interrupted'));
    expect(lastFrame()).not.toContain('approve a command?');
    expect(lastFrame()).toContain('interrupted');
  });

  it('shows a model error in the transcript and stays usable', async () => {
    const engine = new FakeEngine();
    engine.turnImpl = async () => {
      throw new Error('Cannot reach Ollama at http://127.0.0.1:11434.');
    };
    const { stdin, lastFrame } = start(engine);
    await press(stdin, 'hi\r');
    await until(() => lastFrame()!.includes('Cannot reach Ollama'));
    expect(lastFrame()).toContain('Cannot reach Ollama');
    expect(lastFrame()).toContain('type a prompt, or /help');
  });

  it('status line: model, channel, sandbox, pending count', () => {
    const frame = start().lastFrame()!;
    expect(frame).toContain('script:/tmp/s.json · terminal · sandbox bwrap · no requests pending');
  });
});

describe('App: hostile text in the transcript never reaches the terminal raw', () => {
  it('escapes controls, CR, backspace, bidi, zero-width and tag characters in replies, commands and output', async () => {
    const engine = new FakeEngine();
    const evil = 'ok\x1b[2J\x1b[H\rhidden\b\b\u202Egnp.exe\u200B\u{E0041}\x9b31m';
    engine.turnImpl = async (_p, h) => {
      h.onText(`${evil}\n`);
      h.onEvent({ type: 'gate', tool: 'run_command', subject: `echo ${evil}`, allowed: true, notes: ['approved (session)'] });
      h.onEvent({ type: 'output', tool: 'run_command', subject: 'x', text: evil });
      h.onEvent({ type: 'inquiry', question: evil, outcome: 'declined' });
      h.onText('A'.repeat(10_240));
      return { text: '' };
    };
    const { stdin, lastFrame } = start(engine);
    await press(stdin, `say ${'\u202E'}it\r`);
    await settle(50);
    const frame = lastFrame()!;
    expect(frame).toContain('ok\\x1b[2J\\x1b[H\\rhidden\\b\\b<U+202E>gnp.exe<U+200B><U+E0041>\\x9b31m');
    expect(strip(frame)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]|[\u{E0000}-\u{E007F}]/u);
    expect(frame.replace(/\n/g, '')).toContain('AAAA… [+2240 chars]');
    expect((frame.match(/A/g) ?? []).length).toBeLessThan(8100);
  });
});

describe('App: the input line', () => {
  it('↑/↓ walk the history and keep the draft', async () => {
    const engine = new FakeEngine();
    const { stdin, lastFrame } = start(engine);
    await press(stdin, 'first\r');
    await settle();
    await press(stdin, 'second\r');
    await settle();
    await type(stdin, 'dra');
    await press(stdin, KEYS.up);
    expect(lastFrame()).toMatch(/› second/);
    await press(stdin, KEYS.up);
    expect(lastFrame()).toMatch(/› first\s/);
    await press(stdin, KEYS.down, KEYS.down);
    expect(lastFrame()).toMatch(/› dra/);
    await press(stdin, KEYS.up, KEYS.up, KEYS.enter);
    await settle();
    expect(engine.prompts).toEqual(['first', 'second', 'first']);
  });

  it('runs slash commands through the engine and prints the result', async () => {
    const engine = new FakeEngine();
    engine.slashImpl = (line) => (line === '/bad' ? { kind: 'error', text: 'unknown command /bad' } : { kind: 'print', text: `did ${line}` });
    const { stdin, lastFrame } = start(engine);
    await press(stdin, '/approvals\r');
    await press(stdin, '/bad\r');
    expect(engine.prompts).toEqual([]);
    expect(lastFrame()).toContain('did /approvals');
    expect(lastFrame()).toContain('unknown command /bad');
  });

  it('a dialog that appears while someone is typing ignores the keys typed into it for a moment', async () => {
    const { stdin, lastFrame, channel } = start(new FakeEngine(), { quietMs: 300 });
    await type(stdin, 'yes plea');
    const e: Escalation = { verb: 'approval', request: { command: 'rm x', line: 'rm x', pattern: 'rm *', directory: '/w', level: 'moderate', reasons: [] } };
    let outcome: unknown;
    void channel.raise(e, { session: 's', escalationId: 'g', timeoutMs: 60_000 }).then((o) => (outcome = o));
    await settle();
    await type(stdin, 'se'); // "s" would approve for the session
    expect(outcome).toBeUndefined();
    expect(lastFrame()).toMatch(/typing detected/);
    await pressAfterPause(stdin, 'n', 300, () => outcome !== undefined);
    expect(outcome).toMatchObject({ kind: 'declined' });
    expect(lastFrame()).toContain('› yes plea'); // the draft survived the dialog
  });

  it('keys typed ahead while the model thinks do not answer the dialog that follows', async () => {
    const engine = new FakeEngine();
    const { stdin, channel, lastFrame } = start(engine, { quietMs: 300 });
    let outcome: unknown;
    let release: () => void = () => {};
    engine.turnImpl = async (_p, h) => {
      await new Promise<void>((r) => (release = r));
      const e: Escalation = { verb: 'approval', request: { command: 'rm x', line: 'rm x', pattern: 'rm *', directory: '/w', level: 'moderate', reasons: [] } };
      outcome = await channel.raise(e, { session: 's', escalationId: 'ta', timeoutMs: 60_000, signal: h.signal });
      return { text: 'done' };
    };
    await press(stdin, 'go\r');
    await type(stdin, 'and then y');
    release();
    await settle();
    await press(stdin, 'y');
    expect(outcome).toBeUndefined();
    expect(lastFrame()).toMatch(/typing detected/);
    await pressAfterPause(stdin, 'y', 300, () => outcome !== undefined);
    expect(outcome).toEqual({ kind: 'approved', scope: 'once' });
  });

  it('entries from the queue watcher appear in the transcript', async () => {
    const feed = new Feed();
    feed.emit({ kind: 'remote', what: 'git push', client: 'claude-code', thread: 't1', outcome: 'answered elsewhere' });
    const { lastFrame } = start(new FakeEngine(), { feed });
    await settle();
    expect(lastFrame()).toContain('⇄ claude-code, thread t1: git push — answered elsewhere');
  });
});

describe('App: type-ahead is kept (issue 14 point 2)', () => {
  function slowEngine() {
    const engine = new FakeEngine();
    const releases: Array<() => void> = [];
    engine.turnImpl = () => new Promise((r) => releases.push(() => r({ text: 'done' })));
    return { engine, release: () => releases.shift()?.() };
  }

  it('text typed during a turn is drawn in the input line and stays there when the turn ends', async () => {
    const { engine, release } = slowEngine();
    const { stdin, lastFrame } = start(engine);
    await press(stdin, 'first\r');
    await type(stdin, 'and then');
    expect(lastFrame()).toContain('thinking…');
    expect(strip(lastFrame()!)).toContain('› and then');
    expect(engine.prompts).toEqual(['first']);
    release();
    await settle();
    expect(strip(lastFrame()!)).toContain('› and then');
    await press(stdin, '\r');
    expect(engine.prompts).toEqual(['first', 'and then']);
  });

  it('Enter during a turn queues the message, shows it queued, and sends it when the turn ends', async () => {
    const { engine, release } = slowEngine();
    const { stdin, lastFrame } = start(engine);
    await press(stdin, 'first\r');
    await type(stdin, 'second');
    await press(stdin, KEYS.enter);
    await until(() => strip(lastFrame()!).includes('queued › second'));
    expect(strip(lastFrame()!)).toContain('queued › second');
    expect(engine.prompts).toEqual(['first']);
    release();
    await until(() => engine.prompts.length === 2);
    expect(engine.prompts).toEqual(['first', 'second']);
    expect(strip(lastFrame()!)).not.toContain('queued ›');
  });

  it('Esc clears the queued message and the draft; a second Esc interrupts the turn', async () => {
    const { engine } = slowEngine();
    let aborted = false;
    const inner = engine.turnImpl;
    engine.turnImpl = (p, h) => {
      h.signal.addEventListener('abort', () => (aborted = true));
      return inner(p, h);
    };
    const { stdin, lastFrame } = start(engine);
    await press(stdin, 'first\r');
    await press(stdin, 'second\r', 'thi');
    expect(strip(lastFrame()!)).toContain('queued › second');
    await press(stdin, KEYS.escape);
    await settle(80);
    expect(strip(lastFrame()!)).not.toContain('queued ›');
    expect(strip(lastFrame()!)).not.toContain('› thi');
    expect(aborted).toBe(false);
    await press(stdin, KEYS.escape);
    await settle(80);
    expect(aborted).toBe(true);
  });

  it('type-ahead never reaches a dialog: the keys go on into the input line', async () => {
    const engine = new FakeEngine();
    const { stdin, lastFrame, channel } = start(engine, { quietMs: 500 });
    let outcome: unknown;
    engine.turnImpl = async (_p, h) => {
      outcome = await channel.raise(
        { verb: 'approval', request: { command: 'rm x', line: 'rm x', pattern: 'rm *', directory: '/w', level: 'moderate', reasons: [] } },
        { session: 's', escalationId: 'ta2', timeoutMs: 60_000, signal: h.signal },
      );
      return { text: 'done' };
    };
    await press(stdin, 'go\r');
    await type(stdin, 'yes always');
    expect(outcome).toBeUndefined();
    expect(strip(lastFrame()!)).toContain('approve a command?');
    expect(strip(lastFrame()!)).toContain('› yes always');
  });
});

describe('App: Ctrl+C and Ctrl+D (issue 14 point 3)', () => {
  it('Ctrl+C with a draft clears it and does not quit', async () => {
    let quits = 0;
    const { stdin, lastFrame } = start(new FakeEngine(), { onQuit: () => quits++ });
    await type(stdin, 'draft');
    await press(stdin, KEYS.ctrlC);
    expect(strip(lastFrame()!)).not.toContain('› draft');
    expect(quits).toBe(0);
  });

  it('Ctrl+C on an empty line asks for a second press, and the second quits', async () => {
    let quits = 0;
    const { stdin, lastFrame } = start(new FakeEngine(), { onQuit: () => quits++ });
    await press(stdin, KEYS.ctrlC);
    expect(lastFrame()).toContain('press Ctrl+C again to quit');
    expect(quits).toBe(0);
    await press(stdin, KEYS.ctrlC);
    expect(quits).toBe(1);
  });

  it('a second Ctrl+C after more than 2 s only asks again', async () => {
    let quits = 0;
    const { stdin, lastFrame } = start(new FakeEngine(), { onQuit: () => quits++ });
    await press(stdin, KEYS.ctrlC);
    await settle(2100);
    expect(lastFrame()).not.toContain('press Ctrl+C again to quit');
    await press(stdin, KEYS.ctrlC);
    expect(quits).toBe(0);
    expect(lastFrame()).toContain('press Ctrl+C again to quit');
  });

  it('a key between the two presses disarms the quit', async () => {
    let quits = 0;
    const { stdin } = start(new FakeEngine(), { onQuit: () => quits++ });
    await press(stdin, KEYS.ctrlC, 'x', KEYS.ctrlC, KEYS.ctrlC);
    expect(quits).toBe(0); // x, then Ctrl+C cleared "x", then the first press on an empty line
  });

  it('Ctrl+D quits on an empty line and does nothing with a draft', async () => {
    let quits = 0;
    const { stdin } = start(new FakeEngine(), { onQuit: () => quits++ });
    await press(stdin, 'a', '\x04');
    expect(quits).toBe(0);
    await press(stdin, KEYS.backspace, '\x04');
    expect(quits).toBe(1);
  });
});

describe('App: Enter and the next key in one read', () => {
  it('"\\rnext" sends the line, then starts the next draft (two messages are never joined)', async () => {
    const engine = new FakeEngine();
    const { stdin, lastFrame } = start(engine);
    await type(stdin, 'first');
    await press(stdin, '\rnext');
    await until(() => engine.prompts.length === 1);
    expect(engine.prompts).toEqual(['first']);
    await settle();
    expect(strip(lastFrame()!)).toMatch(/› next/);
  });
});
