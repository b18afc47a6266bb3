import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAudit, type AuditSink } from '../../src/audit/kinds.js';
import { answerAndFollow, answerRequest, listPending, sweepStale, type AnswerBody } from '../../src/escalation/queue/answerer.js';
import { CANCELLED_REASON, QueueChannel, REMOVED_REASON, type QueueChannelOptions } from '../../src/escalation/queue/asker.js';
import {
  answerExists,
  answerPath,
  bindingOf,
  pendingDir,
  QueueError,
  readRequest,
  requestPath,
  takenPath,
  writeAnswerFile,
  type QueueRequest,
} from '../../src/escalation/queue/files.js';
import { EXPIRED_SWEEP_MS } from '../../src/escalation/queue/scan.js';
import type { Escalation, RaiseContext } from '../../src/escalation/types.js';
import { wispPaths, type WispPaths } from '../../src/core/paths.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

function setup(opts: Partial<QueueChannelOptions> = {}) {
  const home = mkdtempSync(join(tmpdir(), 'wisp-queue-'));
  homes.push(home);
  const paths = wispPaths(home);
  const audit = new MemoryAudit();
  const channel = new QueueChannel({ paths, audit, pendingSeconds: 600, client: 'test', ...opts });
  return { home, paths, audit, channel };
}

const approval = (command = 'touch marker'): Escalation => ({
  verb: 'approval',
  request: { command, line: `ls; ${command}`, pattern: 'touch *', directory: '/work', level: 'moderate', reasons: ['modifies files'] },
});
const inquiry: Escalation = { verb: 'inquiry', request: { question: 'Which config file?', schema: { type: 'object' } } };
let counter = 0;
const ctx = (extra: Partial<RaiseContext> = {}): RaiseContext => ({
  session: 's1',
  thread: 't1',
  client: 'claude-code',
  timeoutMs: 10_000,
  escalationId: `e${++counter}${Date.now().toString(36)}`,
  ...extra,
});

/** Waits for the request file, then answers it the way another process would. */
async function answerWhenFiled(paths: WispPaths, id: string, body: AnswerBody) {
  const request = await filed(paths, id);
  return answerRequest(paths, request, body, { via: 'cli', answeredBy: 'human' });
}

async function filed(paths: WispPaths, id: string): Promise<QueueRequest> {
  for (let i = 0; i < 200; i++) {
    const r = fs.existsSync(paths.pending) ? readRequest(paths.pending, id) : undefined;
    if (r?.ok) return r.value;
    await new Promise((res) => setTimeout(res, 5));
  }
  throw new Error(`request ${id} never appeared`);
}

async function waitUntil(probe: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !probe(); i++) await new Promise((res) => setTimeout(res, 5));
  if (!probe()) throw new Error('condition never held');
}

/** Files left in the queue, but for the asker's records of taken answers (they stay for a grace period). */
function leftovers(paths: WispPaths): string[] {
  return fs.existsSync(paths.pending) ? fs.readdirSync(paths.pending).filter((n) => !/^\..*\.taken\.json$/.test(n)) : [];
}

