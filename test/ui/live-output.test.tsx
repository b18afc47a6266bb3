// Live command output and the spinner's words (issue 14, point 4): the box shows the last lines as they come, with
// the time the command has run; escapes in the output are shown, not obeyed; the spinner says thinking, running
// `cmd`, or waiting in the queue.
import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/tools/types.js';
import { LIVE_LINES, LiveTail, TurnActivity } from '../../ui/activity.js';
import { App } from '../../ui/App.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { LiveActivity } from '../../ui/LiveActivity.js';
import { FakeEngine, press, until } from './helpers.js';

afterEach(() => cleanup());

function start(engine: FakeEngine) {
  const store = new DialogStore();
  return render(<App engine={engine} store={store} bell={() => {}} quietMs={0} />);
}

/** A turn the test drives: the handlers, and a way to end it. */
function drivenTurn(engine: FakeEngine) {
  const ctl: { h?: Parameters<FakeEngine['turnImpl']>[1]; finish: () => void } = { finish: () => {} };
  engine.turnImpl = (_p, h) =>
    new Promise((resolve) => {
      ctl.h = h;
      ctl.finish = () => resolve({ text: '' });
    });
  return ctl;
}

/** The chat with a prompt sent and its turn started, the handlers in hand. */
async function begin(prompt: string) {
  const engine = new FakeEngine();
  const turn = drivenTurn(engine);
  const r = start(engine);
  await press(r.stdin, `${prompt}\r`);
  await until(() => turn.h !== undefined);
  return { ...r, turn, h: turn.h! };
}

const out = (text: string, stream: 'stdout' | 'stderr' = 'stdout'): LiveEvent => ({ type: 'command-output', callId: 'c1', stream, text });

