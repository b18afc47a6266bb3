// Issue 14 point 6 in ink-testing-library: the prompt history kept across chats (↑/↓, Ctrl+R), drafts of several
// lines (Alt+Enter, `\` + Enter), and bracketed paste kept as lines and never taken as keys or as an answer.
import { chmodSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Escalation, EscalationOutcome } from '../../src/escalation/types.js';
import { historyFile, PromptHistory } from '../../src/session/prompt-history.js';
import { App } from '../../ui/App.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';
import { PASTE_END, PASTE_START } from '../../ui/use-keys.js';
import { FakeEngine, KEYS, press, settle, until } from './helpers.js';

afterEach(() => cleanup());

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

function home(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-hist-'));
  chmodSync(dir, 0o700);
  return dir;
}

function start(history?: PromptHistory, engine = new FakeEngine()) {
  const store = new DialogStore();
  const r = render(<App engine={engine} store={store} bell={() => {}} quietMs={0} {...(history ? { history } : {})} />);
  return { ...r, store, engine, channel: new TerminalChannel(store) };
}

async function type(stdin: { write(s: string): void }, text: string) {
  for (const ch of text) await press(stdin, ch);
}

describe('prompt history kept across chats', () => {
  it('a prompt sent in one chat is found with ↑ in the next one, and the file is 0600', async () => {
    const dir = home();
    const first = start(PromptHistory.load(historyFile(dir)));
    await press(first.stdin, 'make a marker\r');
    await until(() => first.engine.prompts.length === 1);
    first.unmount();
    expect(statSync(historyFile(dir)).mode & 0o777).toBe(0o600);

    const second = start(PromptHistory.load(historyFile(dir)));
    await press(second.stdin, KEYS.up);
    expect(strip(second.lastFrame()!)).toContain('› make a marker');
    await press(second.stdin, KEYS.enter);
    await until(() => second.engine.prompts.length === 1);
    expect(second.engine.prompts).toEqual(['make a marker']);
  });

  it('a prompt that starts with a space is not kept (the way to type a secret), not even for ↑', async () => {
    const dir = home();
    const { stdin, engine, lastFrame } = start(PromptHistory.load(historyFile(dir)));
    await press(stdin, 'kept\r');
    await until(() => engine.prompts.length === 1);
    await press(stdin, ' my token is hunter2\r');
    await until(() => engine.prompts.length === 2);
    expect(readFileSync(historyFile(dir), 'utf8')).not.toContain('hunter2');
    await press(stdin, KEYS.up);
    // The transcript shows what was sent; the input line, recalled with ↑, skips it.
    const inputLine = () => strip(lastFrame()!).split('\n').filter((l) => l.startsWith('› ')).pop();
    expect(inputLine()).toBe('› kept');
    await press(stdin, KEYS.up);
    expect(inputLine()).toBe('› kept');
  });

  it('a tampered history file is reported, not used and left unchanged', async () => {
    const dir = home();
    const file = historyFile(dir);
    const before = '"fine"\n{"not":"a prompt"}\n';
    writeFileSync(file, before, { mode: 0o600 });
    const history = PromptHistory.load(file);
    expect(history.warning).toMatch(/line 2 is not a saved prompt/);
    expect(history.entries()).toEqual([]);
    const { stdin, engine } = start(history);
    await press(stdin, 'new prompt\r');
    await until(() => engine.prompts.length === 1);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });
});

describe('Ctrl+R searches the history', () => {
  it('finds the newest match, Ctrl+R goes older, Enter takes it into the line, Enter again sends it', async () => {
    const { stdin, lastFrame, engine } = start(PromptHistory.memory(['git status', 'ls -la', 'git log --oneline', 'echo hi']));
    await press(stdin, '\x12');
    await type(stdin, 'git');
    expect(strip(lastFrame()!)).toContain('› git log --oneline');
    expect(strip(lastFrame()!)).toContain('history search: git');
    await press(stdin, '\x12');
    expect(strip(lastFrame()!)).toContain('› git status');
    await press(stdin, KEYS.enter);
    expect(strip(lastFrame()!)).not.toContain('history search');
    expect(engine.prompts).toEqual([]);
    await press(stdin, KEYS.enter);
    await until(() => engine.prompts.length === 1);
    expect(engine.prompts).toEqual(['git status']);
  });

  it('Esc gives back the line as it was; a search with no match says so', async () => {
    const { stdin, lastFrame } = start(PromptHistory.memory(['one']));
    await type(stdin, 'draft');
    await press(stdin, '\x12');
    await type(stdin, 'zzz');
    expect(strip(lastFrame()!)).toContain('(no match)');
    await press(stdin, KEYS.escape);
    expect(strip(lastFrame()!)).toContain('› draft');
    expect(strip(lastFrame()!)).not.toContain('history search');
  });
});

