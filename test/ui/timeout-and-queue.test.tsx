import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Escalation } from '../../src/escalation/types.js';
import { App } from '../../ui/App.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';
import { FakeEngine, KEYS, press, pressAfterPause, settle } from './helpers.js';

const approval = (command = 'touch marker-t'): Escalation => ({
  verb: 'approval',
  request: { command, line: command, pattern: 'touch *', directory: '/w', level: 'moderate', reasons: ['modifies files'] },
});
const ctx = (id: string, timeoutMs: number, signal?: AbortSignal) => ({ session: 's', escalationId: id, timeoutMs, ...(signal ? { signal } : {}) });
const bars = (frame: string) => (frame.match(/█/g) ?? []).length;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the timeout bar (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  });

  it('shrinks with the seconds left and, at zero, the dialog ends unanswered and closes', async () => {
    const store = new DialogStore();
    const channel = new TerminalChannel(store);
    const { lastFrame } = render(<App engine={new FakeEngine()} store={store} bell={() => {}} />);
    const outcome = channel.raise(approval(), ctx('e1', 10_000));
    await vi.advanceTimersByTimeAsync(0);
    const first = lastFrame()!;
    expect(first).toContain('10s left, then refused');
    expect(bars(first)).toBe(30);

    await vi.advanceTimersByTimeAsync(5_000);
    const half = lastFrame()!;
    expect(half).toContain('5s left');
    expect(bars(half)).toBe(15);

    await vi.advanceTimersByTimeAsync(4_000);
    expect(lastFrame()).toContain('1s left');
    expect(bars(lastFrame()!)).toBeLessThan(15);

    await vi.advanceTimersByTimeAsync(1_000);
    await expect(outcome).resolves.toEqual({ kind: 'unanswered', waitedMs: 10_000 });
    await vi.advanceTimersByTimeAsync(0);
    expect(lastFrame()).not.toContain('approve a command?');
    expect(lastFrame()).toContain('no requests pending');
  });

  it('with timeoutSeconds 0 shows no bar and waits', async () => {
    const store = new DialogStore();
    const channel = new TerminalChannel(store);
    const { lastFrame } = render(<App engine={new FakeEngine()} store={store} bell={() => {}} />);
    let settled = false;
    void channel.raise(approval(), ctx('e0', 0)).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(settled).toBe(false);
    expect(lastFrame()).toContain('no time limit: waiting for your answer');
    expect(bars(lastFrame()!)).toBe(0);
    store.closeAll();
  });

  it('ends within its bound even when nothing draws it', async () => {
    const store = new DialogStore();
    const outcome = new TerminalChannel(store).raise(approval(), ctx('e2', 2_000));
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(outcome).resolves.toMatchObject({ kind: 'unanswered' });
  });
});

describe('withdrawal and the queue of dialogs', () => {
  it('closes the dialog when the caller withdraws (abort signal)', async () => {
    const store = new DialogStore();
    const channel = new TerminalChannel(store);
    const { lastFrame } = render(<App engine={new FakeEngine()} store={store} bell={() => {}} />);
    const ac = new AbortController();
    const outcome = channel.raise(approval(), ctx('w1', 60_000, ac.signal));
    await settle();
    expect(lastFrame()).toContain('approve a command?');
    ac.abort();
    await expect(outcome).resolves.toEqual({ kind: 'declined', reason: 'the request was withdrawn' });
    await settle();
    expect(lastFrame()).not.toContain('approve a command?');
  });

  it('shows one dialog at a time, counts the rest, and never swaps the one on screen', async () => {
    const store = new DialogStore();
    const channel = new TerminalChannel(store);
    let rings = 0;
    const { lastFrame, stdin } = render(<App engine={new FakeEngine()} store={store} bell={() => rings++} quietMs={0} />);
    const first = channel.raise(approval('touch first'), ctx('q1', 60_000));
    await settle();
    const second = channel.raise(approval('touch second'), ctx('q2', 60_000));
    await settle();
    expect(lastFrame()).toContain('touch first');
    expect(lastFrame()).not.toContain('touch second');
    expect(lastFrame()).toContain('2 pending (+1 waiting)');
    expect(rings).toBe(1);

    await press(stdin, 'y');
    await expect(first).resolves.toEqual({ kind: 'approved', scope: 'once' });
    expect(lastFrame()).toContain('touch second');
    expect(lastFrame()).toContain('1 pending');
    expect(lastFrame()).not.toContain('waiting)');
    expect(rings).toBe(2);

    await press(stdin, KEYS.enter);
    await expect(second).resolves.toMatchObject({ kind: 'declined' });
    expect(lastFrame()).toContain('no requests pending');
  });

  it('holds keys back for a moment when the next dialog opens right after an answer', async () => {
    const store = new DialogStore();
    const channel = new TerminalChannel(store);
    const { lastFrame, stdin } = render(<App engine={new FakeEngine()} store={store} bell={() => {}} quietMs={300} />);
    const first = channel.raise(approval('touch first'), ctx('g1', 60_000));
    const second = channel.raise(approval('touch second'), ctx('g2', 60_000));
    let firstDone = false;
    void first.then(() => (firstDone = true));
    await pressAfterPause(stdin, 's', 300, () => firstDone);
    await expect(first).resolves.toEqual({ kind: 'approved', scope: 'session' });
    await press(stdin, 's'); // the same key again, at once: must not approve the next command
    expect(lastFrame()).toContain('touch second');
    expect(lastFrame()).toMatch(/typing detected: keys are ignored until you pause/);
    let secondDone = false;
    void second.then(() => (secondDone = true));
    await pressAfterPause(stdin, 'n', 300, () => secondDone);
    await expect(second).resolves.toMatchObject({ kind: 'declined' });
  });
});
