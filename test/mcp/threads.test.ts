// Threads: serial within, parallel across, capped with LRU eviction, closed on request; each its own audit
// session. And what happens to waiting escalations when a call is cancelled or the client goes away.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ask, hanging, pendingFiles, readJson, run, say, startHarness, waitFor, type ElicitHandler, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  open.push(h);
  return h;
}

describe('threads', () => {
  it('32 threads in parallel, each with an escalation: no answer crosses threads, every decision audited once', async () => {
    let h!: Harness;
    // The client decides per thread: even threads accept, odd ones decline. It finds the thread of the request from
    // the audit's approval.requested event for the escalation id the dialog carries.
    const decide: ElicitHandler = async (req) => {
      const id = (req.params._meta as Record<string, unknown>)['wisp/escalation'];
      const requested = h.events('approval.requested').find((e) => e.details.escalationId === id)!;
      const n = Number(requested.thread!.slice(1));
      await new Promise((r) => setTimeout(r, Math.random() * 50));
      return n % 2 === 0 ? { action: 'accept', content: { scope: 'once' } } : { action: 'decline' };
    };
    h = await harness({ responses: [run('touch shared'), say('done')], elicit: decide, config: (c) => void (c.escalation.outOfBand = false) });
    const results = await Promise.all(Array.from({ length: 32 }, (_, i) => h.respond({ prompt: `thread ${i}`, thread_id: `t${i}` })));
    results.forEach((r, i) => {
      expect(r.structuredContent.thread_id).toBe(`t${i}`);
      if (i % 2 === 0) {
        expect(r.structuredContent.refusals).toEqual([]);
        expect(r.structuredContent.receipt.commands).toHaveLength(1);
      } else {
        expect(r.structuredContent.refusals).toHaveLength(1);
        expect(r.structuredContent.refusals[0]!.reason).toContain('declined by the user');
      }
    });
    const requested = h.events('approval.requested');
    const decided = h.events('approval.decided');
    expect(requested).toHaveLength(32);
    expect(decided).toHaveLength(32);
    expect(h.elicitations).toHaveLength(32);
    for (const req of requested) {
      const mine = decided.filter((d) => d.details.escalationId === req.details.escalationId);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.thread).toBe(req.thread);
      expect(mine[0]!.session).toBe(req.session);
      const n = Number(req.thread!.slice(1));
      expect(mine[0]!.details.decision).toBe(n % 2 === 0 ? 'approved' : 'denied');
    }
    // Each thread is an audit session of its own, whose parent is the server's session.
    const starts = h.events('session.start').filter((e) => e.details.parent === h.server.session.id);
    expect(new Set(starts.map((e) => e.session)).size).toBe(32);
    expect(new Set(requested.map((e) => e.session)).size).toBe(32);
  });

  it('runs calls on one thread one after another, and threads side by side', async () => {
    const h = await harness({ responses: [{ text: 'first', delayMs: 300 }, { text: 'second', delayMs: 300 }], elicit: hanging() });
    const started = Date.now();
    const [a, b, c] = await Promise.all([
      h.respond({ prompt: 'one', thread_id: 'same' }),
      h.respond({ prompt: 'two', thread_id: 'same' }),
      h.respond({ prompt: 'other', thread_id: 'other' }),
    ]);
    const took = Date.now() - started;
    expect(a.structuredContent.text).toBe('first');
    expect(b.structuredContent.text).toBe('second');
    expect(c.structuredContent.text).toBe('first');
    expect(took).toBeGreaterThanOrEqual(590);
    expect(took).toBeLessThan(1500);
    // On the shared thread, turn 2's prompt comes after turn 1's response.
    const same = h.audit.events.filter((e) => e.thread === 'same' && (e.kind === 'prompt' || e.kind === 'response'));
    expect(same.map((e) => `${e.kind}:${e.turn}`)).toEqual(['prompt:1', 'response:1', 'prompt:2', 'response:2']);
  });

  it('evicts the least recently used thread beyond mcp.maxThreads', async () => {
    const h = await harness({ responses: [say('hi')], elicit: hanging(), config: (c) => void (c.mcp.maxThreads = 2) });
    await h.respond({ prompt: 'a', thread_id: 'a' });
    await h.respond({ prompt: 'b', thread_id: 'b' });
    await h.respond({ prompt: 'c', thread_id: 'c' });
    const ended = h.events('session.end').filter((e) => e.details.reason === 'evicted');
    expect(ended.map((e) => e.thread)).toEqual(['a']);
    const list = await readJson<{ threads: Array<{ thread_id: string; turns: number }> }>(h, 'wisp://threads');
    expect(list.threads.map((t) => t.thread_id)).toEqual(['b', 'c']);
    expect(list.threads[0]!.turns).toBe(1);
    const gone = await h.client.callTool({ name: 'close_thread', arguments: { thread_id: 'a' } });
    expect(gone.isError).toBe(true);
  });

  it('close_thread drops the thread and its pending ids; an unknown thread is a tool error', async () => {
    const h = await harness({ channel: 'result', responses: [ask('Which?'), say('waiting'), say('ok')] });
    const first = await h.respond({ prompt: 'ask', thread_id: 'q' });
    const id = first.structuredContent.pending[0]!.id as string;
    const pendingBefore = await readJson<{ inquiries: Array<{ id: string }> }>(h, 'wisp://pending');
    expect(pendingBefore.inquiries.map((p: { id: string }) => p.id)).toEqual([id]);

    const closed = await h.client.callTool({ name: 'close_thread', arguments: { thread_id: 'q' } });
    expect(closed.isError).toBeFalsy();
    expect((closed.content as Array<{ text: string }>)[0]!.text).toMatch(/^closed q/);
    expect(closed.structuredContent).toMatchObject({ thread_id: 'q', closed: true, dropped: [id] });
    const threadSession = h.events('session.start').find((e) => e.thread === 'q')!.session;
    expect(h.events('session.end').find((e) => e.session === threadSession)!.details).toMatchObject({ reason: 'closed' });
    const pendingAfter = await readJson<{ inquiries: Array<{ id: string }> }>(h, 'wisp://pending');
    expect(pendingAfter.inquiries).toEqual([]);

    // A new thread under the same name cannot redeem the dropped id.
    const again = await h.respond({ prompt: 'x', thread_id: 'q', answers: [{ id, text: 'late' }] });
    expect(again.structuredContent.refusals.map((r) => r.escalationId)).toContain(id);

    const unknown = await h.client.callTool({ name: 'close_thread', arguments: { thread_id: 'never' } });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as Array<{ text: string }>)[0]!.text).toMatch(/no thread never/);
  });

  it('a cancelled call withdraws its dialog and is audited abandoned', async () => {
    let withdrawn = false;
    const h = await harness({ responses: [run('touch cancelled'), say('ok')], elicit: hanging(() => (withdrawn = true)) });
    const controller = new AbortController();
    const call = h.respond({ prompt: 'go' }, { signal: controller.signal });
    await waitFor(() => h.elicitations.length === 1);
    await waitFor(() => pendingFiles(h.dirs).length > 0);
    controller.abort('changed my mind');
    await expect(call).rejects.toThrow();
    await waitFor(() => h.events('escalation.settled').find((e) => e.details.outcome === 'abandoned'));
    await waitFor(() => withdrawn);
    expect(h.events('approval.decided')[0]!.details).toMatchObject({ decision: 'denied' });
    expect(existsSync(join(h.dirs.work, 'cancelled'))).toBe(false);
    await waitFor(() => pendingFiles(h.dirs).length === 0);
  });

  it('a client that disconnects withdraws every request it was waiting on, audited abandoned', async () => {
    const h = await harness({ responses: [run('touch gone'), say('ok')], elicit: hanging() });
    const calls = [h.respond({ prompt: 'a', thread_id: 'a' }).catch(() => 'closed'), h.respond({ prompt: 'b', thread_id: 'b' }).catch(() => 'closed')];
    await waitFor(() => h.elicitations.length === 2);
    await h.client.close();
    expect(await Promise.all(calls)).toEqual(['closed', 'closed']);
    const abandoned = await waitFor(() => {
      const a = h.events('escalation.settled').filter((e) => e.details.outcome === 'abandoned');
      return a.length === 2 && a;
    });
    expect(new Set(abandoned.map((e) => e.thread))).toEqual(new Set(['a', 'b']));
    expect(existsSync(join(h.dirs.work, 'gone'))).toBe(false);
    await waitFor(() => pendingFiles(h.dirs).length === 0);
  });
});
