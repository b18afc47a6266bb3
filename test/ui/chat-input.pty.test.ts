// Issue 14 point 6 in a real pseudo-terminal against the built CLI: bracketed paste is turned on and off, a pasted
// block of lines stays lines (and is not sent by its line breaks), Alt+Enter begins a new line, and a prompt sent in
// one chat is found with ↑ in the next one (the history file, 0600). Needs the build (npx tsc -p tsconfig.build.json).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatSetup, READY, usePtyChats } from '../helpers/pty-chat.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const start = usePtyChats();

function setup(responses: unknown[]) {
  const s = chatSetup(responses);
  return { home: s.home, open: () => start(s) };
}

/** The prompts the audit log recorded, in order. */
function prompts(home: string): string[] {
  const file = join(home, 'logs', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"kind":"prompt"'))
    .map((l) => (JSON.parse(l) as { details: { text: string } }).details.text);
}

describe('input in a real terminal (pty)', () => {
  it('a bracketed paste stays lines and waits for Enter; Alt+Enter adds a line; ↑ in the next chat finds the prompt', async () => {
    const { home, open } = setup([{ text: 'first reply' }, { text: 'second reply' }]);
    const t = open();
    await t.waitFor(READY);
    expect(t.raw).toContain('\x1b[?2004h');

    t.write('\x1b[200~pasted one\r\npasted two\r\x1b[201~');
    await t.waitFor(/› pasted one\n\s+pasted two/);
    await sleep(300);
    expect(prompts(home)).toEqual([]);
    t.write('tail');
    await sleep(100);
    t.write('\x1b\r');
    await sleep(100);
    t.write('last');
    await t.waitFor(/pasted two\n\s+tail\n\s+last/);
    await sleep(100);
    t.write('\r');
    await t.waitFor('first reply');
    expect(prompts(home)).toEqual(['pasted one\npasted two\ntail\nlast']);
    expect(statSync(join(home, 'history')).mode & 0o777).toBe(0o600);

    t.write('\x04');
    await expect(t.exited).resolves.toMatchObject({ exitCode: 0 });
    expect(t.raw.lastIndexOf('\x1b[?2004l')).toBeGreaterThan(t.raw.lastIndexOf('\x1b[?2004h'));

    const next = open();
    await next.waitFor(READY);
    next.write('\x1b[A');
    await next.waitFor(/› pasted one\n\s+pasted two\n\s+tail\n\s+last/);
    // Ctrl+L: the screen is cleared and the live part (the draft, the status line) drawn again at the top.
    next.write('\x0c');
    const top = await next.waitFor(/^› pasted one\n\s+pasted two/);
    expect(top).not.toContain('wisp chat ·');
    next.write('\x04'); // a draft is there: Ctrl+D does nothing; Ctrl+C clears it, then Ctrl+D quits
    await sleep(100);
    next.write('\x03');
    await sleep(100);
    next.write('\x04');
    await expect(next.exited).resolves.toMatchObject({ exitCode: 0 });
  }, 120_000);
});