function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('QueueChannel, waiting mode', () => {
  it('files a 0600 request in a 0700 directory, and an approval answered from a file comes back with its scope', async () => {
    const { paths, audit, channel } = setup();
    const c = ctx();
    const outcome = channel.raise(approval(), c);
    const req = await filed(paths, c.escalationId);
    expect(fs.statSync(paths.pending).mode & 0o777).toBe(0o700);
    expect(fs.statSync(requestPath(paths.pending, c.escalationId)).mode & 0o777).toBe(0o600);
    expect(req).toMatchObject({ verb: 'approval', command: 'touch marker', line: 'ls; touch marker', client: 'claude-code', thread: 't1', pid: process.pid, mode: 'waiting' });
    expect(answerRequest(paths, req, { decision: 'session' }, { via: 'cli', answeredBy: 'human' }).ok).toBe(true);

    expect(await outcome).toEqual({ kind: 'approved', scope: 'session' });
    expect(leftovers(paths)).toEqual([]);
    expect(audit.ofKind('escalation.pending')[0]!.details).toMatchObject({ channel: 'queue', escalationId: c.escalationId, verb: 'approval' });
    expect(audit.ofKind('escalation.answered')[0]!.details).toMatchObject({
      channel: 'queue',
      escalationId: c.escalationId,
      via: 'cli',
      answeredBy: 'human',
      decision: 'session',
    });
    expect(audit.ofKind('escalation.pending')[0]!.thread).toBe('t1');
  });

  it('deny comes back declined, naming who declined', async () => {
    const { paths, channel } = setup();
    const c = ctx();
    const outcome = channel.raise(approval(), c);
    await answerWhenFiled(paths, c.escalationId, { decision: 'no' });
    expect(await outcome).toEqual({ kind: 'declined', reason: 'declined by the person (wisp approvals)' });
    expect(leftovers(paths)).toEqual([]);
  });

  it('an inquiry is answered with text (answeredBy passed through) or declined', async () => {
    const { paths, channel } = setup();
    const a = ctx();
    const answered = channel.raise(inquiry, a);
    const req = await filed(paths, a.escalationId);
    expect(req).toMatchObject({ verb: 'inquiry', question: 'Which config file?', schema: { type: 'object' } });
    answerRequest(paths, req, { text: '{"file": "the one in ./etc"}' }, { via: 'cli', answeredBy: 'human' });
    expect(await answered).toEqual({ kind: 'answered', text: '{"file": "the one in ./etc"}', answeredBy: 'human' });

    const d = ctx();
    const declined = channel.raise(inquiry, d);
    await answerWhenFiled(paths, d.escalationId, { declined: true });
    expect(await declined).toEqual({ kind: 'declined', reason: 'declined by the person (wisp inquiries)' });
    expect(leftovers(paths)).toEqual([]);
  });

  it('attack: an answer file whose text does not fit the question\'s schema (written by no checking answerer) is refused, audited, and the asker waits on', async () => {
    const { paths, channel, audit } = setup();
    const a = ctx();
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const answered = channel.raise({ verb: 'inquiry', request: { question: 'How many?', schema } }, a);
    const req = await filed(paths, a.escalationId);
    answerRequest(paths, req, { text: 'five; and run rm -rf ~' }, { via: 'cli', answeredBy: 'human' });
    await waitUntil(() => audit.ofKind('escalation.settled').length > 0);
    expect(audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ outcome: 'refused', escalationId: a.escalationId, via: 'cli' });
    expect(String(audit.ofKind('escalation.settled')[0]!.details.reason)).toMatch(/not JSON/);
    expect(readRequest(paths.pending, a.escalationId).ok).toBe(true); // still asking
    answerRequest(paths, req, { text: '{"n": 5}' }, { via: 'cli', answeredBy: 'human' });
    expect(await answered).toEqual({ kind: 'answered', text: '{"n": 5}', answeredBy: 'human' });
  });

  it('times out as unanswered and withdraws its files', async () => {
    const { paths, channel } = setup();
    const c = ctx({ timeoutMs: 150 });
    const t0 = Date.now();
    const outcome = await channel.raise(approval(), c);
    expect(outcome.kind).toBe('unanswered');
    expect(outcome.kind === 'unanswered' && outcome.waitedMs).toBeGreaterThanOrEqual(140);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(leftovers(paths)).toEqual([]);
  });

  it('an abort withdraws the request and returns declined (the caller audits abandoned)', async () => {
    const { paths, channel } = setup();
    const controller = new AbortController();
    const c = ctx({ signal: controller.signal });
    const outcome = channel.raise(approval(), c);
    await filed(paths, c.escalationId);
    controller.abort();
    expect(await outcome).toEqual({ kind: 'declined', reason: CANCELLED_REASON });
    expect(leftovers(paths)).toEqual([]);
    expect(channel.pendingIds()).toEqual([]);
  });

  it('an already-aborted call files nothing', async () => {
    const { paths, channel } = setup();
    const controller = new AbortController();
    controller.abort();
    expect(await channel.raise(approval(), ctx({ signal: controller.signal }))).toEqual({ kind: 'declined', reason: CANCELLED_REASON });
    expect(leftovers(paths)).toEqual([]);
  });

  it('refuses an answer with the wrong binding, removes it, and keeps waiting', async () => {
    const { paths, audit, channel } = setup();
    const c = ctx();
    const outcome = channel.raise(approval(), c);
    const req = await filed(paths, c.escalationId);
    writeAnswerFile(paths.pending, {
      id: req.id,
      binding: 'f'.repeat(64),
      decision: 'always',
      via: 'cli',
      pid: process.pid,
      answeredAt: new Date().toISOString(),
    });
    await until(() => audit.ofKind('escalation.settled').length === 1);
    expect(audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ outcome: 'refused', channel: 'queue' });
    expect(String(audit.ofKind('escalation.settled')[0]!.details.reason)).toMatch(/binding/);
    expect(answerExists(paths.pending, req.id)).toBe(false);
    expect(fs.existsSync(requestPath(paths.pending, req.id))).toBe(true); // still asking

    answerRequest(paths, req, { decision: 'once' }, { via: 'cli' });
    expect(await outcome).toEqual({ kind: 'approved', scope: 'once' });
  });

  it('refuses an answer that was rebound in a rewritten request file: only the binding held in memory counts', async () => {
    const { paths, audit, channel } = setup();
    const c = ctx();
    const outcome = channel.raise(approval('touch a'), c);
    const req = await filed(paths, c.escalationId);
    // Another process rewrites the request (a different command) with a self-consistent binding.
    const { binding: _old, ...rest } = req;
    const forged = { ...rest, command: 'rm -rf ~' } as typeof rest;
    const rebound = { ...forged, binding: bindingOf(forged) } as QueueRequest;
    fs.writeFileSync(requestPath(paths.pending, req.id), JSON.stringify(rebound), { mode: 0o600 });
    answerRequest(paths, rebound, { decision: 'always' }, { via: 'cli' });
    await until(() => audit.ofKind('escalation.settled').length === 1);
    expect(audit.ofKind('escalation.answered')).toEqual([]);
    answerRequest(paths, req, { decision: 'no' }, { via: 'cli' });
    expect((await outcome).kind).toBe('declined');
  });

  it('refuses an answer replayed onto another id', async () => {
    const { paths, audit, channel } = setup();
    const a = ctx();
    const b = ctx();
    const first = channel.raise(approval('touch a'), a);
    const second = channel.raise(approval('touch b'), b);
    const reqA = await filed(paths, a.escalationId);
    await filed(paths, b.escalationId);
    // The answer to A, copied under B's name.
    const answerA = {
      id: reqA.id,
      nonce: 'a'.repeat(32),
      binding: reqA.binding,
      decision: 'always' as const,
      via: 'cli',
      pid: process.pid,
      answeredAt: new Date().toISOString(),
    };
    fs.writeFileSync(answerPath(paths.pending, b.escalationId, answerA.nonce), JSON.stringify(answerA), { mode: 0o600 });
    await until(() => audit.ofKind('escalation.settled').length === 1);
    expect(audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ escalationId: b.escalationId, outcome: 'refused' });
    expect(String(audit.ofKind('escalation.settled')[0]!.details.reason)).toMatch(/replayed/);
    // A is unaffected and still answerable; B still waits.
    answerRequest(paths, reqA, { decision: 'once' }, { via: 'cli' });
    expect(await first).toEqual({ kind: 'approved', scope: 'once' });
    await answerWhenFiled(paths, b.escalationId, { decision: 'no' });
    expect((await second).kind).toBe('declined');
  });

  it('refuses an answer file that is a symlink, or not 0600', async () => {
    const { paths, audit, channel } = setup();
    const c = ctx();
    const outcome = channel.raise(approval(), c);
    const req = await filed(paths, c.escalationId);
    const elsewhere = join(paths.home, 'answer.json');
    const nonce = 'b'.repeat(32);
    fs.writeFileSync(elsewhere, JSON.stringify({ id: req.id, nonce, binding: req.binding, decision: 'always', via: 'cli', pid: 1, answeredAt: new Date().toISOString() }), { mode: 0o600 });
    fs.symlinkSync(elsewhere, answerPath(paths.pending, req.id, nonce));
    await until(() => audit.ofKind('escalation.settled').length === 1);
    expect(String(audit.ofKind('escalation.settled')[0]!.details.reason)).toMatch(/symbolic link/);

    fs.copyFileSync(elsewhere, answerPath(paths.pending, req.id, nonce));
    fs.chmodSync(answerPath(paths.pending, req.id, nonce), 0o644);
    await until(() => audit.ofKind('escalation.settled').length === 2);
    expect(String(audit.ofKind('escalation.settled')[1]!.details.reason)).toMatch(/0644/);
    answerRequest(paths, req, { decision: 'no' }, { via: 'cli' });
    expect((await outcome).kind).toBe('declined');
  });

  it('a request removed from under it ends the wait as declined', async () => {
    const { paths, channel } = setup();
    const c = ctx();
    const outcome = channel.raise(approval(), c);
    await filed(paths, c.escalationId);
    fs.unlinkSync(requestPath(paths.pending, c.escalationId));
    expect(await outcome).toEqual({ kind: 'declined', reason: REMOVED_REASON });
  });

  it('a request swept as expired just before its own timer fired counts as a timeout, not a removal', async () => {
    let offset = 0;
    const { paths, channel } = setup({ now: () => Date.now() + offset });
    const c = ctx({ timeoutMs: 5000 });
    const outcome = channel.raise(approval(), c);
    await filed(paths, c.escalationId);
    offset = 6000; // past expiresAt, and another process's sweep removes the file
    fs.unlinkSync(requestPath(paths.pending, c.escalationId));
    expect((await outcome).kind).toBe('unanswered');
  });

  it('still picks answers up by polling when the directory is not watched', async () => {
    const { paths, channel } = setup({ watch: false, pollMs: 20 });
    const c = ctx();
    const outcome = channel.raise(approval(), c);
    await answerWhenFiled(paths, c.escalationId, { decision: 'project' });
    expect(await outcome).toEqual({ kind: 'approved', scope: 'project' });
  });

  it('picks an answer up quickly (sanity bound only; npm run bench -- --only queue measures)', async () => {
    const { paths, channel } = setup();
    const c = ctx();
    const outcome = channel.raise(approval(), c);
    const req = await filed(paths, c.escalationId);
    const t0 = performance.now();
    answerRequest(paths, req, { decision: 'once' }, { via: 'cli' });
    await outcome;
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('fails closed when the audit cannot record the request: nothing is left answerable', async () => {
    const { paths } = setup();
    const failing: AuditSink = {
      write() {
        throw new Error('disk full');
      },
    };
    const channel = new QueueChannel({ paths, audit: failing, pendingSeconds: 600 });
    await expect(channel.raise(approval(), ctx())).rejects.toThrow('disk full');
    expect(leftovers(paths)).toEqual([]);
  });

  it('refuses an escalation id that cannot name a file', async () => {
    const { channel } = setup();
    await expect(channel.raise(approval(), ctx({ escalationId: '../../etc/x' }))).rejects.toThrow(QueueError);
  });
});

