// Issue #16.4, ADR 0056: `wisp chat` draws its input line before the session is open and takes keys from the first
// moment. In a real pseudo-terminal against the built CLI: keys typed before wisp had the terminal (still echoing and
// editing lines) reach the input line intact, their echo erased, and are never sent by an Enter of that time; keys
// typed during the start go to the input line as ever; none of them ever answers a dialog. Needs the build.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { chatSetup, type ChatSetup, usePtyChats } from '../helpers/pty-chat.js';
import { PtyTerm } from '../helpers/pty-term.js';

const start = usePtyChats();
const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A chat whose wisp starts only when `go()` is called: the keys typed before are in the terminal while it is still in
 * its line-editing mode — echoed, Enter made a line break — which is the case to prove, whatever the machine's speed.
 */
function heldChat(s: ChatSetup): { t: PtyTerm; go: () => void } {
  const gate = join(s.dir, 'go');
  const wait = 'while [ ! -e "$0" ]; do sleep 0.02; done; exec "$@"';
  const t = new PtyTerm('/bin/sh', ['-c', wait, gate, process.execPath, BIN, 'chat', '-m', `script:${s.script}`], {
    cwd: s.work,
    env: { WISP_HOME: s.home },
  });
  held.push(t);
  return { t, go: () => writeFileSync(gate, '') };
}
let held: PtyTerm[] = [];
afterEach(() => {
  for (const t of held) t.kill();
  held = [];
});

/** The prompts the audit log recorded, in order. */
function prompts(home: string): string[] {
  const file = join(home, 'logs', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"kind":"prompt"'))
    .map((l) => (JSON.parse(l) as { details: { text: string } }).details.text);
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('wisp chat takes keys from its first moment (pty)', () => {
  it('keys typed before wisp has the terminal arrive intact in the input line, once; their echo is gone', async () => {
    const s = chatSetup([{ text: 'the reply' }]);
    const { t, go } = heldChat(s);
    // Typed in pieces, with a correction, while the terminal still edits lines (it echoes them).
    t.write('hello ');
    t.write('wisq');
    t.write('\x7f'); // Backspace
    t.write('p');
    await t.waitForRaw('hello wisq\b \bp');
    go();
    const screen = await t.waitFor('› hello wisp');
    expect(count(screen, 'hello wis')).toBe(1);
    // The session opens behind the line; nothing was sent: it waits for Enter.
    await t.waitFor(/sandbox (?!starting)/);
    expect(prompts(s.home)).toEqual([]);
    t.write('\r');
    await t.waitFor('the reply');
    expect(prompts(s.home)).toEqual(['hello wisp']);
    expect(count(await t.text(), 'hello wisp')).toBe(1);
  }, 60_000);

  it('attack: Enter typed before wisp has the terminal sends nothing; the lines wait in the input line for an Enter seen on screen', async () => {
    const s = chatSetup([{ text: 'reply one' }]);
    const { t, go } = heldChat(s);
    t.write('first prompt\r');
    t.write('second prompt\r');
    await t.waitForRaw('second prompt\r\n');
    go();
    await t.waitFor(/› first prompt\n\s+second prompt/);
    await t.waitFor(/sandbox (?!starting)/);
    await sleep(300);
    expect(prompts(s.home)).toEqual([]);
    t.write('\r');
    await t.waitFor('reply one');
    expect(prompts(s.home)).toEqual(['first prompt\nsecond prompt']);
  }, 60_000);

  it('keys typed at start-up (whenever they land) are one prompt, sent once, after the session is open', async () => {
    const s = chatSetup([{ text: 'reply one' }, { text: 'reply two' }]);
    const t = start(s);
    t.write('only this');
    await t.waitFor('› only this');
    t.write('\r');
    await t.waitFor('reply one');
    expect(prompts(s.home)).toEqual(['only this']);
    expect(count(await t.text(), 'reply one')).toBe(1);
  }, 60_000);

  it('attack: y typed during the start, before the dialog exists, does not answer it; the command does not run', async () => {
    const s = chatSetup([run('touch early-marker'), { text: 'after the dialog' }]);
    const t = start(s);
    // The prompt, then a `y` and a `y` + Enter that a person (or a paste) put in before wisp was even drawn.
    t.write('make a marker\r');
    t.write('y');
    t.write('y\r');
    // Typed before wisp had the terminal, the keys are in the input line as a paste and wait for Enter; typed after,
    // the prompt went (and `yy` waits as the next one). Either way the dialog must not take them.
    const first = await t.waitFor(/approve a command\?|› make a marker\n/);
    if (!first.includes('approve a command?')) t.write('\r');
    await t.waitFor('approve a command?');
    // The dialog is open and stays open: the early keys were type-ahead for the input line, never its answer.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await t.screen()).toContain('approve a command?');
    expect(existsSync(join(s.work, 'early-marker'))).toBe(false);
    await t.answerDialog('n', 'approve a command?');
    await t.waitFor('after the dialog');
    expect(existsSync(join(s.work, 'early-marker'))).toBe(false);
  }, 60_000);
});
