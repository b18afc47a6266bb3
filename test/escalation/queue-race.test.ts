// Several processes answering the same request at the same instant: exactly one answer decides, and every
// answerer's report matches what happened to its answer.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { QueueChannel } from '../../src/escalation/queue.js';
import { answerPath, readRequest, writeAnswer } from '../../src/escalation/queue-files.js';
import { wispPaths } from '../../src/paths.js';

const root = resolve(import.meta.dirname, '../..');
const answerer = join(root, 'test/fixtures/queue/answer.ts');
const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? res(out) : rej(new Error(`exit ${code}: ${err}`))));
  });
}

const decisions = ['once', 'no', 'session', 'no'] as const;

/** Starts one racer per decision, waits until all are loaded and spinning, then lets them go at once. */
async function race(id: string, home: string) {
  const barrier = fs.mkdtempSync(join(home, 'barrier-'));
  const env = { ...process.env, WISP_HOME: home };
  const runs = decisions.map((d) => run([answerer, id, d, barrier], env));
  const deadline = Date.now() + 60_000;
  while (fs.readdirSync(barrier).length < decisions.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  fs.writeFileSync(join(barrier, 'go'), '');
  const reports = (await Promise.all(runs)).map((o) => JSON.parse(o) as { written: boolean; pickup: string; decision: string });
  fs.rmSync(barrier, { recursive: true, force: true });
  return reports;
}

describe('answers at once (four racing processes)', () => {
  it('exactly one answer is taken by the waiting process, and only its writer says so', async () => {
    const home = fs.mkdtempSync(join(tmpdir(), 'wisp-race-'));
    homes.push(home);
    const paths = wispPaths(home);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const id = 'race01';
    const outcome = channel.raise(
      { verb: 'approval', request: { command: 'touch x', line: 'touch x', pattern: 'touch *', directory: home, level: 'moderate', reasons: [] } },
      { session: 's', timeoutMs: 90_000, escalationId: id },
    );
    const reports = await race(id, home);
    const result = await outcome;

    const taken = reports.filter((r) => r.pickup === 'taken');
    expect(taken).toHaveLength(1);
    const winner = taken[0]!.decision;
    expect(result).toEqual(winner === 'no' ? { kind: 'declined', reason: 'declined by the person (wisp approvals)' } : { kind: 'approved', scope: winner });
    // Everyone else either lost the link outright or took their answer back.
    for (const r of reports.filter((x) => x !== taken[0])) expect(['lost', 'withdrawn']).toContain(r.pickup);
    expect(fs.readdirSync(paths.pending)).toEqual([]);
  }, 90_000);

  it('without anyone waiting, exactly one of many simultaneous links wins', async () => {
    const home = fs.mkdtempSync(join(tmpdir(), 'wisp-race-'));
    homes.push(home);
    const paths = wispPaths(home);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const { id } = await channel.file(
      { verb: 'approval', request: { command: 'touch y', line: 'touch y', pattern: 'touch *', directory: home, level: 'moderate', reasons: [] } },
      { session: 's', timeoutMs: 0, escalationId: 'race02' },
    );
    const reports = await race(id, home);
    expect(reports.filter((r) => r.written)).toHaveLength(1);
    const winner = reports.find((r) => r.written)!;
    expect(winner.pickup).toBe('recorded'); // deferred: collected later
    expect(channel.poll(id)).toEqual(winner.decision === 'no' ? expect.objectContaining({ kind: 'declined' }) : { kind: 'approved', scope: winner.decision });
    expect(fs.readdirSync(paths.pending)).toEqual([]);
  }, 90_000);

  it('in one process too: the second exclusive write fails with exists', async () => {
    const home = fs.mkdtempSync(join(tmpdir(), 'wisp-race-'));
    homes.push(home);
    const paths = wispPaths(home);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const { id } = await channel.file(
      { verb: 'inquiry', request: { question: 'q?' } },
      { session: 's', timeoutMs: 0, escalationId: 'race03' },
    );
    const r = readRequest(paths.pending, id);
    if (!r.ok) throw new Error(r.reason);
    const base = { id, binding: r.value.binding, via: 'cli', pid: process.pid, answeredAt: new Date().toISOString() };
    expect(writeAnswer(paths.pending, { ...base, text: 'first' }).ok).toBe(true);
    expect(writeAnswer(paths.pending, { ...base, text: 'second' })).toEqual({ ok: false, reason: 'exists' });
    expect(JSON.parse(fs.readFileSync(answerPath(paths.pending, id), 'utf8')).text).toBe('first');
    expect(channel.poll(id)).toEqual({ kind: 'answered', text: 'first' });
  });
});
