// The queue across real processes: a waiting process (test/fixtures/queue/waiter.ts) is answered by
// `wisp approvals …` / `wisp inquiries …` run under a pseudo-terminal, and refused when stdin is not a terminal.
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { answerRequest } from '../../src/escalation/queue/answerer.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerExists, readRequest, requestPath, type QueueRequest } from '../../src/escalation/queue/files.js';
import type { EscalationOutcome } from '../../src/escalation/types.js';
import { wispPaths, type WispPaths } from '../../src/core/paths.js';
import { runInPty, screenText } from '../helpers/pty.js';

const root = resolve(import.meta.dirname, '../..');
// The built CLI (npm test builds first): a tsx start costs seconds on a loaded machine.
const WISP = process.env.WISP_TEST_BIN ?? join(root, 'dist/bin/wisp.js');
const WAITER = join(root, 'test/fixtures/queue/waiter.ts');

let home: string;
let paths: WispPaths;
let env: NodeJS.ProcessEnv;
const children: ChildProcess[] = [];

beforeAll(() => {
  home = fs.mkdtempSync(join(tmpdir(), 'wisp-cli-'));
  paths = wispPaths(home);
  env = { ...process.env, WISP_HOME: home, NO_COLOR: '1' };
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

interface Waiter {
  readonly id: string;
  readonly outcome: Promise<{ outcome: EscalationOutcome; audit: Array<{ kind: string; details: Record<string, unknown> }> }>;
  readonly child: ChildProcess;
}

/** Starts the waiting process and resolves once its request file is on disk. */
async function startWaiter(verb: 'approval' | 'inquiry'): Promise<Waiter> {
  const child = spawn(process.execPath, ['--import', 'tsx', WAITER, verb, '60000'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  let resolveFiled!: (id: string) => void;
  let resolveOutcome!: (v: Awaited<Waiter['outcome']>) => void;
  const filed = new Promise<string>((r, reject) => {
    resolveFiled = r;
    child.once('exit', (code) => reject(new Error(`the waiter exited (${code}) before filing its request`)));
  });
  const outcome = new Promise<Awaited<Waiter['outcome']>>((r) => (resolveOutcome = r));
  lines.on('line', (line) => {
    const msg = JSON.parse(line) as { event: string; id?: string } & Awaited<Waiter['outcome']>;
    if (msg.event === 'filed') resolveFiled(msg.id!);
    if (msg.event === 'outcome') resolveOutcome(msg);
  });
  return { id: await filed, outcome, child };
}

/** Runs the built CLI; under a pseudo-terminal, `keys` are what the person types (e.g. `y\r` at the confirmation). */
function wisp(args: string[], stdin: 'tty' | 'null', keys?: string): Promise<{ code: number; output: string }> {
  if (stdin === 'tty') {
    return runInPty(process.execPath, [WISP, ...args], { cwd: root, env, timeoutMs: 60_000, ...(keys !== undefined ? { input: keys } : {}) }).then((r) => ({
      code: r.exitCode,
      output: r.output,
    }));
  }
  return new Promise((res) => {
    const child = spawn(process.execPath, [WISP, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => res({ code: code ?? -1, output }));
  });
}

/** A request filed by this (live) test process in deferred mode: it stays put until answered or withdrawn. */
async function deferred(command: string): Promise<{ channel: QueueChannel; request: QueueRequest }> {
  const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600, client: 'test' });
  const { id } = await channel.file(
    { verb: 'approval', request: { command, line: command, pattern: command, directory: home, level: 'dangerous', reasons: ['recursive deletion'] } },
    { session: 's', thread: 'th', timeoutMs: 0, escalationId: `d${Math.random().toString(16).slice(2, 10)}` },
  );
  const r = readRequest(paths.pending, id);
  if (!r.ok) throw new Error(r.reason);
  return { channel, request: r.value };
}

describe('wisp approvals / wisp inquiries across processes', () => {
  it('approve --scope session from a terminal: the waiting process gets approved(session)', async () => {
    const waiter = await startWaiter('approval');
    const listed = await wisp(['approvals', 'pending', '--json'], 'null');
    expect(listed.code).toBe(0);
    const requests = JSON.parse(listed.output) as QueueRequest[];
    expect(requests.map((r) => r.id)).toContain(waiter.id);

    const run = await wisp(['approvals', 'approve', waiter.id, '--scope', 'session'], 'tty', 'y\r');
    expect(run.code).toBe(0);
    const screen = await screenText(run.output);
    expect(screen).toContain('Approve this command (session)? [y/N]');
    expect(screen).toContain('wisp asks: may this command run?');
    expect(screen).toContain('│ touch marker-q');
    expect(screen).toContain('remembered as  touch *');
    expect(screen).toContain('fixture (pid');
    expect(screen).toMatch(/approved \(session\): \w+ — fixture \(pid \d+\) took the answer/);

    const { outcome, audit } = await waiter.outcome;
    expect(outcome).toEqual({ kind: 'approved', scope: 'session' });
    expect(audit.find((e) => e.kind === 'escalation.answered')?.details).toMatchObject({ via: 'cli', answeredBy: 'human', decision: 'session' });
    expect(fs.readdirSync(paths.pending)).toEqual([]);
  }, 120_000);

  it('deny from a terminal: the waiting process gets declined', async () => {
    const waiter = await startWaiter('approval');
    const run = await wisp(['approvals', 'deny', waiter.id, '--yes'], 'tty');
    expect(run.code).toBe(0);
    expect((await waiter.outcome).outcome).toEqual({ kind: 'declined', reason: 'declined by the person (wisp approvals)' });
  }, 120_000);

  it('approve without a terminal is refused with the reason, exit 1, and nothing is answered', async () => {
    const waiter = await startWaiter('approval');
    const run = await wisp(['approvals', 'approve', waiter.id], 'null');
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/standard input is not a terminal/);
    expect(run.output).toMatch(/agent must never answer its own escalations/);
    expect(answerExists(paths.pending, waiter.id)).toBe(false);
    expect(fs.existsSync(requestPath(paths.pending, waiter.id))).toBe(true);
    // Still waiting: a real answer now goes through.
    const r = readRequest(paths.pending, waiter.id);
    if (!r.ok) throw new Error(r.reason);
    answerRequest(paths, r.value, { decision: 'no' }, { via: 'cli' });
    expect((await waiter.outcome).outcome.kind).toBe('declined');
  }, 120_000);

  it('inquiries: listed apart from approvals, answered with text from a terminal', async () => {
    const waiter = await startWaiter('inquiry');
    const approvals = JSON.parse((await wisp(['approvals', 'pending', '--json'], 'null')).output) as QueueRequest[];
    expect(approvals.map((r) => r.id)).not.toContain(waiter.id);
    const run = await wisp(['inquiries', 'answer', waiter.id, 'the one in ./etc'], 'tty', 'yes\r');
    expect(run.code).toBe(0);
    expect(await screenText(run.output)).toContain('│ Which file did you mean?');
    expect((await waiter.outcome).outcome).toEqual({ kind: 'answered', text: 'the one in ./etc', answeredBy: 'human' });
  }, 120_000);

  it('shows a hostile command escaped in a real terminal, and refuses an id already answered elsewhere', async () => {
    const { channel, request } = await deferred('ls\r\x1b[2K rm -rf ~ \u202egnp.exe');
    const first = answerRequest(paths, request, { decision: 'no' }, { via: 'chat' });
    expect(first.ok).toBe(true);
    const run = await wisp(['approvals', 'approve', request.id, '--yes'], 'tty');
    expect(run.code).toBe(1);
    expect(run.output).toMatch(/already answered elsewhere/);
    expect(channel.poll(request.id)).toEqual({ kind: 'declined', reason: 'declined by the person (wisp chat)' });

    const again = await deferred('ls\r\x1b[2K rm -rf ~ \u202egnp.exe');
    const shown = await wisp(['approvals', 'deny', again.request.id, '--yes'], 'tty');
    expect(shown.code).toBe(0);
    const screen = await screenText(shown.output);
    // What the terminal shows is every character of the real command, escapes spelled out.
    expect(screen).toContain('│ ls\\r\\x1b[2K rm -rf ~ <U+202E>gnp.exe');
    expect(screen).toContain('! it contains control, escape, invisible or bidi characters');
    expect(shown.output).not.toContain('\x1b[2K rm'); // the raw sequence never reached the terminal
    expect(shown.output).toMatch(/recorded; test \(pid \d+\) collects it/);
    expect(again.channel.poll(again.request.id)?.kind).toBe('declined');
  }, 120_000);

  it('an unknown id, a stale one and an altered one are refused with exit 1', async () => {
    const unknown = await wisp(['approvals', 'approve', 'nosuch01', '--yes'], 'tty');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/no pending request nosuch01/);

    const waiter = await startWaiter('approval');
    waiter.child.kill('SIGKILL');
    await new Promise((r) => waiter.child.once('exit', r));
    const stale = await wisp(['approvals', 'approve', waiter.id, '--yes'], 'tty');
    expect(stale.code).toBe(1);
    expect(stale.output).toMatch(/is stale \(the asking process \(pid \d+\) is gone\)/);
    expect(fs.existsSync(requestPath(paths.pending, waiter.id))).toBe(false); // swept

    const { request, channel } = await deferred('touch harmless');
    const file = requestPath(paths.pending, request.id);
    fs.writeFileSync(file, JSON.stringify({ ...request, command: 'rm -rf ~' }), { mode: 0o600 });
    const altered = await wisp(['approvals', 'approve', request.id, '--yes'], 'tty');
    expect(altered.code).toBe(1);
    expect(altered.output).toMatch(/not trustworthy: its binding does not match/);
    expect(answerExists(paths.pending, request.id)).toBe(false);
    channel.withdraw(request.id);
  }, 120_000);

  it('see before answering: the whole request is shown, and only an explicit yes writes the answer', async () => {
    const waiter = await startWaiter('approval');
    for (const keys of ['n\r', '\r', 'yes please\r']) {
      const run = await wisp(['approvals', 'approve', waiter.id], 'tty', keys);
      expect(run.code, JSON.stringify(keys)).toBe(1);
      expect(run.output).toMatch(/not confirmed: nothing was answered/);
      const screen = await screenText(run.output);
      expect(screen).toContain('│ touch marker-q');
      expect(screen).toContain('directory');
      expect(screen).toContain('level          moderate');
      expect(screen).toContain('- modifies files');
      expect(screen).toContain('asked by       fixture (pid');
      expect(answerExists(paths.pending, waiter.id)).toBe(false);
    }
    expect(fs.existsSync(requestPath(paths.pending, waiter.id))).toBe(true); // still waiting
    const yes = await wisp(['approvals', 'deny', waiter.id], 'tty', 'y\r');
    expect(yes.code).toBe(0);
    expect((await waiter.outcome).outcome.kind).toBe('declined');
  }, 120_000);

  it('--yes skips the confirmation but not the terminal check', async () => {
    const { channel, request } = await deferred('touch y');
    const piped = await wisp(['approvals', 'approve', request.id, '--yes'], 'null');
    expect(piped.code).toBe(1);
    expect(piped.output).toMatch(/standard input is not a terminal/);
    expect(answerExists(paths.pending, request.id)).toBe(false);
    channel.withdraw(request.id);
  }, 120_000);

  it('a long command is shown whole, its blank runs collapsed and flagged, in approve, pending and pending --json', async () => {
    const hidden = `cat notes.txt${' '.repeat(990)}-o .git/config ${'x'.repeat(300)} END`;
    const { channel, request } = await deferred(hidden);
    const listed = await wisp(['approvals', 'pending'], 'tty');
    const screen = await screenText(listed.output);
    expect(screen).toContain('cat notes.txt⟨990 spaces⟩-o .git/config');
    expect(screen.replace(/\s+/g, '')).toContain(`${'x'.repeat(300)}END`); // wrapped, never cut
    const json = JSON.parse((await wisp(['approvals', 'pending', '--json'], 'null')).output) as QueueRequest[];
    expect(json.find((r) => r.id === request.id)).toMatchObject({ command: hidden });
    const shown = await screenText((await wisp(['approvals', 'deny', request.id], 'tty', 'n\r')).output);
    expect(shown).toContain('│ cat notes.txt⟨990 spaces⟩-o .git/config');
    expect(shown).toContain('END');
    expect(shown).toContain('long runs of blank characters, shown collapsed');
    channel.withdraw(request.id);
  }, 120_000);
});
