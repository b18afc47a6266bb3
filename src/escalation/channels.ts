// The two channels that never reach a person: `auto` (--yes) and `deny` (the default of `wisp respond`).
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from './types.js';

/** `--yes`: approves once, never more; declines inquiries because --yes accepts risk, it does not invent answers. */
export class AutoChannel implements EscalationChannel {
  readonly name = 'auto' as const;
  async raise(e: Escalation, _ctx?: RaiseContext): Promise<EscalationOutcome> {
    if (e.verb === 'approval') return { kind: 'approved', scope: 'once' };
    return { kind: 'declined', reason: 'no operator (auto)' };
  }
}

export const DENY_APPROVAL_REASON =
  'approval required; re-run with --yes to approve once, use `wisp chat` to be asked, ' +
  'or `--escalation queue` to answer with `wisp approvals approve ID` from another terminal';

/** Nobody to ask: refuse, and say how to be asked next time. */
export class DenyChannel implements EscalationChannel {
  readonly name = 'deny' as const;
  constructor(private readonly approvalReason: string = DENY_APPROVAL_REASON) {}
  async raise(e: Escalation, _ctx?: RaiseContext): Promise<EscalationOutcome> {
    if (e.verb === 'approval') return { kind: 'declined', reason: this.approvalReason };
    return {
      kind: 'declined',
      reason: 'no operator to ask (escalation channel deny); carry on with your best judgement and say what you assumed',
    };
  }
}