describe('drafts of several lines', () => {
  it('`\\` then Enter, and Alt+Enter, begin a new line; Enter sends all lines as one prompt', async () => {
    const { stdin, lastFrame, engine } = start();
    await type(stdin, 'first\\');
    await press(stdin, KEYS.enter);
    await type(stdin, 'second');
    await press(stdin, '\x1b\r');
    await type(stdin, 'third');
    const frame = strip(lastFrame()!);
    expect(frame).toMatch(/› first\n\s*second\n\s*third/);
    expect(frame).toContain('Alt+Enter');
    expect(engine.prompts).toEqual([]);
    await press(stdin, KEYS.enter);
    await until(() => engine.prompts.length === 1);
    expect(engine.prompts).toEqual(['first\nsecond\nthird']);
  });

  it('↑ moves up a line inside the draft before it reaches the history', async () => {
    const { stdin, lastFrame } = start(PromptHistory.memory(['older prompt']));
    await type(stdin, 'ab\\');
    await press(stdin, KEYS.enter);
    await type(stdin, 'cd');
    await press(stdin, KEYS.up);
    await type(stdin, 'X');
    expect(strip(lastFrame()!)).toMatch(/› abX\n\s*cd/);
    await press(stdin, KEYS.up);
    expect(strip(lastFrame()!)).toContain('› older prompt');
  });
});

describe('bracketed paste', () => {
  it('pasted lines stay lines in the draft and are not sent, whatever the paste ends with', async () => {
    const { stdin, lastFrame, engine } = start();
    stdin.write(`${PASTE_START}line one\r\nline two\rline three\n${PASTE_END}`);
    await settle(50);
    expect(engine.prompts).toEqual([]);
    expect(strip(lastFrame()!)).toMatch(/› line one\n\s*line two\n\s*line three/);
    await press(stdin, KEYS.enter);
    await until(() => engine.prompts.length === 1);
    expect(engine.prompts).toEqual(['line one\nline two\nline three\n']);
  });

  it('a pasted Ctrl+C or escape sequence is text, not a key', async () => {
    const { stdin, lastFrame } = start();
    await type(stdin, 'keep ');
    stdin.write(`${PASTE_START}a\x03b\x1b[2Jc${PASTE_END}`);
    await settle(50);
    const frame = strip(lastFrame()!);
    expect(frame).toContain('› keep a\\x03b\\x1b[2Jc');
    expect(frame).not.toContain('press Ctrl+C again');
  });

  it('a paste of "y" (or text full of y/s/p/a) while a dialog is open answers nothing and goes to the input line', async () => {
    const approval: Escalation = {
      verb: 'approval',
      request: { command: 'touch f', line: 'touch f', pattern: 'touch *', directory: '/w', level: 'moderate', reasons: ['writes'] },
    };
    const { stdin, lastFrame, channel } = start();
    let outcome: EscalationOutcome | undefined;
    void channel.raise(approval, { session: 's', escalationId: 'e1', timeoutMs: 60_000 }).then((o) => (outcome = o));
    await until(() => lastFrame()!.includes('approve a command?'));
    await settle(300);
    stdin.write(`${PASTE_START}y${PASTE_END}`);
    await settle(300);
    stdin.write(`${PASTE_START}\rsay yes, always\r${PASTE_END}`);
    await settle(50);
    expect(outcome).toBeUndefined();
    expect(strip(lastFrame()!)).toContain('approve a command?');
    expect(strip(lastFrame()!)).toMatch(/› y\n\s*say yes, always/);
  });
});

describe('Ctrl+L and /clear', () => {
  it('Ctrl+L clears the screen and draws the input line again, keeping the draft', async () => {
    const { stdin, frames, lastFrame } = start();
    await type(stdin, 'half typed');
    const before = frames.length;
    await press(stdin, '\x0c');
    const written = frames.slice(before).join('');
    expect(written).toContain('\x1b[2J\x1b[H');
    // (ink-testing-library draws in debug mode, where the redraw after the write is not replayed; the pty test
    // checks the screen itself.) The draft is untouched.
    await press(stdin, '!');
    expect(strip(lastFrame()!)).toContain('› half typed!');
  });

  it('/clear clears the screen and says the conversation starts afresh', async () => {
    const engine = new FakeEngine();
    engine.slashImpl = (line) => (line === '/clear' ? { kind: 'clear', text: 'screen cleared; new conversation' } : { kind: 'print', text: '?' });
    const { stdin, frames, lastFrame } = start(undefined, engine);
    const before = frames.length;
    await press(stdin, '/clear\r');
    await until(() => lastFrame()!.includes('screen cleared'));
    expect(frames.slice(before).join('')).toContain('\x1b[2J\x1b[H');
    expect(engine.slashes).toEqual(['/clear']);
  });
});
