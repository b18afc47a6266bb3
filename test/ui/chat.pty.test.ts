// `wisp chat` in a real pseudo-terminal (node-pty + @xterm/headless), driving the built CLI with a script model:
// the dialog and its bar, `s`, a timeout nobody answers, a request from a `wisp mcp` beside it, and no TTY at all.
// Needs the build: `npx tsc -p tsconfig.build.json` (npm test builds first).
import { existsSync, writeFileSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshHome, wisp } from '../helpers/cli.js';
import { chatSetup as setup } from '../helpers/pty-chat.js';
import { PtyTerm } from '../helpers/pty-term.js';

const READY = 'type a prompt, or /help';
const answer = (t: PtyTerm, key: string) => t.answerDialog(key, 'approve a command?');
const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });

let terms: PtyTerm[] = [];
let clients: Client[] = [];

beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx tsc -p tsconfig.build.json)`);
});

afterEach(async () => {
  for (const c of clients) await c.close().catch(() => {});
  for (const t of terms) t.kill();
  terms = [];
  clients = [];
});

function chat(s: { home: string; work: string; script: string }): PtyTerm {
  const t = new PtyTerm(process.execPath, [BIN, 'chat', '-m', `script:${s.script}`], { cwd: s.work, env: { WISP_HOME: s.home } });
  terms.push(t);
  return t;
}

describe('wisp chat in a pseudo-terminal', () => {
  it('shows the approval dialog with its bar; s approves for the session and the command runs', async () => {
    const s = setup([run('touch marker-t'), { text: 'Created the marker.' }]);
    const t = chat(s);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    const dialog = await t.waitFor(/approve a command\?[\s\S]*left, then refused/);
    expect(dialog).toContain('touch marker-t');
    expect(dialog).toMatch(/█+░*\s+10m 00s left|█+░*\s+9m 5\ds left/);
    expect(dialog).toContain(`Directory: ${s.work}`);
    expect(dialog).toContain('Remembered as: touch *');
    expect(dialog).toContain('1 pending');
    await t.waitForRaw('\x07'); // the bell rang when it opened
    expect(existsSync(join(s.work, 'marker-t'))).toBe(false);

    await answer(t, 's'); // a key counts only after a pause (issue 14)
    const after = await t.waitFor('Created the marker.');
    expect(after).toContain('· run_command: touch marker-t — approved (session)');
    expect(after).not.toContain('approve a command?');
    expect(existsSync(join(s.work, 'marker-t'))).toBe(true);

    // On a stalled machine answer() may have pressed once more after the dialog had taken the key; that key is in
    // the input line. Ctrl+C clears it (or, on an empty line, only asks), so /quit is typed on an empty line. Sent
    // as one write, as a fast typist's keys often arrive: the Ctrl+C inside the read must still act as Ctrl+C.
    t.write('\x03/quit\r');
    await expect(t.exited).resolves.toMatchObject({ exitCode: 0 });
  }, 120_000);

  it('with nobody answering, the bar runs out, the refusal is in the transcript and nothing runs', async () => {
    const s = setup([run('touch marker-t'), { text: 'I could not create it.' }], { escalation: { timeoutSeconds: 3 } });
    const t = chat(s);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    const dialog = await t.waitFor(/[123]s left, then refused/);
    expect(dialog).toMatch(/█/);
    const after = await t.waitFor('no answer in time, refused', 15_000);
    expect(after).toContain('· run_command: touch marker-t — no answer in time, refused');
    expect(after).not.toContain('approve a command?');
    await t.waitFor('I could not create it.');
    expect(existsSync(join(s.work, 'marker-t'))).toBe(false);
  }, 120_000);

  it('Enter alone refuses', async () => {
    const s = setup([run('touch marker-t'), { text: 'Refused, then.' }]);
    const t = chat(s);
    await t.waitFor(READY);
    await t.typeLine('make a marker');
    await t.waitFor('approve a command?');
    await answer(t, '\r');
    const after = await t.waitFor('Refused, then.');
    expect(after).toMatch(/touch marker-t — denied: declined by the person \(wisp chat\)/);
    expect(existsSync(join(s.work, 'marker-t'))).toBe(false);
  }, 120_000);

  it('shows a request from a `wisp mcp` beside it, marked with client and thread, and answers it there', async () => {
    const s = setup([{ text: 'unused' }]);
    const mcpScript = join(s.dir, 'mcp.json');
    writeFileSync(mcpScript, JSON.stringify({ responses: [run('touch marker-q'), { text: 'Made it.' }] }));
    const t = chat(s);
    await t.waitFor(READY);

    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string' && k !== 'CI') env[k] = v;
    env.WISP_HOME = s.home;
    const client = new Client({ name: 'pty-test-agent', version: '1' }, { capabilities: {} });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '-m', `script:${mcpScript}`, '--escalation', 'queue'], cwd: s.work, env, stderr: 'pipe' }),
    );
    const result = client.callTool({ name: 'respond', arguments: { prompt: 'make a marker', thread_id: 'thread-q' } }, undefined, { timeout: 60_000 });

    // Wait for the whole dialog, down to its bar: a frame can reach the terminal in more than one read, and CI once
    // caught this screen between them, after the command and before the bar.
    const dialog = await t.waitFor(/approve a command\?[\s\S]*touch marker-q[\s\S]*left, then refused/, 30_000);
    expect(dialog).toMatch(/Asked by: .*thread thread-q \(another wisp process, pid \d+/);
    await answer(t, 'y');

    const r = (await result) as { structuredContent?: { text?: string; refusals?: unknown[] } };
    expect(r.structuredContent?.refusals ?? []).toEqual([]);
    expect(r.structuredContent?.text).toBe('Made it.');
    expect(existsSync(join(s.work, 'marker-q'))).toBe(true);
    const after = await t.waitFor(/thread thread-q: touch marker-q — you approved \(once\)/);
    expect(after).not.toContain('approve a command?');
  }, 90_000);
});

describe('wisp chat without a terminal', () => {
  it('exits 64 with a clear message when stdin is not a TTY', () => {
    const { dir, home } = freshHome();
    const r = wisp(['chat', '-m', 'script:/nonexistent.json'], { cwd: dir, home, input: 'hello\n' });
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/wisp chat needs a terminal: standard input is not a TTY.*wisp respond/);
  });
});
