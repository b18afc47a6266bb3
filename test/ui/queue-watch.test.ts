import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerRequest, listPending } from '../../src/escalation/queue/answerer.js';
import type { Escalation, EscalationOutcome } from '../../src/escalation/types.js';
import { wispPaths, type WispPaths } from '../../src/core/paths.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { ANSWERED_ELSEWHERE, QueueWatch } from '../../ui/queue-watch.js';
import type { EntryBody } from '../../ui/transcript-entries.js';

let dir: string;
let paths: WispPaths;
let audit: MemoryAudit;
let store: DialogStore;
let reports: EntryBody[];
let watch: QueueWatch;

const approval: Escalation = {
  verb: 'approval',
  request: { command: 'git push', line: 'git push', pattern: 'git push *', directory: '/w', level: 'moderate', reasons: ['changes repository state'] },
};

async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wisp-ui-queue-'));
  mkdirSync(join(dir, 'home'), { mode: 0o700 });
  paths = wispPaths(join(dir, 'home'));
  audit = new MemoryAudit();
  store = new DialogStore();
  const mine: EntryBody[] = []; // per test: a previous test's late report must not land here
  reports = mine;
  watch = new QueueWatch({ paths, store, report: (e) => mine.push(e), pickupMs: 2000 });
});

afterEach(() => {
  watch.stop();
  store.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

function raise(e: Escalation, id: string, thread = 't-1'): Promise<EscalationOutcome> {
  const channel = new QueueChannel({ paths, audit, pendingSeconds: 60, pollMs: 10, client: 'claude-code' });
  return channel.raise(e, { session: 'mcp-1', thread, client: 'claude-code', escalationId: id, timeoutMs: 30_000 });
}

describe('QueueWatch: requests from other wisp processes', () => {
  it('shows a queued approval marked with its client and thread, and answers it from the chat', async () => {
    const outcome = raise(approval, 'abc123');
    await until(() => listPending(paths).length === 1);
    watch.poll();
    const shown = store.snapshot().active!;
    expect(shown.id).toBe('abc123');
    expect(shown.source).toMatchObject({ kind: 'queue', client: 'claude-code', thread: 't-1', pid: process.pid });
    expect(shown.verb === 'approval' && shown.request.command).toBe('git push');
    expect(shown.deadline).toBeGreaterThan(Date.now());

    store.settle('abc123', { kind: 'approved', scope: 'session' });
    await expect(outcome).resolves.toEqual({ kind: 'approved', scope: 'session' });
    await until(() => reports.length > 0);
    expect(reports[0]).toEqual({ kind: 'remote', what: 'git push', client: 'claude-code', thread: 't-1', outcome: 'you approved (session)' });
    const answered = audit.ofKind('escalation.answered')[0]!;
    expect(answered.details).toMatchObject({ via: 'chat', answeredBy: 'human', decision: 'session' });
  });

  it('n refuses the other process with a decision of no', async () => {
    const outcome = raise(approval, 'def456');
    await until(() => listPending(paths).length === 1);
    watch.poll();
    store.settle('def456', { kind: 'declined', reason: 'declined by the person (wisp chat)' });
    await expect(outcome).resolves.toEqual({ kind: 'declined', reason: 'declined by the person (wisp chat)' });
  });

  it('answers an inquiry with the typed text', async () => {
    const outcome = raise({ verb: 'inquiry', request: { question: 'Which branch?' } }, 'inq1');
    await until(() => listPending(paths).length === 1);
    watch.poll();
    store.settle('inq1', { kind: 'answered', text: 'main' });
    await expect(outcome).resolves.toMatchObject({ kind: 'answered', text: 'main', answeredBy: 'human' });
  });

  it('closes the dialog with "answered elsewhere" when another face answers first', async () => {
    const outcome = raise(approval, 'else1');
    await until(() => listPending(paths).length === 1);
    watch.poll();
    expect(store.has('else1')).toBe(true);
    const [req] = listPending(paths);
    answerRequest(paths, req!, { decision: 'once' }, { via: 'cli' });
    await expect(outcome).resolves.toEqual({ kind: 'approved', scope: 'once' });
    watch.poll();
    expect(store.has('else1')).toBe(false);
    await until(() => reports.length > 0);
    expect(reports[0]).toMatchObject({ kind: 'remote', outcome: ANSWERED_ELSEWHERE });
  });

  it('never shows the same request twice, and queues several one at a time', async () => {
    const a = raise(approval, 'one1', 't-a');
    const b = raise(approval, 'two2', 't-b');
    await until(() => listPending(paths).length === 2);
    watch.poll();
    watch.poll();
    expect(store.snapshot().waiting).toBe(1);
    store.settle(store.snapshot().active!.id, { kind: 'approved', scope: 'once' });
    store.settle(store.snapshot().active!.id, { kind: 'approved', scope: 'once' });
    await expect(Promise.all([a, b])).resolves.toHaveLength(2);
  });

  it('attack: a planted request file is reported and audited once, however many looks see it', () => {
    const watchAudit = new MemoryAudit();
    const w = new QueueWatch({ paths, store, report: (e) => reports.push(e), audit: watchAudit, auditCtx: { session: 'chat' } });
    mkdirSync(paths.pending, { mode: 0o700 });
    writeFileSync(join(paths.pending, 'dead0001.request.json'), '{"id":"dead0001"', { mode: 0o600 });
    w.poll();
    w.poll();
    w.poll();
    expect(reports.filter((r) => r.kind === 'error')).toHaveLength(1);
    const refused = watchAudit.ofKind('escalation.settled').map((e) => e.details);
    expect(refused).toEqual([expect.objectContaining({ channel: 'queue', escalationId: 'dead0001', outcome: 'refused' })]);
  });

  it('reports a queue directory it cannot trust once, instead of reading it', () => {
    mkdirSync(paths.pending, { mode: 0o777 });
    watch.poll();
    watch.poll();
    expect(reports).toHaveLength(1);
    expect(reports[0]!.kind).toBe('error');
    expect(JSON.stringify(reports[0])).toMatch(/chmod 700/);
  });
});