describe('the live box in the chat', () => {
  it('shows lines while the command runs, then the tail in the transcript when it ends', async () => {
    const { lastFrame, turn, h } = await begin('build it');
    expect(lastFrame()).toContain('thinking…');
    h.onEvent({ type: 'gate', tool: 'run_command', subject: 'make all', allowed: true, notes: ['approved (once, this turn)'] });
    h.onLive!({ type: 'command-start', callId: 'c1', command: 'make all' });
    h.onLive!(out('compiling a.c\ncompiling b'));
    await until(() => lastFrame()!.includes('compiling b'));
    let frame = lastFrame()!;
    expect(frame).toMatch(/running `make all` · \d+s · Esc interrupts/);
    expect(frame).toMatch(/│ compiling a\.c\s*│\n│ compiling b\s*│/);
    expect(frame).not.toContain('thinking…');

    h.onLive!(out('.c\nlinking\n'));
    await until(() => lastFrame()!.includes('linking'));
    frame = lastFrame()!;
    expect(frame).toMatch(/│ compiling b\.c\s*│\n│ linking\s*│/);

    h.onLive!({ type: 'command-end', callId: 'c1' });
    h.onEvent({ type: 'output', tool: 'run_command', subject: 'make all', text: 'compiling a.c\ncompiling b.c\nlinking' });
    await until(() => lastFrame()!.includes('thinking…'));
    frame = lastFrame()!;
    expect(frame).not.toContain('running `make all`');
    expect(frame).toContain('  │ linking');
    turn.finish();
    await until(() => !lastFrame()!.includes('thinking…'));
  });

  it('shows escapes and control characters in the output as text, never raw', async () => {
    const { lastFrame, turn, h } = await begin('go');
    h.onLive!({ type: 'command-start', callId: 'c1', command: 'printf x\x1b[2J' });
    h.onLive!(out('before\x1b[2J\x1b[Hafter\rover\n\x07bell <U+202E>\u202egnp.exe\n'));
    await until(() => lastFrame()!.includes('after'));
    const frame = lastFrame()!;
    expect(frame).toContain('running `printf x\\x1b[2J`');
    expect(frame).toContain('before\\x1b[2J\\x1b[Hafter\\rover');
    expect(frame).toContain('\\x07bell');
    expect(frame).toContain('<U+202E>gnp.exe');
    expect(frame).not.toMatch(/\x1b\[2J|\x1b\[H|\x07|\u202e/);
    turn.finish();
  });

  it('the spinner says what is happening: waiting in the queue, then thinking again when the gate decides', async () => {
    const { lastFrame, turn, h } = await begin('go');
    h.onProgress('waiting for an answer in the queue: wisp approvals approve 1a2b3c4d');
    await until(() => lastFrame()!.includes('waiting for an answer'));
    expect(lastFrame()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for an answer in the queue: wisp approvals approve 1a2b3c4d/);
    expect(lastFrame()).not.toContain('thinking…');
    h.onEvent({ type: 'gate', tool: 'run_command', subject: 'touch x', allowed: false, notes: ['denied'] });
    await until(() => lastFrame()!.includes('thinking…'));
    expect(lastFrame()).toContain('thinking…');
    turn.finish();
  });
});

describe('LiveActivity on its own', () => {
  it('shows the time the command has run, counted from its start, and how many lines it wrote', async () => {
    let now = 1_000_000;
    const activity = new TurnActivity(() => now);
    activity.live({ type: 'command-start', callId: 'c1', command: 'seq 100' });
    for (let i = 1; i <= 100; i++) activity.live(out(`${i}\n`));
    now += 12_400;
    const { lastFrame } = render(<LiveActivity activity={activity} now={() => now} intervalMs={20} />);
    await until(() => lastFrame()!.includes('12s'));
    const frame = lastFrame()!;
    expect(frame).toMatch(/running `seq 100` · 12s · 100 lines · Esc interrupts/);
    const shown = frame.split('\n').filter((l) => /│ \d+/.test(l));
    expect(shown.map((l) => l.replace(/[│ ]/g, ''))).toEqual(['93', '94', '95', '96', '97', '98', '99', '100']);
  });

  it('keeps one box line per output line, however long the line is', async () => {
    const activity = new TurnActivity();
    activity.live({ type: 'command-start', callId: 'c1', command: 'cat big' });
    activity.live(out(`${'x'.repeat(5000)}\nshort\n`));
    const { lastFrame } = render(<LiveActivity activity={activity} intervalMs={20} />);
    await until(() => lastFrame()!.includes('short'));
    const rows = lastFrame()!.split('\n');
    expect(rows.length).toBe(5); // the spinner line, the box's top, two lines, its bottom
  });
});

describe('LiveTail', () => {
  it('keeps the last lines only, the unfinished ones of each stream last, without mixing the streams', () => {
    const t = new LiveTail(3);
    t.push('stdout', 'a\nb\nc');
    t.push('stderr', 'warn: ');
    t.push('stdout', 'd\ne\n');
    t.push('stderr', 'low disk');
    expect(t.lines()).toEqual(['cd', 'e', 'warn: low disk']);
    expect(t.total).toBe(5);
  });

  it('memory stays bounded: a million lines keep LIVE_LINES, a line with no break keeps its end', () => {
    const t = new LiveTail();
    const chunk = 'line\n'.repeat(10_000);
    for (let i = 0; i < 100; i++) t.push('stdout', chunk);
    expect(t.lines()).toHaveLength(LIVE_LINES);
    expect(t.total).toBe(1_000_000);
    const u = new LiveTail();
    for (let i = 0; i < 1000; i++) u.push('stdout', 'y'.repeat(1000));
    u.push('stdout', 'END');
    const [only] = u.lines();
    expect(only!.length).toBeLessThanOrEqual(2000);
    expect(only!.endsWith('yEND')).toBe(true);
  });

  it('output of a call that is not the running one is not shown', () => {
    const a = new TurnActivity();
    a.live({ type: 'command-start', callId: 'c2', command: 'ls' });
    a.live(out('from another call\n'));
    const v = a.view();
    expect(v.kind === 'running' && v.lines).toEqual([]);
  });
});
