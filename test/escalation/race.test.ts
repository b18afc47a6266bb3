import { describe, expect, it } from 'vitest';
import { RaceChannel } from '../../src/escalation/race.js';
import type { ChannelName } from '../../src/core/channels.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../../src/escalation/types.js';

const approval: Escalation = {
  verb: 'approval',
  request: { command: 'touch x', line: 'touch x', pattern: 'touch *', directory: '/tmp', level: 'moderate', reasons: ['modifies files'] },
};
const ctx = (extra: Partial<RaiseContext> = {}): RaiseContext => ({ session: 's', timeoutMs: 1000, escalationId: 'e1', ...extra });

/** A leg that answers after a delay, or fails, and records whether it was withdrawn. */
class Leg implements EscalationChannel {
  withdrawn = false;
  constructor(
    readonly name: ChannelName,
    private readonly after: number,
    private readonly outcome: EscalationOutcome | Error,
  ) {}
  raise(_e: Escalation, c: RaiseContext): Promise<EscalationOutcome> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => (this.outcome instanceof Error ? reject(this.outcome) : resolve(this.outcome as EscalationOutcome)), this.after);
      c.signal?.addEventListener('abort', () => {
        this.withdrawn = true;
        clearTimeout(t);
        resolve({ kind: 'declined', reason: 'withdrawn' });
      });
    });
  }
}

describe('RaceChannel', () => {
  it('takes the first leg to answer and withdraws the other (queue wins)', async () => {
    const dialog = new Leg('elicitation', 200, { kind: 'approved', scope: 'session' });
    const queue = new Leg('queue', 10, { kind: 'approved', scope: 'once' });
    const out = await new RaceChannel('elicitation', [dialog, queue]).raise(approval, ctx());
    // The outcome names the leg that answered: the audit records it as the channel of the settlement.
    expect(out).toEqual({ kind: 'approved', scope: 'once', via: 'queue' });
    expect(dialog.withdrawn).toBe(true);
    expect(queue.withdrawn).toBe(false);
  });

  it('takes the dialog when it answers first and withdraws the queue', async () => {
    const dialog = new Leg('elicitation', 5, { kind: 'declined', reason: 'declined by the user' });
    const queue = new Leg('queue', 300, { kind: 'approved', scope: 'once' });
    const out = await new RaceChannel('elicitation', [dialog, queue]).raise(approval, ctx());
    expect(out).toEqual({ kind: 'declined', reason: 'declined by the user', via: 'elicitation' });
    expect(queue.withdrawn).toBe(true);
  });

  it('keeps asking on the other leg when one leg fails', async () => {
    const dialog = new Leg('elicitation', 1, new Error('client went away'));
    const queue = new Leg('queue', 30, { kind: 'approved', scope: 'once' });
    const out = await new RaceChannel('elicitation', [dialog, queue]).raise(approval, ctx());
    expect(out).toEqual({ kind: 'approved', scope: 'once', via: 'queue' });
  });

  it('fails (rejects), naming each failure, when every leg fails: a failed request is nobody\'s no', async () => {
    const raced = new RaceChannel('elicitation', [
      new Leg('elicitation', 1, new Error('no dialog')),
      new Leg('queue', 2, new Error('pending dir is 0755')),
    ]).raise(approval, ctx());
    const err = await raced.then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('elicitation: no dialog');
    expect((err as Error).message).toContain('queue: pending dir is 0755');
  });

  it('withdraws every leg when the caller gives up', async () => {
    const a = new Leg('elicitation', 1000, { kind: 'approved', scope: 'once' });
    const b = new Leg('queue', 1000, { kind: 'approved', scope: 'once' });
    const abort = new AbortController();
    const pending = new RaceChannel('elicitation', [a, b]).raise(approval, ctx({ signal: abort.signal }));
    setTimeout(() => abort.abort(), 10);
    const out = await pending;
    expect(out.kind).toBe('declined');
    expect(a.withdrawn && b.withdrawn).toBe(true);
  });
});
