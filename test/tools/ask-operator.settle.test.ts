// How an inquiry is settled in the audit log (issue 18): a question withdrawn by the caller (Ctrl-C in the chat, a
// cancelled MCP call) is `abandoned`, a request that failed is `refused`, and only a person's no is `answered`.
import { describe, expect, it } from 'vitest';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../../src/escalation/types.js';
import { call, makeRig } from '../helpers/conversation.js';

/** Waits for the caller to give up, then reports the withdrawal as channels do (a decline with a reason). */
class WithdrawnChannel implements EscalationChannel {
  readonly name = 'terminal' as const;
  raised = false;
  onRaise?: () => void;
  raise(_e: Escalation, ctx: RaiseContext): Promise<EscalationOutcome> {
    this.raised = true;
    this.onRaise?.();
    return new Promise((resolve) => {
      ctx.signal?.addEventListener('abort', () => resolve({ kind: 'declined', reason: 'the request was withdrawn' }), { once: true });
    });
  }
}

class FailingChannel implements EscalationChannel {
  readonly name = 'terminal' as const;
  raise(): Promise<EscalationOutcome> {
    return Promise.reject(new Error('the terminal went away'));
  }
}

const ask = call('ask_operator', { question: 'Which file?' });

describe('ask_operator: how an inquiry is settled', () => {
  it('an inquiry withdrawn with Ctrl-C (the turn aborted) is abandoned, not answered', async () => {
    const channel = new WithdrawnChannel();
    const rig = await makeRig({ responses: [ask, { text: 'ok' }], channel });
    const ac = new AbortController();
    channel.onRaise = () => setImmediate(() => ac.abort());
    await rig.conversation.turn('go', { signal: ac.signal }).catch(() => undefined);
    expect(channel.raised).toBe(true);
    const settled = rig.audit.ofKind('escalation.settled');
    expect(settled).toHaveLength(1);
    expect(settled[0]!.details).toMatchObject({ verb: 'inquiry', outcome: 'abandoned', channel: 'terminal' });
  });

  it('a request that failed is refused, not answered', async () => {
    const rig = await makeRig({ responses: [ask, { text: 'ok' }], channel: new FailingChannel() });
    await rig.conversation.turn('go');
    expect(rig.audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ verb: 'inquiry', outcome: 'refused' });
  });

  it('a person declining is answered (their no is an answer)', async () => {
    const channel: EscalationChannel = { name: 'terminal', raise: async () => ({ kind: 'declined', reason: 'declined by the person (wisp chat)' }) };
    const rig = await makeRig({ responses: [ask, { text: 'ok' }], channel });
    await rig.conversation.turn('go');
    expect(rig.audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ verb: 'inquiry', outcome: 'answered' });
  });
});
