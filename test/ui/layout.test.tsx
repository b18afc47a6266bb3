// Issue 14 point 8 without a terminal: the status line at 60 and 80 columns, the middle-shortening of a model spec,
// the erase after a narrowing (ui/reflow.ts), and NO_COLOR's rule.
import { EventEmitter } from 'node:events';
import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { colourOff, loadWithColourDecided } from '../../commands/chat-colour.js';
import { columns, layoutParts, shortenMiddle } from '../../ui/fit.js';
import { eraseLines, parseClear, ReflowSafeStdout, ScreenTail } from '../../ui/reflow.js';
import { StatusLine, statusParts } from '../../ui/StatusLine.js';

afterEach(() => cleanup());

const info = {
  model: 'openai:qwen2.5-coder-32b-instruct-q4_K_M@http://127.0.0.1:8080/v1',
  channel: 'terminal',
  sandbox: 'bwrap',
  sandboxOk: true,
};

describe('the status line at 60 and 80 columns', () => {
  it('is one row when everything fits, as before', () => {
    const { lastFrame } = render(<StatusLine info={{ ...info, model: 'ollama:qwen3:8b' }} dialogOpen={false} waiting={0} columns={100} />);
    expect(lastFrame()).toBe('ollama:qwen3:8b · terminal · sandbox bwrap · no requests pending');
  });

  it('at 80: one row, the model spec shortened in the middle (its kind and its end kept)', () => {
    const { lastFrame } = render(<StatusLine info={info} dialogOpen={true} waiting={2} columns={80} />);
    const rows = lastFrame()!.split('\n');
    expect(rows).toHaveLength(1);
    expect(columns(rows[0]!)).toBeLessThan(80);
    expect(rows[0]).toMatch(/^openai:qwen2\.5-c.*….*8080\/v1 · terminal · sandbox bwrap · 3 pending \(\+2( waiting)?\)$/);
  });

  it('at 60: rows broken between parts, each within the width, nothing cut mid-part but the spec', () => {
    const { lastFrame } = render(<StatusLine info={info} dialogOpen={true} waiting={2} columns={60} />);
    const rows = lastFrame()!.split('\n');
    expect(rows.length).toBe(2);
    for (const r of rows) expect(columns(r)).toBeLessThan(60);
    expect(rows[0]).toMatch(/^openai:.*…/);
    expect(rows.join('\n')).toContain('sandbox bwrap');
    expect(rows.join('\n')).toMatch(/3 pending \(\+2( waiting)?\)/);
    for (const r of rows) expect(r).toMatch(/^(openai:|terminal|sandbox|3 pending)/);
  });

  it('a broken sandbox keeps its words however narrow: shortened at the end, never dropped', () => {
    const parts = statusParts({ ...info, sandbox: 'bwrap not working', sandboxOk: false }, false, 0);
    const rows = layoutParts(parts, 30);
    const all = rows.flat();
    expect(all.find((p) => p.tone === 'bad')!.text).toMatch(/^sandbox bwrap not/);
    for (const row of rows) expect(row.reduce((n, p) => n + columns(p.text), 0) + 3 * (row.length - 1)).toBeLessThanOrEqual(30);
  });
});

describe('shortenMiddle', () => {
  it('keeps both ends and marks the cut', () => {
    expect(shortenMiddle('openai:abcdefghijklmnopqrstuvwxyz', 15)).toBe('openai:…tuvwxyz');
    expect(shortenMiddle('short', 15)).toBe('short');
    expect(columns(shortenMiddle('日本語のモデル名がとても長い', 9))).toBeLessThanOrEqual(9);
  });
});

describe('the erase after a narrowing (reflow)', () => {
  it('counts the rows the last lines take at the new width', () => {
    const tail = new ScreenTail();
    tail.write('transcript line\n');
    tail.write(`╭${'─'.repeat(98)}╮\n│ title${' '.repeat(92)}│\n╰${'─'.repeat(98)}╯\n`);
    // The cursor is on the empty row under the frame: Ink erases it and the 3 frame lines (count 4).
    expect(tail.rows(4, 60)).toBe(1 + 2 + 2 + 2);
    expect(tail.rows(4, 100)).toBe(4);
  });

  it('recognises only a pure erase of whole lines', () => {
    expect(parseClear(eraseLines(4))).toEqual({ prefix: '', count: 4 });
    expect(parseClear('\x1b[?25l' + eraseLines(2))).toEqual({ prefix: '\x1b[?25l', count: 2 });
    expect(parseClear(eraseLines(2) + 'frame\n')).toBeUndefined();
    expect(parseClear('text' + eraseLines(2))).toBeUndefined();
  });

  it('widens the erase Ink writes from its resize listener, and only that one', () => {
    const out = Object.assign(new EventEmitter(), {
      columns: 100,
      rows: 40,
      isTTY: true,
      written: [] as string[],
      write(d: string) {
        this.written.push(d);
        return true;
      },
    });
    const stdout = new ReflowSafeStdout(out as unknown as NodeJS.WriteStream);
    const frame = `╭${'─'.repeat(98)}╮\n╰${'─'.repeat(98)}╯\n`;
    stdout.write(frame);
    stdout.on('resize', () => stdout.write(eraseLines(3))); // what Ink's listener does on a narrowing
    out.columns = 60;
    out.emit('resize');
    expect(out.written.at(-1)).toBe(eraseLines(1 + 2 + 2));
    stdout.write(eraseLines(3)); // a later erase is Ink's own again
    expect(out.written.at(-1)).toBe(eraseLines(3));
    out.columns = 120; // widening: nothing re-wrapped
    out.emit('resize');
    expect(out.written.at(-1)).toBe(eraseLines(3));
    stdout.dispose();
  });
});

describe('NO_COLOR', () => {
  it('any non-empty value turns colour off; empty or unset does not', () => {
    expect(colourOff({ NO_COLOR: '1' })).toBe(true);
    expect(colourOff({ NO_COLOR: 'false' })).toBe(true);
    expect(colourOff({ NO_COLOR: '' })).toBe(false);
    expect(colourOff({})).toBe(false);
  });

  it('Ink is loaded with FORCE_COLOR=0, and the variable is put back for the commands the chat runs', async () => {
    const env: NodeJS.ProcessEnv = { NO_COLOR: '1' };
    const seen = await loadWithColourDecided(env, async () => env.FORCE_COLOR);
    expect(seen).toBe('0');
    expect('FORCE_COLOR' in env).toBe(false);
    const env2: NodeJS.ProcessEnv = { NO_COLOR: '1', FORCE_COLOR: '3' };
    await loadWithColourDecided(env2, async () => undefined);
    expect(env2.FORCE_COLOR).toBe('3');
    const env3: NodeJS.ProcessEnv = {};
    expect(await loadWithColourDecided(env3, async () => env3.FORCE_COLOR)).toBeUndefined();
  });
});
