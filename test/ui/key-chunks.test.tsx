// One read from the terminal can hold several keys (a fast typist, a paste, a machine that was busy): Ink passes it
// as one string. These tests send such chunks and check that each control key inside still acts as itself (Ctrl+C
// clears or interrupts, Backspace deletes) and that no key read together with another ever answers a dialog.
import { cleanup, render } from 'ink-testing-library';
import type { Key } from 'ink';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Escalation, EscalationOutcome } from '../../src/escalation/types.js';
import { App } from '../../ui/App.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';
import { keyOf, splitChunk } from '../../ui/use-keys.js';
import { FakeEngine } from './helpers.js';

afterEach(() => cleanup());

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
async function settle(ms = 0): Promise<void> {
  await tick(ms);
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
}

const plain: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false,
  end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false,
  meta: false, super: false, hyper: false, capsLock: false, numLock: false,
};

describe('splitChunk and keyOf', () => {
  it('splits a read at its control characters and keeps text, line breaks and escape sequences whole', () => {
    expect(splitChunk('\x03/quit\r')).toEqual(['\x03', '/quit\r']);
    expect(splitChunk('ab\x7fc')).toEqual(['ab', '\x7f', 'c']);
    expect(splitChunk('y\x03')).toEqual(['y', '\x03']);
    expect(splitChunk('line one\nline two\r')).toEqual(['line one\nline two\r']);
    expect(splitChunk('\x1b[A')).toEqual(['\x1b[A']);
    expect(splitChunk('\x03')).toEqual(['\x03']);
    expect(splitChunk('\x03\x03')).toEqual(['\x03', '\x03']);
  });

  it('names each control key as Ink does when it is read alone', () => {
    expect(keyOf('\x03', plain)).toMatchObject({ input: 'c', key: { ctrl: true } });
    expect(keyOf('\x15', plain)).toMatchObject({ input: 'u', key: { ctrl: true } });
    expect(keyOf('\x7f', plain)).toMatchObject({ input: '', key: { delete: true, ctrl: false } });
    expect(keyOf('\b', plain)).toMatchObject({ input: '', key: { backspace: true } });
    expect(keyOf('Y', plain)).toMatchObject({ input: 'Y', key: { shift: true, ctrl: false } });
    expect(keyOf('/quit\r', plain)).toMatchObject({ input: '/quit\r', key: { ctrl: false, return: false } });
  });
});

describe('several keys in one read, on the input line', () => {
  it('Ctrl+C read together with the next text clears the draft and keeps only what came after it', async () => {
    const { stdin, lastFrame } = render(<App engine={new FakeEngine()} store={new DialogStore()} bell={() => {}} />);
    await settle();
    stdin.write('draft to drop');
    await settle(20);
    stdin.write('\x03next');
    await settle(20);
    const frame = strip(lastFrame()!);
    expect(frame).toContain('› next');
    expect(frame).not.toContain('draft to drop');
    expect(frame).not.toContain('\\x03');
  });

  it('a Backspace typed fast between letters deletes, and is not typed into the line', async () => {
    const { stdin, lastFrame } = render(<App engine={new FakeEngine()} store={new DialogStore()} bell={() => {}} />);
    await settle();
    stdin.write('lx\x7fs -la');
    await settle(20);
    expect(strip(lastFrame()!)).toContain('› ls -la');
  });
});

describe('several keys in one read never answer a dialog', () => {
  const approval: Escalation = {
    verb: 'approval',
    request: { command: 'touch f', line: 'touch f', pattern: 'touch *', directory: '/w', level: 'moderate', reasons: ['writes'] },
  };
  function open() {
    const store = new DialogStore();
    const r = render(<App engine={new FakeEngine()} store={store} bell={() => {}} />);
    let outcome: EscalationOutcome | undefined;
    void new TerminalChannel(store).raise(approval, { session: 's', escalationId: 'e1', timeoutMs: 60_000 }).then((o) => (outcome = o));
    return { ...r, outcome: () => outcome };
  }

  for (const [name, chunk] of [
    ['Ctrl+C then y', '\x03y'],
    ['Backspace then y', '\x7fy'],
    ['Ctrl+U then s', '\x15s'],
    ['Ctrl+A then Enter', '\x01\r'],
  ] as const) {
    it(`${name} in one read, after a long pause: nothing is approved`, async () => {
      const { stdin, lastFrame, outcome } = open();
      await settle(700);
      stdin.write(chunk);
      await settle(50);
      expect(outcome()).toBeUndefined();
      expect(strip(lastFrame()!)).toContain('approve a command?');
      // A deliberate key after a pause still answers: the dialog was not broken by the chunk.
      await settle(600);
      stdin.write('n');
      await settle(50);
      expect(outcome()).toMatchObject({ kind: 'declined' });
    });
  }
});