describe('QueueChannel, deferred mode', () => {
  it('files without waiting; poll finds the answer later and settles it', async () => {
    const { paths, audit, channel } = setup();
    const c = ctx();
    const filedAt = Date.now();
    const { id, expiresAt } = await channel.file(approval(), c);
    expect(id).toBe(c.escalationId);
    expect(expiresAt).toBeGreaterThanOrEqual(filedAt + 600_000);
    const req = readRequest(paths.pending, id);
    expect(req.ok && req.value.mode).toBe('deferred');
    expect(channel.poll(id)).toBeUndefined();

    // The answerer is told its answer is recorded for later (the asker is not waiting on it).
    expect(await answerAndFollow(paths, (req as { value: QueueRequest }).value, { decision: 'session' }, { via: 'cli' })).toBe('recorded');
    expect(channel.poll(id)).toEqual({ kind: 'approved', scope: 'session' });
    expect(audit.ofKind('escalation.answered')).toHaveLength(1);
    expect(leftovers(paths)).toEqual([]);
    expect(channel.poll(id)).toBeUndefined(); // settled once
  });

  it('collect reports an expired request unanswered and withdraws it', async () => {
    let now = Date.now();
    const { paths, channel } = setup({ now: () => now, pendingSeconds: 1 });
    const { id } = await channel.file(approval(), ctx());
    expect(channel.collect(id)).toBeUndefined();
    now += 1500;
    expect(channel.collect(id)).toMatchObject({ kind: 'unanswered' });
    expect(leftovers(paths)).toEqual([]);
  });

  it('withdraw removes only files this channel filed', async () => {
    const { paths, channel } = setup();
    const other = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const { id } = await other.file(approval(), ctx());
    channel.withdraw(id);
    expect(fs.existsSync(requestPath(paths.pending, id))).toBe(true);
    other.withdraw(id);
    expect(leftovers(paths)).toEqual([]);
  });
});

