// Issue 14 point 7 against the built CLI in a real pseudo-terminal: a conversation is saved as it goes; `--continue`
// brings back its transcript and the model's context (seen in what the model server is sent next), `--resume` picks
// one from a list; approvals never come back (a command approved for the session asks again); a tampered file is
// refused with exit 64 and left unchanged. Needs the build (npx tsc -p tsconfig.build.json).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshHome, wispInPty } from '../helpers/cli.js';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm.js';
import { PtyTerm } from '../helpers/pty-term.js';

const READY = 'type a prompt, or /help';
const DIALOG = 'approve a command?';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let terms: PtyTerm[] = [];
let servers: FakeLlm[] = [];
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx tsc -p tsconfig.build.json)`);
});
afterEach(async () => {
  for (const t of terms) t.kill();
  terms = [];
  for (const s of servers) await s.close();
  servers = [];
});

function place() {
  const { dir, home } = freshHome();
  const work = join(dir, 'work');
  mkdirSync(work);
  const open = (args: string[]) => {
    const t = new PtyTerm(process.execPath, [BIN, 'chat', ...args], { cwd: work, env: { WISP_HOME: home } });
    terms.push(t);
    return t;
  };
  const saved = () => (existsSync(join(home, 'sessions')) ? readdirSync(join(home, 'sessions')) : []);
  return { dir, home, work, open, saved };
}

async function quit(t: PtyTerm) {
  // Ctrl+C first: it clears a stray key a retried dialog answer may have left in the input line; then Ctrl+D quits.
  t.write('\x03');
  await sleep(200);
  t.write('\x04');
  await expect(t.exited).resolves.toMatchObject({ exitCode: 0 });
}

describe('saved conversations (pty)', () => {
  it('--continue brings back the transcript and the context: the model is sent the earlier prompt and reply', async () => {
    const llm = await startFakeLlm({ toolCalls: [], text: 'Noted: heron.' });
    servers.push(llm);
    const { home, open, saved } = place();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ openai: { baseURL: llm.openaiURL } }), { mode: 0o600 });
    const first = open(['-m', 'openai:test']);
    await first.waitFor(READY);
    await first.typeLine('remember the word heron');
    await first.waitFor('Noted: heron.');
    await quit(first);
    expect(saved()).toHaveLength(1);

    llm.set({ text: 'It was heron.' });
    const second = open(['-m', 'openai:test', '--continue']);
    const screen = await second.waitFor(READY);
    expect(screen).toContain('› remember the word heron');
    expect(screen).toContain('Noted: heron.');
    expect(screen).toMatch(/resumed conversation \S+ .*the model has its context again/s);
    await second.typeLine('which word?');
    await second.waitFor('It was heron.');
    const last = llm.requests[llm.requests.length - 1]!.body as { messages: Array<{ role: string; content: string }> };
    expect(last.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', expect.any(String)],
      ['user', 'remember the word heron'],
      ['assistant', 'Noted: heron.'],
      ['user', 'which word?'],
    ]);
    await quit(second);
    expect(saved()).toHaveLength(1); // the same conversation goes on in the same file
  }, 120_000);

  it('--resume lists the saved conversations; approvals given in one never come back in the next', async () => {
    const { dir, home, work, open } = place();
    const script = join(dir, 'script.json');
    writeFileSync(script, JSON.stringify({ responses: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch marker-r' } }] }, { text: 'Made it.' }] }));
    const first = open(['-m', `script:${script}`]);
    await first.waitFor(READY);
    await first.typeLine('make a marker');
    await first.waitFor(DIALOG);
    await first.answerDialog('s', DIALOG);
    await first.waitFor('Made it.');
    await first.waitFor(/touch marker-r — approved \(session\)/);
    await quit(first);
    expect(existsSync(join(work, 'marker-r'))).toBe(true);

    const second = open(['-m', `script:${script}`, '--resume']);
    await second.waitFor('Resume a conversation');
    const list = await second.waitFor(/▸ .*1 prompt · make a marker/);
    expect(list).toContain('Enter resume');
    await sleep(200);
    second.write('\r');
    const screen = await second.waitFor(READY);
    expect(screen).toMatch(/touch marker-r — approved \(session\)/);
    expect(screen).toContain('Approvals were not restored');
    // The script starts again at its first response: the same command, approved for the session before, asks again.
    await second.typeLine('make it again');
    await second.waitFor(DIALOG);
    await second.answerDialog('n', DIALOG);
    await second.waitFor(/touch marker-r — denied: declined by the person/);
    const log = readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8');
    expect(log.split('\n').filter((l) => l.includes('"approval.decided"'))).toHaveLength(2);
    await quit(second);
  }, 120_000);

  it('a tampered saved file: --continue exits 64 naming the line, and the file is unchanged', () => {
    const { home, work } = place();
    const file = join(home, 'sessions', '20261201T100000-1a2b3c4d.jsonl');
    mkdirSync(join(home, 'sessions'), { mode: 0o700 });
    const text =
      JSON.stringify({ type: 'start', version: 1, id: '20261201T100000-1a2b3c4d', directory: work, model: 'm', startedAt: '2026-12-01T10:00:00.000Z' }) +
      '\n' +
      JSON.stringify({ type: 'message', message: { role: 'user', content: 'hi' } }) +
      '\n{"type":"message","message":{"role":"assistant","content":"cut';
    writeFileSync(file, text, { mode: 0o600 });
    const r = wispInPty(['chat', '--resume', '20261201T100000-1a2b3c4d', '-m', 'script:/nonexistent.json'], { cwd: work, home });
    expect(r.status).toBe(64);
    expect(r.stdout).toMatch(/cannot resume .*20261201T100000-1a2b3c4d\.jsonl: it is cut short \(its last line is not whole\); the file is left as it is/);
    expect(readFileSync(file, 'utf8')).toBe(text);
    const c = wispInPty(['chat', '--continue', '-m', 'script:/nonexistent.json'], { cwd: work, home });
    expect(c.status).toBe(64);
    expect(c.stdout).toMatch(/no saved conversation to continue in .* \(1 saved file\(s\) fail their checks/);
    const bad = wispInPty(['chat', '--resume', '../../x', '-m', 'script:/nonexistent.json'], { cwd: work, home });
    expect(bad.status).toBe(64);
    expect(bad.stdout).toContain('not a saved conversation id');
  }, 120_000);
});
