// A channel for gate tests: answers with a scripted outcome and records what it was asked.
import type { ChannelName } from '../../src/core/channels.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../../src/escalation/types.js';

export class CountingChannel implements EscalationChannel {
  readonly asked: Escalation[] = [];
  readonly contexts: RaiseContext[] = [];
  constructor(
    private answer: EscalationOutcome | ((e: Escalation) => EscalationOutcome) = { kind: 'approved', scope: 'session' },
    readonly name: ChannelName = 'terminal',
  ) {}
  set(answer: EscalationOutcome | ((e: Escalation) => EscalationOutcome)): void {
    this.answer = answer;
  }
  async raise(e: Escalation, ctx: RaiseContext): Promise<EscalationOutcome> {
    this.asked.push(e);
    this.contexts.push(ctx);
    return typeof this.answer === 'function' ? this.answer(e) : this.answer;
  }
}
