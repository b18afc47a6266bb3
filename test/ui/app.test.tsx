import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Escalation } from '../../src/escalation/types.js';
import { App } from '../../ui/App.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { Feed } from '../../ui/feed.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';
import { FakeEngine, KEYS, press, settle } from './helpers.js';

afterEach(() => cleanup());

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

function start(engine = new FakeEngine(), extra: { graceMs?: number; feed?: Feed } = {}) {
  const store = new DialogStore();
  const r = render(<App engine={engine} store={store} bell={() => {}} {...extra} />);
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

  it('Ctrl+C interrupts a turn, which withdraws its open dialog', async () => {
    const engine = new FakeEngine();
    const { stdin, lastFrame, channel } = start(engine);
    engine.turnImpl = async (_p, h) => {
      const outcome = await channel.raise(
        { verb: 'approval', request: { command: 'touch x', line: 'touch x', pattern: 'touch *', directory: '/w', level: 'moderate', reasons: [] } },
        { session: 's', escalationId: 'i1', timeoutMs: 60_000, signal: h.signal },
      );
      expect(outcome).toEqual({ kind: 'declined', reason: 'the request was withdrawn' });
      throw new Error('aborted');
    };
    await press(stdin, 'go\r');
    expect(lastFrame()).toContain('approve a command?');
    await press(stdin, KEYS.ctrlC);
    await settle();
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
    const { stdin, lastFrame, channel } = start(new FakeEngine(), { graceMs: 300 });
    await type(stdin, 'yes plea');
    const e: Escalation = { verb: 'approval', request: { command: 'rm x', line: 'rm x', pattern: 'rm *', directory: '/w', level: 'moderate', reasons: [] } };
    let outcome: unknown;
    void channel.raise(e, { session: 's', escalationId: 'g', timeoutMs: 60_000 }).then((o) => (outcome = o));
    await settle();
    await type(stdin, 'se'); // "s" would approve for the session
    expect(outcome).toBeUndefined();
    expect(lastFrame()).toMatch(/was ignored/);
    await settle(320);
    await press(stdin, 'n');
    expect(outcome).toMatchObject({ kind: 'declined' });
    expect(lastFrame()).toContain('› yes plea'); // the draft survived the dialog
  });

  it('keys typed ahead while the model thinks do not answer the dialog that follows', async () => {
    const engine = new FakeEngine();
    const { stdin, channel, lastFrame } = start(engine, { graceMs: 300 });
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
    expect(lastFrame()).toMatch(/was ignored/);
    await settle(320);
    await press(stdin, 'y');
    await settle();
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
