// Issue 18's done-when, over the audit log of real sessions: every escalation id that is requested is settled exactly
// once, with the verb it was requested as and the channel that actually carried the answer — on every channel
// (the chat's dialog, elicitation, queue, result, auto, deny) and when the asker gives up, nobody answers in time,
// or the person cancels. All of it goes through one path (src/escalation/escalate.ts).
import { afterEach, describe, expect, it } from 'vitest';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { AuditEvent } from '../../src/audit/kinds.js';
import { answerRequest, listPending } from '../../src/escalation/queue/answerer.js';
import { DialogStore, type DialogResult } from '../../ui/dialog-store.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';
import { call, makeRig, run as runCall } from '../helpers/conversation.js';
import { accept, ask, hanging, run, say, startHarness, waitFor, type Harness, type HarnessOptions } from '../mcp/helpers.js';

type Details = Record<string, unknown>;

interface Trail {
  readonly verb: string;
  /** The channel `*.requested` named (the route). */
  readonly requested: string;
  /** The channel and outcome of its one final `escalation.settled`. */
  readonly channel: string;
  readonly outcome: string;
}

/**
 * The invariant, checked over the whole log: each requested id has exactly one final settlement (an answer refused
 * on the way, `via: respond.answers`, does not end it), of the verb it was requested as, whose channel is the one
 * its last `*.decided` names; nothing is settled that was never requested. Returns one line per escalation.
 */
function settledOnce(events: readonly AuditEvent[]): Trail[] {
  const of = (kind: AuditEvent['kind']) => events.filter((e) => e.kind === kind).map((e) => e.details as Details);
  const requested = events.filter((e) => e.kind === 'approval.requested' || e.kind === 'inquiry.requested').map((e) => e.details as Details);
  const settled = of('escalation.settled');
  const decided = [...of('approval.decided'), ...of('inquiry.decided')];
  const ids = requested.map((r) => r.escalationId);
  expect(new Set(ids).size, 'an id is requested once').toBe(ids.length);
  for (const s of settled) expect(ids, `settled but never requested: ${String(s.escalationId)}`).toContain(s.escalationId);
  return requested.map((r) => {
    const verb = 'question' in r ? 'inquiry' : 'approval';
    const final = settled.filter((s) => s.escalationId === r.escalationId && s.via !== 'respond.answers');
    expect(final, `settlements of ${String(r.escalationId)}`).toHaveLength(1);
    expect(final[0]!.verb, `verb of ${String(r.escalationId)}`).toBe(verb);
    const last = decided.filter((d) => d.escalationId === r.escalationId).at(-1);
    if (last) expect(last.channel, `decided and settled name one channel (${String(r.escalationId)})`).toBe(final[0]!.channel);
    return { verb, requested: String(r.channel), channel: String(final[0]!.channel), outcome: String(final[0]!.outcome) };
  });
}

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
async function harness(opts: HarnessOptions): Promise<Harness> {
  const h = await startHarness(opts);
  open.push(h);
  return h;
}
const all = (h: Harness): AuditEvent[] => h.audit.events;
const queued = (h: Harness, verb: 'approval' | 'inquiry') => waitFor(() => listPending(h.dirs.paths, verb)[0], 60_000);

