// The answering side is one set of functions (issue 18 point 3, ADR 0062): `wisp approvals pending`, the CLI's
// answer and the chat's watch look, sweep and judge staleness the same way. Each test plants the request a stale or
// racing asker leaves behind and checks that every answerer treats it alike.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { wispPaths, type WispPaths } from '../../src/core/paths.js';
import { answerRequest, closedToAnswers, lookAtQueue, whyGone } from '../../src/escalation/queue/answerer.js';
import { bindingOf, pendingDir, writeRequest, type QueueRequest, type UnboundRequest } from '../../src/escalation/queue/files.js';
import { staleCause } from '../../src/escalation/queue/scan.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { QueueWatch } from '../../ui/queue-watch.js';

let root: string;
let paths: WispPaths;
let dir: string;
let n = 0;

beforeEach(() => {
  root = fs.mkdtempSync(join(tmpdir(), 'wisp-answerer-'));
  fs.mkdirSync(join(root, 'home'), { mode: 0o700 });
  paths = wispPaths(join(root, 'home'));
  dir = pendingDir(paths, { create: true })!;
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

function filed(over: Partial<QueueRequest> = {}): QueueRequest {
  const unbound = {
    id: `req${n++}`,
    verb: 'approval',
    mode: 'waiting',
    thread: 't1',
    client: 'test',
    pid: process.pid,
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    command: 'touch marker',
    line: 'touch marker',
    pattern: 'touch *',
    directory: root,
    level: 'moderate',
    reasons: ['modifies files'],
    ask: null,
    ...over,
  } as UnboundRequest;
  const req = { ...unbound, binding: bindingOf(unbound) } as QueueRequest;
  writeRequest(dir, req);
  return req;
}

describe('one staleness rule', () => {
  it('expiry is judged before the asker: an expired request of a dead asker is expired, everywhere', () => {
    const both = filed({ pid: deadPid(), expiresAt: new Date(Date.now() - 1000).toISOString() });
    const dead = filed({ pid: deadPid() });
    const live = filed();
    expect([staleCause(both), staleCause(dead), staleCause(live)]).toEqual(['expired', 'asker-gone', undefined]);
    expect([whyGone(both), whyGone(dead), whyGone(live)]).toEqual(['expired', 'asker-gone', 'answered-elsewhere']);
  });

  it('an answer to a request whose asker is gone is refused before it is written, and the request is swept once', () => {
    const req = filed({ pid: deadPid() });
    const audit = new MemoryAudit();
    expect(closedToAnswers(dir, req, { audit, ctx: { session: 'cli' } })).toMatchObject({ closed: 'stale', cause: 'asker-gone' });
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(req.id))).toEqual([]);
    expect(closedToAnswers(dir, req, { audit, ctx: { session: 'cli' } })).toMatchObject({ closed: 'stale' });
    expect(audit.ofKind('escalation.settled').map((e) => e.details.outcome)).toEqual(['stale']);
  });

  it('an expired request whose asker still lives is closed to answers but left for its asker to end', () => {
    const req = filed({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    const audit = new MemoryAudit();
    expect(closedToAnswers(dir, req, { audit, ctx: { session: 'cli' } })).toMatchObject({ closed: 'stale', cause: 'expired' });
    expect(fs.existsSync(join(dir, `${req.id}.request.json`))).toBe(true);
    expect(audit.ofKind('escalation.settled')).toEqual([]);
  });

  it('a request that already holds an answer is closed to a second one', () => {
    const req = filed();
    expect(answerRequest(paths, req, { decision: 'no' }, { via: 'test' }).ok).toBe(true);
    expect(closedToAnswers(dir, req, undefined)).toEqual({ closed: 'answered' });
  });
});

describe('one sweep', () => {
  it('the look that lists also sweeps what a sweep may remove, audited once; a look without audit removes nothing', () => {
    const dead = filed({ pid: deadPid() });
    const live = filed();
    const quiet = lookAtQueue(paths);
    expect(quiet.live.map((r) => r.id)).toEqual([live.id]);
    expect(quiet.swept).toEqual([]);
    expect(fs.existsSync(join(dir, `${dead.id}.request.json`))).toBe(true);

    const audit = new MemoryAudit();
    const look = lookAtQueue(paths, { audit, ctx: { session: 'cli' } });
    expect(look.live.map((r) => r.id)).toEqual([live.id]);
    expect(look.swept.map((s) => s.id)).toEqual([dead.id]);
    expect(lookAtQueue(paths, { audit, ctx: { session: 'cli' } }).swept).toEqual([]);
    expect(audit.ofKind('escalation.settled').map((e) => [e.details.escalationId, e.details.outcome])).toEqual([[dead.id, 'stale']]);
  });

  it("the chat's watch sweeps a dead asker's request as `wisp approvals pending` does, and never shows it", () => {
    const dead = filed({ pid: deadPid() });
    const audit = new MemoryAudit();
    const store = new DialogStore();
    const watch = new QueueWatch({ paths, store, report: () => undefined, audit, auditCtx: { session: 'chat-1' } });
    try {
      watch.poll();
      expect(store.snapshot().active).toBeUndefined();
      expect(fs.existsSync(join(dir, `${dead.id}.request.json`))).toBe(false);
      const settled = audit.ofKind('escalation.settled');
      expect(settled.map((e) => [e.details.escalationId, e.details.outcome])).toEqual([[dead.id, 'stale']]);
      expect(settled[0]!.session).toBe('chat-1');
    } finally {
      watch.stop();
      store.closeAll();
    }
  });
});
