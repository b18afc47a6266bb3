import { describe, expect, it } from 'vitest';
import { PendingEscalations } from '../../src/escalation/pending.js';
import { ResultChannel, type DeferredQueue } from '../../src/escalation/result.js';
import type { Escalation, EscalationOutcome, RaiseContext } from '../../src/escalation/types.js';

class FakeQueue implements DeferredQueue {
  filed: string[] = [];
  withdrawn: string[] = [];
  answers = new Map<string, EscalationOutcome>();
  private n = 0;
  async file(_e: Escalation, ctx: RaiseContext) {
    const id = `${ctx.escalationId}-${++this.n}`;
    this.filed.push(id);
    return { id, expiresAt: Date.now() + 60_000 };
  }
  poll(id: string) {
    return this.answers.get(id);
  }
  withdraw(id: string) {
    this.withdrawn.push(id);
  }
}

const approval = (command = 'touch marker'): Escalation => ({
  verb: 'approval',
  request: { command, line: command, pattern: 'touch *', directory: '/w', level: 'moderate', reasons: ['modifies files'] },
});
const ctx = (thread = 't1', id = 'e'): RaiseContext => ({ session: 's', thread, timeoutMs: 1000, escalationId: id });

describe('ResultChannel', () => {
  it('files inquiries as pending ids the same thread can redeem', async () => {
    const pending = new PendingEscalations(60_000);
    const ch = new ResultChannel(pending, new FakeQueue());
    const out = await ch.raise({ verb: 'inquiry', request: { question: 'Which?' } }, ctx('t1', 'q1'));
    expect(out).toEqual({ kind: 'pending', id: 'q1', expiresAt: pending.list('t1')[0]!.expiresAt });
    expect(pending.list('t1').map((p) => p.id)).toEqual(['q1']);
  });

  it('sends approvals to the queue, never to pending answers', async () => {
    const pending = new PendingEscalations(60_000);
    const queue = new FakeQueue();
    const ch = new ResultChannel(pending, queue);
    const out = await ch.raise(approval(), ctx());
    expect(out.kind).toBe('pending');
    expect(queue.filed).toHaveLength(1);
    // The calling agent cannot redeem the approval through `answers`.
    const id = (out as { id: string }).id;
    expect(pending.redeem(id, 't1', 'yes')).toMatchObject({ ok: false, code: 'approval' });
  });

  it('reports the same pending id until the person answers, then their answer once', async () => {
    const queue = new FakeQueue();
    const ch = new ResultChannel(new PendingEscalations(60_000), queue);
    const first = (await ch.raise(approval(), ctx())) as { kind: 'pending'; id: string; expiresAt: number };
    // Asked again: the same id and the same expiry, and the channel says it already holds this question.
    expect(await ch.raise(approval(), ctx())).toEqual({ kind: 'pending', id: first.id, expiresAt: first.expiresAt });
    expect(ch.resumes(approval(), 't1')).toBe(first.id);
    expect(queue.filed).toHaveLength(1);
    queue.answers.set(first.id, { kind: 'approved', scope: 'session' });
    expect(await ch.raise(approval(), ctx())).toEqual({ kind: 'approved', scope: 'session' });
    expect(queue.withdrawn).toContain(first.id);
    // Used up: the next identical request is a new one.
    expect(await ch.raise(approval(), ctx())).toMatchObject({ kind: 'pending' });
    expect(queue.filed).toHaveLength(2);
  });

  it('does not let another thread pick up a thread\'s approval', async () => {
    const queue = new FakeQueue();
    const ch = new ResultChannel(new PendingEscalations(60_000), queue);
    const first = (await ch.raise(approval(), ctx('t1'))) as { id: string };
    queue.answers.set(first.id, { kind: 'approved', scope: 'once' });
    const other = await ch.raise(approval(), ctx('t2'));
    expect(other).toMatchObject({ kind: 'pending' });
    expect((other as { id: string }).id).not.toBe(first.id);
  });

  it('an answer for a part applies only inside the same whole line (rm build/a approved alone never clears rm build/a; rm build/keep)', async () => {
    const queue = new FakeQueue();
    const ch = new ResultChannel(new PendingEscalations(60_000), queue);
    const part = (line: string, directory = '/w'): Escalation => ({
      verb: 'approval',
      request: { command: 'rm build/a', line, pattern: 'rm *', directory, level: 'moderate', reasons: ['deletes files'] },
    });
    const alone = (await ch.raise(part('rm build/a'), ctx())) as { kind: 'pending'; id: string };
    queue.answers.set(alone.id, { kind: 'approved', scope: 'session' });
    // The same part inside a different line is a new question, filed anew; the answer given for the first stays put.
    const inOther = await ch.raise(part('rm build/a; rm build/keep'), ctx());
    expect(inOther).toMatchObject({ kind: 'pending' });
    expect((inOther as { id: string }).id).not.toBe(alone.id);
    expect(queue.filed).toHaveLength(2);
    // …and the same line, in another directory or on another thread, does not pick it up either.
    expect(((await ch.raise(part('rm build/a', '/other'), ctx())) as { id: string }).id).not.toBe(alone.id);
    expect(((await ch.raise(part('rm build/a'), ctx('t2'))) as { id: string }).id).not.toBe(alone.id);
    // The original line, asked again on its thread, gets the answer that was given for it.
    expect(await ch.raise(part('rm build/a'), ctx())).toEqual({ kind: 'approved', scope: 'session' });
  });

  it('passes on a refusal from the person', async () => {
    const queue = new FakeQueue();
    const ch = new ResultChannel(new PendingEscalations(60_000), queue);
    const first = (await ch.raise(approval(), ctx())) as { id: string };
    queue.answers.set(first.id, { kind: 'declined', reason: 'declined by the person (wisp approvals)' });
    expect(await ch.raise(approval(), ctx())).toEqual({ kind: 'declined', reason: 'declined by the person (wisp approvals)' });
  });

  it('treats an expired deferred approval as unanswered and withdraws it', async () => {
    let t = 0;
    const queue = new FakeQueue();
    queue.file = async (_e, c) => ({ id: c.escalationId, expiresAt: 1000 });
    const ch = new ResultChannel(new PendingEscalations(60_000), queue, () => t);
    await ch.raise(approval(), ctx('t1', 'old'));
    t = 1001;
    expect(await ch.raise(approval(), ctx())).toMatchObject({ kind: 'unanswered' });
    expect(queue.withdrawn).toContain('old');
  });

  it('withdraws a closed thread\'s approvals', async () => {
    const queue = new FakeQueue();
    const ch = new ResultChannel(new PendingEscalations(60_000), queue);
    const a = (await ch.raise(approval(), ctx('t1'))) as { id: string };
    await ch.raise(approval('touch other'), ctx('t2'));
    expect(ch.dropThread('t1')).toEqual([a.id]);
    expect(queue.withdrawn).toEqual([a.id]);
    expect(ch.approvals().map((d) => d.thread)).toEqual(['t2']);
  });
});
