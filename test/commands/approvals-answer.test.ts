// The answering steps behind `wisp approvals approve|deny` and `wisp inquiries answer|decline`, in-process
// (the cross-process and pseudo-terminal runs are in approvals.test.ts).
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerFromTerminal, type TerminalAnswer } from '../../src/escalation/queue/answer-terminal.js';
import { answerExists, bindingOf, pendingDir, readRequest, writeRequest, type QueueRequest, type UnboundRequest } from '../../src/escalation/queue/files.js';
import { wispPaths } from '../../src/core/paths.js';
import { UsageError, WispError } from '../../src/core/errors.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

function setup() {
  const home = fs.mkdtempSync(join(tmpdir(), 'wisp-answer-'));
  homes.push(home);
  const paths = wispPaths(home);
  const audit = new MemoryAudit();
  const printed: string[] = [];
  const base = (over: Partial<TerminalAnswer>): TerminalAnswer => ({
    paths,
    audit,
    ctx: { session: 'cli' },
    id: 'x',
    verb: 'approval',
    body: { decision: 'once' },
    stdinIsTTY: true,
    print: (t) => printed.push(t),
    ...over,
  });
  return { paths, audit, printed, base };
}

/** A waiting-mode request with nobody actually waiting on it (this process's pid keeps it from being stale). */
function orphanWaiting(paths: ReturnType<typeof wispPaths>, id: string): QueueRequest {
  const dir = pendingDir(paths, { create: true })!;
  const unbound: UnboundRequest = {
    id,
    verb: 'approval',
    mode: 'waiting',
    command: 'touch x',
    line: 'touch x',
    pattern: 'touch *',
    directory: '/w',
    level: 'moderate',
    reasons: [],
    ask: 'Deploy to staging?',
    thread: null,
    client: 'respond',
    pid: process.pid,
    createdAt: new Date().toISOString(),
    expiresAt: null,
  };
  const req = { ...unbound, binding: bindingOf(unbound) } as QueueRequest;
  writeRequest(dir, req);
  return req;
}

