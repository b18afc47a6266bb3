// Under `--escalation result` a deferred approval's audit trail adds up (issue 18): every escalation id requested is
// settled exactly once, with the verb and the channel actually used, and the pending entry's expiry is the queue's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit/kinds.js';
import { answerRequest, listPending } from '../../src/escalation/queue/answerer.js';
import { ask, run, say, startHarness, waitFor, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  open.push(h);
  return h;
}

type Details = Record<string, unknown>;
const ofId = (h: Harness, kind: AuditEvent['kind'], id: string): Details[] =>
  h.events(kind).filter((e) => e.details?.escalationId === id).map((e) => e.details as Details);

/** Every id some `*.requested` names: settled once (answers refused on the way aside), with its verb and channel. */
function expectSettledOnce(h: Harness): void {
  const requested = [...h.events('approval.requested'), ...h.events('inquiry.requested')].map((e) => e.details as Details);
  const settled = h.events('escalation.settled').map((e) => e.details as Details);
  for (const r of requested) {
    const verb = 'question' in r ? 'inquiry' : 'approval';
    const final = settled.filter((s) => s.escalationId === r.escalationId && s.via !== 'respond.answers');
    expect(final, `settlements of ${String(r.escalationId)}`).toHaveLength(1);
    expect(final[0], `settlement of ${String(r.escalationId)}`).toMatchObject({ verb, channel: r.channel });
  }
  // Nothing is settled that was never requested.
  const ids = new Set(requested.map((r) => r.escalationId));
  for (const s of settled) expect(ids.has(s.escalationId), `settled but never requested: ${String(s.escalationId)}`).toBe(true);
}

describe('result channel: a deferred approval’s audit trail', () => {
  it('asked in one turn, approved in a terminal, run in the next: one id, requested once and settled once, on the queue', async () => {
    const h = await harness({ channel: 'result', responses: [run('touch marker-d'), say('waiting'), run('touch marker-d'), say('done')] });
    const first = await h.respond({ prompt: 'make a marker' });
    const p = first.structuredContent.pending[0]!;
    const id = p.id as string;
    const file = JSON.parse(readFileSync(join(h.dirs.paths.pending, `${id}.request.json`), 'utf8')) as { expiresAt: string };
    expect(p.expiresAt).toBe(file.expiresAt);

    const request = await waitFor(() => listPending(h.dirs.paths, 'approval').find((r) => r.id === id));
    expect(answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' }).ok).toBe(true);
    const second = await h.respond({ prompt: 'try again', thread_id: first.structuredContent.thread_id });
    expect(second.structuredContent.refusals).toEqual([]);

    expect(h.events('approval.requested').map((e) => e.details?.escalationId)).toEqual([id]);
    expect(ofId(h, 'approval.requested', id)[0]).toMatchObject({ channel: 'queue' });
    expect(ofId(h, 'approval.decided', id).map((d) => [d.decision, d.channel])).toEqual([['pending', 'queue'], ['approved', 'queue']]);
    expectSettledOnce(h);
  });

  it('asked again while still unanswered: the same id, its expiry unchanged, not requested twice', async () => {
    const h = await harness({ channel: 'result', responses: [run('touch m'), say('waiting'), run('touch m'), say('still waiting')] });
    const first = await h.respond({ prompt: 'make it' });
    const again = await h.respond({ prompt: 'again', thread_id: first.structuredContent.thread_id });
    expect(again.structuredContent.pending.map((x) => [x.id, x.expiresAt])).toEqual(first.structuredContent.pending.map((x) => [x.id, x.expiresAt]));
    expect(h.events('approval.requested')).toHaveLength(1);
    await h.close();
    expectSettledOnce(h); // the shutdown settles it: abandoned
  });

  it('an approval id sent in answers is refused as an approval (not an inquiry), and the approval stays open', async () => {
    const h = await harness({ channel: 'result', responses: [run('touch marker-s'), say('waiting'), say('ok'), run('touch marker-s'), say('done')] });
    const first = await h.respond({ prompt: 'make a marker' });
    const id = first.structuredContent.pending[0]!.id as string;
    await h.respond({ prompt: 'continue', thread_id: first.structuredContent.thread_id, answers: [{ id, text: 'yes' }] });
    expect(ofId(h, 'escalation.settled', id)).toEqual([expect.objectContaining({ verb: 'approval', outcome: 'refused', via: 'respond.answers' })]);
    const request = await waitFor(() => listPending(h.dirs.paths, 'approval').find((r) => r.id === id));
    expect(answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' }).ok).toBe(true);
    await h.respond({ prompt: 'try again', thread_id: first.structuredContent.thread_id });
    expectSettledOnce(h);
  });

  it('an inquiry’s pending expiry is the one it was filed with', async () => {
    const h = await harness({ channel: 'result', responses: [ask('Which file?'), say('waiting'), say('thanks')] });
    const first = await h.respond({ prompt: 'ask me' });
    const p = first.structuredContent.pending[0]!;
    const listed = h.server.session.pendingInquiries.list().find((x) => x.id === p.id)!;
    expect(p.expiresAt).toBe(new Date(listed.expiresAt).toISOString());
    await h.respond({ prompt: 'go on', thread_id: first.structuredContent.thread_id, answers: [{ id: p.id, text: 'a.txt' }] });
    expectSettledOnce(h);
  });
});

describe('elicitation channel, client without elicitation', () => {
  it('an approval that only the queue carries is requested and settled as queue', async () => {
    const h = await harness({ responses: [run('touch marker-q'), say('ok')], config: (c) => (c.escalation.timeoutSeconds = 30) });
    const turn = h.respond({ prompt: 'make a marker' });
    const request = await waitFor(() => listPending(h.dirs.paths, 'approval')[0]);
    expect(answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' }).ok).toBe(true);
    await turn;
    expect(h.events('approval.requested')[0]!.details).toMatchObject({ channel: 'queue' });
    expectSettledOnce(h);
  });
});