describe('every requested escalation is settled once, with its verb and the channel used', () => {
  it('terminal (the chat dialog): an approval approved, a question answered, a question left to time out', async () => {
    const store = new DialogStore();
    const answers: DialogResult[] = [{ kind: 'approved', scope: 'once' }, { kind: 'answered', text: 'the left one' }];
    store.subscribe(() => {
      const active = store.snapshot().active;
      const next = active && answers.shift();
      if (active && next) queueMicrotask(() => store.settle(active.id, next));
    });
    const rig = await makeRig({
      channel: new TerminalChannel(store),
      config: { escalation: { timeoutSeconds: 1 } },
      responses: [runCall('touch marker'), call('ask_operator', { question: 'Which?' }), call('ask_operator', { question: 'And?' }), { text: 'done' }],
    });
    await rig.conversation.turn('go');
    expect(settledOnce(rig.audit.events)).toEqual([
      { verb: 'approval', requested: 'terminal', channel: 'terminal', outcome: 'answered' },
      { verb: 'inquiry', requested: 'terminal', channel: 'terminal', outcome: 'answered' },
      { verb: 'inquiry', requested: 'terminal', channel: 'terminal', outcome: 'timed-out' },
    ]);
  });

  it('terminal: a dialog withdrawn with Ctrl-C is abandoned', async () => {
    const store = new DialogStore();
    const ac = new AbortController();
    store.subscribe(() => {
      if (store.snapshot().active) queueMicrotask(() => ac.abort());
    });
    const rig = await makeRig({ channel: new TerminalChannel(store), responses: [runCall('touch marker'), { text: 'done' }] });
    await rig.conversation.turn('go', { signal: ac.signal }).catch(() => undefined);
    expect(settledOnce(rig.audit.events)).toEqual([{ verb: 'approval', requested: 'terminal', channel: 'terminal', outcome: 'abandoned' }]);
  });

  it('elicitation: approved and answered in the dialog; a cancel in the dialog is the person\'s no', async () => {
    const replies: ElicitResult[] = [
      { action: 'accept' as const, content: { scope: 'once' } },
      { action: 'accept' as const, content: { answer: 'blue' } },
      { action: 'cancel' as const },
    ];
    const h = await harness({
      responses: [run('touch marker'), ask('Colour?'), ask('Size?'), say('done')],
      elicit: async () => replies.shift()!,
    });
    await h.respond({ prompt: 'go' });
    expect(settledOnce(all(h))).toEqual([
      { verb: 'approval', requested: 'elicitation', channel: 'elicitation', outcome: 'answered' },
      { verb: 'inquiry', requested: 'elicitation', channel: 'elicitation', outcome: 'answered' },
      { verb: 'inquiry', requested: 'elicitation', channel: 'elicitation', outcome: 'answered' },
    ]);
  });

  it('elicitation raced with the queue: answered in a terminal, settled under the queue that carried it', async () => {
    const h = await harness({ responses: [run('touch marker'), say('done')], elicit: hanging() });
    const turn = h.respond({ prompt: 'go' });
    const request = await queued(h, 'approval');
    expect(answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' }).ok).toBe(true);
    await turn;
    expect(settledOnce(all(h))).toEqual([{ verb: 'approval', requested: 'elicitation', channel: 'queue', outcome: 'answered' }]);
  });

  it('elicitation raced with the queue: the client cancels the call while both wait — abandoned, under the route (no leg answered)', async () => {
    const h = await harness({ responses: [run('touch marker'), say('done')], elicit: hanging() });
    const ac = new AbortController();
    const turn = h.respond({ prompt: 'go' }, { signal: ac.signal }).catch(() => undefined);
    await waitFor(() => h.elicitations.length > 0, 60_000);
    ac.abort();
    await turn;
    await waitFor(() => h.events('escalation.settled').length > 0, 60_000);
    expect(settledOnce(all(h))).toEqual([{ verb: 'approval', requested: 'elicitation', channel: 'elicitation', outcome: 'abandoned' }]);
  });

  it('elicitation: nobody answers within the bound — timed out', async () => {
    const h = await harness({
      responses: [ask('Colour?'), say('done')],
      elicit: hanging(),
      config: (c) => {
        c.escalation.timeoutSeconds = 1;
        c.escalation.outOfBand = false;
      },
    });
    await h.respond({ prompt: 'go' });
    expect(settledOnce(all(h))).toEqual([{ verb: 'inquiry', requested: 'elicitation', channel: 'elicitation', outcome: 'timed-out' }]);
  });

  it('a client without elicitation: the queue alone, audited as the queue', async () => {
    const h = await harness({ responses: [ask('Colour?'), say('done')] });
    const turn = h.respond({ prompt: 'go' });
    const request = await queued(h, 'inquiry');
    expect(answerRequest(h.dirs.paths, request, { text: 'red' }, { via: 'cli', answeredBy: 'human' }).ok).toBe(true);
    await turn;
    expect(settledOnce(all(h))).toEqual([{ verb: 'inquiry', requested: 'queue', channel: 'queue', outcome: 'answered' }]);
  });

  it('queue: approved in a terminal; denied in a terminal (a no is an answer)', async () => {
    const h = await harness({ channel: 'queue', responses: [run('touch a'), run('touch b'), say('done')] });
    const turn = h.respond({ prompt: 'go' });
    const first = await queued(h, 'approval');
    expect(answerRequest(h.dirs.paths, first, { decision: 'once' }, { via: 'cli' }).ok).toBe(true);
    const second = await waitFor(() => listPending(h.dirs.paths, 'approval').find((r) => r.id !== first.id), 60_000);
    expect(answerRequest(h.dirs.paths, second, { decision: 'no' }, { via: 'cli' }).ok).toBe(true);
    await turn;
    expect(settledOnce(all(h))).toEqual([
      { verb: 'approval', requested: 'queue', channel: 'queue', outcome: 'answered' },
      { verb: 'approval', requested: 'queue', channel: 'queue', outcome: 'answered' },
    ]);
  });

  it('queue: nobody answers within the bound — timed out', async () => {
    const h = await harness({ channel: 'queue', responses: [run('touch a'), say('done')], config: (c) => void (c.escalation.timeoutSeconds = 1) });
    await h.respond({ prompt: 'go' });
    expect(settledOnce(all(h))).toEqual([{ verb: 'approval', requested: 'queue', channel: 'queue', outcome: 'timed-out' }]);
  });

  it('result: an inquiry redeemed on the next turn, a deferred approval answered in a terminal', async () => {
    const h = await harness({
      channel: 'result',
      responses: [ask('Colour?'), say('waiting'), run('touch marker'), say('waiting'), run('touch marker'), say('done')],
    });
    const first = await h.respond({ prompt: 'go' });
    const thread = first.structuredContent.thread_id;
    const inquiry = first.structuredContent.pending[0]!.id as string;
    const second = await h.respond({ prompt: 'continue', thread_id: thread, answers: [{ id: inquiry, text: 'green' }] });
    const approval = second.structuredContent.pending[0]!;
    const request = await waitFor(() => listPending(h.dirs.paths, 'approval').find((r) => r.id === approval.id), 60_000);
    expect(answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' }).ok).toBe(true);
    await h.respond({ prompt: 'again', thread_id: thread });
    expect(settledOnce(all(h))).toEqual([
      { verb: 'inquiry', requested: 'result', channel: 'result', outcome: 'answered' },
      { verb: 'approval', requested: 'queue', channel: 'queue', outcome: 'answered' },
    ]);
  });

  it('result: an inquiry not redeemed in time times out; a pending approval of a closed thread is abandoned', async () => {
    const h = await harness({
      channel: 'result',
      responses: [ask('Colour?'), say('waiting'), run('touch marker'), say('waiting')],
      config: (c) => void (c.escalation.pendingSeconds = 1),
    });
    const first = await h.respond({ prompt: 'go' });
    const thread = first.structuredContent.thread_id;
    const id = first.structuredContent.pending[0]!.id as string;
    await new Promise((r) => setTimeout(r, 1100)); // past pendingSeconds: the next turn finds the inquiry expired
    const second = await h.respond({ prompt: 'next', thread_id: thread, answers: [{ id, text: 'too late' }] });
    expect(second.structuredContent.refusals.map((r) => r.escalationId)).toContain(id);
    expect(second.structuredContent.pending).toHaveLength(1);
    await h.client.callTool({ name: 'close_thread', arguments: { thread_id: thread } });
    expect(settledOnce(all(h))).toEqual([
      { verb: 'inquiry', requested: 'result', channel: 'result', outcome: 'timed-out' },
      { verb: 'approval', requested: 'queue', channel: 'queue', outcome: 'abandoned' },
    ]);
  });

  it('auto (--yes): approved once; a question refused, nobody is there to answer', async () => {
    const h = await harness({ channel: 'auto', responses: [run('touch marker'), ask('Colour?'), say('done')] });
    await h.respond({ prompt: 'go' });
    expect(settledOnce(all(h))).toEqual([
      { verb: 'approval', requested: 'auto', channel: 'auto', outcome: 'answered' },
      { verb: 'inquiry', requested: 'auto', channel: 'auto', outcome: 'refused' },
    ]);
  });

  it('deny: the approval and the question are refused', async () => {
    const h = await harness({ channel: 'deny', responses: [run('touch marker'), ask('Colour?'), say('done')] });
    await h.respond({ prompt: 'go' });
    expect(settledOnce(all(h))).toEqual([
      { verb: 'approval', requested: 'deny', channel: 'deny', outcome: 'refused' },
      { verb: 'inquiry', requested: 'deny', channel: 'deny', outcome: 'refused' },
    ]);
  });

  it('a channel that answers the wrong verb is settled as a failed request, not left open', async () => {
    const rig = await makeRig({
      channel: { name: 'terminal', raise: async (e) => (e.verb === 'approval' ? { kind: 'answered', text: 'yes' } : { kind: 'approved', scope: 'once' }) },
      responses: [runCall('touch marker'), call('ask_operator', { question: 'Which?' }), { text: 'done' }],
    });
    await rig.conversation.turn('go');
    expect(settledOnce(rig.audit.events)).toEqual([
      { verb: 'approval', requested: 'terminal', channel: 'terminal', outcome: 'refused' },
      { verb: 'inquiry', requested: 'terminal', channel: 'terminal', outcome: 'refused' },
    ]);
  });
});
