// An escalation still waiting when its session ends (a closed terminal, SIGTERM, Ctrl+C in `wisp respond`, an MCP
// client gone) is settled then and there, saying why, and an answer that comes after is not taken (ADR 0102).
import { describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { abandonInFlight, escalate } from '../../src/escalation/escalate.js';
import type { Escalation, EscalationChannel, EscalationOutcome } from '../../src/escalation/types.js';

const approval: Escalation = {
  verb: 'approval',
  request: { command: 'touch made', line: 'touch made', pattern: 'touch *', directory: '/w', level: 'moderate', reasons: ['modifies files'] },
};

/** A channel whose person answers only when the test says so. */
function heldChannel(): { channel: EscalationChannel; answer: (o: EscalationOutcome) => void } {
  let answer: (o: EscalationOutcome) => void = () => {};
  const channel: EscalationChannel = { name: 'terminal', raise: () => new Promise((r) => (answer = r)) };
  return { channel, answer: (o) => answer(o) };
}

describe('an escalation its session leaves waiting', () => {
  it('attack: the process ended mid-wait and the audit log kept a request nothing decided — now settled at once, with the reason', async () => {
    const audit = new MemoryAudit();
    const held = heldChannel();
    const other = heldChannel();
    const pending = escalate({ escalation: approval, channel: held.channel, audit, ctx: { session: 's1' }, timeoutMs: 0 });
    void escalate({ escalation: approval, channel: other.channel, audit, ctx: { session: 's2' }, timeoutMs: 0 });
    await Promise.resolve();
    const ids = abandonInFlight('s1', 'the terminal of wisp chat was closed (SIGHUP) before an answer came');
    expect(ids).toHaveLength(1);
    // Written before abandonInFlight returned: an exiting process writes nothing later.
    const settled = audit.ofKind('escalation.settled');
    expect(settled.map((e) => [e.session, e.details.outcome, e.details.reason, e.details.escalationId])).toEqual([
      ['s1', 'abandoned', 'the terminal of wisp chat was closed (SIGHUP) before an answer came', ids[0]],
    ]);
    expect(audit.ofKind('approval.decided').map((e) => e.details.decision)).toEqual(['denied']);
    // The other session's request goes on waiting.
    expect(abandonInFlight('s1', 'again')).toEqual([]);

    // A yes that lands afterwards (a key pressed as the terminal closed) is not taken and writes nothing more.
    held.answer({ kind: 'approved', scope: 'always' });
    const r = await pending;
    expect(r.outcome).toEqual({ kind: 'declined', cause: 'cancelled', reason: 'the terminal of wisp chat was closed (SIGHUP) before an answer came' });
    expect(r.settled).toBe('abandoned');
    expect(audit.ofKind('escalation.settled')).toHaveLength(1);
    expect(audit.ofKind('approval.decided')).toHaveLength(1);
  });

  it('an escalation that was answered is gone from the list: ending its session afterwards settles nothing again', async () => {
    const audit = new MemoryAudit();
    const held = heldChannel();
    const pending = escalate({ escalation: approval, channel: held.channel, audit, ctx: { session: 's3' }, timeoutMs: 0 });
    await Promise.resolve();
    held.answer({ kind: 'approved', scope: 'once' });
    expect((await pending).outcome.kind).toBe('approved');
    expect(abandonInFlight('s3', 'ended')).toEqual([]);
    expect(audit.ofKind('escalation.settled').map((e) => e.details.outcome)).toEqual(['answered']);
  });
});