describe('answerFromTerminal', () => {
  it('refuses without a terminal before touching anything', async () => {
    const { base, paths } = setup();
    const req = orphanWaiting(paths, 'tty01');
    await expect(answerFromTerminal(base({ id: req.id, stdinIsTTY: false }))).rejects.toThrow(/standard input is not a terminal/);
    expect(answerExists(paths.pending, req.id)).toBe(false);
  });

  it('rejects a malformed id and over-long text as usage errors (exit 64)', async () => {
    const { base } = setup();
    const bad = answerFromTerminal(base({ id: '../../etc/passwd' }));
    await expect(bad).rejects.toBeInstanceOf(UsageError);
    await expect(answerFromTerminal(base({ id: 'q1', verb: 'inquiry', body: { text: 'é'.repeat(2049) } }))).rejects.toThrow(/longer than 4096 bytes/);
  });

  it('attack: a blank inquiry answer is refused as usage (exit 64) before anything is read or written (before: sent as the answer)', async () => {
    const { base, paths } = setup();
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 60 });
    const { id } = await channel.file({ verb: 'inquiry', request: { question: 'q?' } }, { session: 's', timeoutMs: 0, escalationId: 'inq03' });
    for (const text of ['', '   ', '\n\t']) {
      const err = await answerFromTerminal(base({ id, verb: 'inquiry', body: { text } })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(String(err)).toMatch(/the answer is empty: type one, or decline the question \(wisp inquiries decline inq03\)/);
    }
    expect(answerExists(paths.pending, id)).toBe(false);
    channel.withdraw(id);
  });

  it('says which command answers when the verb is wrong', async () => {
    const { base, paths } = setup();
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 60 });
    const { id } = await channel.file({ verb: 'inquiry', request: { question: 'q?' } }, { session: 's', timeoutMs: 0, escalationId: 'inq01' });
    await expect(answerFromTerminal(base({ id }))).rejects.toThrow(/is a question.*wisp inquiries answer inq01/);
    channel.withdraw(id);
  });

  it('shows the authored ask as the headline, and takes the answer back when nobody picks it up', async () => {
    const { base, paths, printed } = setup();
    const req = orphanWaiting(paths, 'slow01');
    const err = await answerFromTerminal(base({ id: req.id, pickupMs: 200 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WispError);
    expect((err as WispError).exitCode).toBe(1);
    expect(String(err)).toMatch(/did not take the answer within 0\.2 s.*decided nothing/);
    expect(printed.join('').split('\n')[0]).toBe('Deploy to staging?');
    expect(answerExists(paths.pending, req.id)).toBe(false); // no answer left behind to apply later
    expect(readRequest(paths.pending, req.id).ok).toBe(true);
  });

  it('notes that a dangerous command is never remembered beyond the session', async () => {
    const { base, paths, printed } = setup();
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 60 });
    const { id } = await channel.file(
      { verb: 'approval', request: { command: 'rm -rf ./b', line: 'rm -rf ./b', pattern: 'rm -rf ./b', directory: '/w', level: 'dangerous', reasons: ['recursive deletion'] } },
      { session: 's', timeoutMs: 0, escalationId: 'dng01' },
    );
    expect(await answerFromTerminal(base({ id, body: { decision: 'always' }, pickupMs: 50 }))).toBe('recorded');
    expect(printed.join('')).toMatch(/never remembered beyond this session; always becomes session/);
    // The queue passes the person's answer on unchanged; the gate applies the downgrade (and audits downgradedFrom).
    expect(channel.poll(id)).toEqual({ kind: 'approved', scope: 'always' });
  });

  it('"always" for a dangerous command is never reported back as approved (always): it says session only', async () => {
    const { base, paths, printed } = setup();
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 60 });
    const { id } = await channel.file(
      { verb: 'approval', request: { command: 'rm -rf ./b', line: 'rm -rf ./b', pattern: 'rm -rf ./b', directory: '/w', level: 'dangerous', reasons: ['recursive deletion'] } },
      { session: 's', timeoutMs: 0, escalationId: 'dng02' },
    );
    const asked: string[] = [];
    const confirm = async (q: string) => (asked.push(q), true);
    expect(await answerFromTerminal(base({ id, body: { decision: 'always' }, pickupMs: 50, confirm }))).toBe('recorded');
    expect(asked).toEqual(['Approve this command (always, kept for this session only)? [y/N] ']);
    const out = printed.join('');
    expect(out).toContain('approved (always, kept for this session only): dng02');
    expect(out).not.toMatch(/approved \(always\):/);
  });
  it('attack: an inquiry answer that does not fit the question\'s schema is refused (exit 64), changes nothing, is audited', async () => {
    const { base, paths, audit, printed } = setup();
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 60 });
    const schema = { type: 'object', properties: { count: { type: 'integer', minimum: 1 } }, required: ['count'] };
    const { id } = await channel.file({ verb: 'inquiry', request: { question: 'How many?', schema } }, { session: 's', timeoutMs: 0, escalationId: 'inq02' });
    const confirm = async () => true;
    for (const text of ['lots', '{"count": 0}', '{"count": 2, "also": "rm -rf ~"}', '"2"']) {
      const err = await answerFromTerminal(base({ id, verb: 'inquiry', body: { text }, confirm })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect(String(err)).toMatch(/refusing the answer to inq02: .*Answer with JSON matching .*still waiting/);
      expect(answerExists(paths.pending, id)).toBe(false);
      expect(readRequest(paths.pending, id).ok).toBe(true);
    }
    expect(printed).toEqual([]); // refused before the request was shown or anything asked
    const refused = audit.ofKind('escalation.settled').map((e) => e.details);
    expect(refused).toHaveLength(4);
    expect(refused[0]).toMatchObject({ channel: 'queue', escalationId: 'inq02', outcome: 'refused', via: 'cli' });
    // A fitting answer still goes through.
    const ok = await answerFromTerminal(base({ id, verb: 'inquiry', body: { text: '{"count": 2}' }, confirm, pickupMs: 100 })).catch((e: unknown) => e);
    expect(String(ok)).not.toMatch(/refusing the answer/);
    channel.withdraw(id);
  });
});