describe('the queue directory and its files', () => {
  it('creates a missing directory 0700 (whatever the umask)', async () => {
    const { paths, channel } = setup();
    const old = process.umask(0o022);
    try {
      await channel.file(approval(), ctx());
    } finally {
      process.umask(old);
    }
    expect(fs.statSync(paths.pending).mode & 0o777).toBe(0o700);
  });

  it('refuses an open (0755) directory, saying how to fix it', async () => {
    const { paths, channel } = setup();
    fs.mkdirSync(paths.pending, { mode: 0o755 });
    fs.chmodSync(paths.pending, 0o755);
    await expect(channel.raise(approval(), ctx())).rejects.toThrow(/mode 0755.*chmod 700/);
    expect(() => listPending(paths)).toThrow(/chmod 700/);
    expect(() => sweepStale(paths, new MemoryAudit())).toThrow(QueueError);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a directory owned by another user', async () => {
    const { paths, channel } = setup();
    fs.mkdirSync(paths.pending, { mode: 0o700 });
    fs.chownSync(paths.pending, 4242, 4242);
    await expect(channel.raise(approval(), ctx())).rejects.toThrow(/owned by uid 4242.*chown/);
    expect(() => listPending(paths)).toThrow(/owned by uid 4242/);
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a request file owned by another user', async () => {
    const { paths, channel } = setup();
    const { id } = await channel.file(approval(), ctx());
    fs.chownSync(requestPath(paths.pending, id), 4242, 4242);
    const r = readRequest(paths.pending, id);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/owned by uid 4242/);
  });

  it('refuses a symlinked directory', async () => {
    const { paths, channel, home } = setup();
    const real = join(home, 'real');
    fs.mkdirSync(real, { mode: 0o700 });
    fs.symlinkSync(real, paths.pending);
    await expect(channel.raise(approval(), ctx())).rejects.toThrow(/symbolic link/);
  });

  it('refuses a symlinked request file', async () => {
    const { paths, channel, home } = setup();
    const { id } = await channel.file(approval(), ctx());
    const moved = join(home, 'moved.json');
    fs.renameSync(requestPath(paths.pending, id), moved);
    fs.symlinkSync(moved, requestPath(paths.pending, id));
    const r = readRequest(paths.pending, id);
    expect(r).toMatchObject({ ok: false, code: 'refused' });
    expect(!r.ok && r.reason).toMatch(/symbolic link/);
    expect(listPending(paths)).toEqual([]);
  });

  it('refuses an altered request file (binding no longer matches) in the lister', async () => {
    const { paths, channel } = setup();
    const { id } = await channel.file(approval('touch harmless'), ctx());
    expect(listPending(paths).map((r) => r.id)).toEqual([id]);
    const file = requestPath(paths.pending, id);
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(file, JSON.stringify({ ...json, command: 'rm -rf ~' }), { mode: 0o600 });
    const r = readRequest(paths.pending, id);
    expect(!r.ok && r.reason).toMatch(/binding does not match/);
    expect(listPending(paths)).toEqual([]);
  });

  it('refuses unparseable, mistyped, misnamed, extra-field and group-readable request files', async () => {
    const { paths, channel } = setup();
    const { id } = await channel.file(approval(), ctx());
    const file = requestPath(paths.pending, id);
    const good = fs.readFileSync(file, 'utf8');
    const cases: Array<[string, string | undefined, RegExp]> = [
      ['{not json', undefined, /not valid JSON/],
      [JSON.stringify({ ...JSON.parse(good), level: 'catastrophic' }), undefined, /not a valid request/],
      [JSON.stringify({ ...JSON.parse(good), extra: 'unbound text' }), undefined, /not a valid request/],
      [JSON.stringify({ ...JSON.parse(good), id: 'someoneelse' }), undefined, /names id someoneelse/],
      [good, 'chmod', /mode is 0640/],
    ];
    for (const [content, op, reason] of cases) {
      fs.writeFileSync(file, content, { mode: 0o600 });
      if (op === 'chmod') fs.chmodSync(file, 0o640);
      else fs.chmodSync(file, 0o600);
      const r = readRequest(paths.pending, id);
      expect(!r.ok && r.reason).toMatch(reason);
    }
  });

  it('sweeps a request whose process is gone, audited stale, and never lists it', async () => {
    const { paths, channel } = setup();
    const { id } = await channel.file(approval(), ctx());
    // Rewrite it as if filed by a process that has since exited (binding recomputed: a genuine stale request).
    const r = readRequest(paths.pending, id);
    if (!r.ok) throw new Error(r.reason);
    const { binding: _b, ...rest } = r.value;
    const dead = { ...rest, pid: deadPid() } as typeof rest;
    fs.writeFileSync(requestPath(paths.pending, id), JSON.stringify({ ...dead, binding: bindingOf(dead) }), { mode: 0o600 });

    expect(listPending(paths)).toEqual([]);
    const audit = new MemoryAudit();
    expect(sweepStale(paths, audit, { session: 'cli' })).toEqual([{ id, reason: expect.stringMatching(/is gone/) }]);
    expect(audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ channel: 'queue', escalationId: id, outcome: 'stale' });
    expect(leftovers(paths)).toEqual([]);
  });

  it('leaves an expired request of a live asker to that asker (settled once, by it), but sweeps one long expired', async () => {
    let now = Date.now() - 10_000;
    const { paths, channel } = setup({ now: () => now, pendingSeconds: 1 });
    const { id } = await channel.file(approval(), ctx());
    now = Date.now();
    expect(listPending(paths)).toEqual([]); // stale: never listed, never answerable
    const audit = new MemoryAudit();
    expect(sweepStale(paths, audit)).toEqual([]);
    expect(fs.existsSync(requestPath(paths.pending, id))).toBe(true);
    expect(channel.collect(id)).toMatchObject({ kind: 'unanswered' }); // the asker ends it itself
    expect(leftovers(paths)).toEqual([]);

    now = Date.now() - EXPIRED_SWEEP_MS - 10_000; // a wedged asker (or a reused pid): swept after a long while
    const old = await channel.file(approval(), ctx());
    expect(sweepStale(paths, audit)).toEqual([{ id: old.id, reason: expect.stringMatching(/expired/) }]);
    expect(audit.ofKind('escalation.settled')[0]!.details.outcome).toBe('stale');
  });

  it('a process that exits takes its requests with it', () => {
    const { paths, home } = setup();
    const root = join(import.meta.dirname, '../..');
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'test/fixtures/queue/file-and-exit.ts')], {
      cwd: root,
      env: { ...process.env, WISP_HOME: home },
    });
    expect(run.stdout.toString().trim()).toBe('exit01');
    expect(fs.readdirSync(paths.pending)).toEqual([]);
  });

  it('a missing directory lists nothing and is not created by listing', () => {
    const { paths } = setup();
    expect(listPending(paths)).toEqual([]);
    expect(pendingDir(paths, { create: false })).toBeUndefined();
    expect(fs.existsSync(paths.pending)).toBe(false);
  });
});

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
