// The terminal channel (design.md §2, `terminal` row): an escalation becomes a dialog in the chat. It only queues
// the request in the DialogStore and waits; the App draws it and answers by id. The store's deadline bounds the
// wait, the caller's signal withdraws it, and whatever happens the promise settles with an outcome.
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../src/escalation/types.js';
import type { DialogResult, DialogStore } from './dialog-store.js';

/** The reason a refusal from the dialog carries to the model and the audit log. */
export const DECLINED_IN_CHAT = 'declined by the person (wisp chat)';

export class TerminalChannel implements EscalationChannel {
  readonly name = 'terminal' as const;

  constructor(private readonly store: DialogStore) {}

  async raise(e: Escalation, ctx: RaiseContext): Promise<EscalationOutcome> {
    const result = await this.store.open(e, {
      id: ctx.escalationId,
      timeoutMs: ctx.timeoutMs,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    return toOutcome(e, result);
  }
}

/** A dialog's ending as the escalation contract's outcome. */
export function toOutcome(e: Escalation, result: DialogResult): EscalationOutcome {
  switch (result.kind) {
    case 'approved':
      // An approval key on an inquiry cannot happen; refuse rather than guess.
      return e.verb === 'approval' ? result : { kind: 'declined', reason: 'the dialog answered a question with an approval' };
    case 'answered':
      return e.verb === 'inquiry'
        ? { kind: 'answered', text: result.text, answeredBy: 'human' }
        : { kind: 'declined', reason: 'the dialog answered an approval with text' };
    case 'declined':
      return { kind: 'declined', reason: result.reason };
    case 'unanswered':
      return { kind: 'unanswered', waitedMs: result.waitedMs };
    case 'closed':
      return { kind: 'declined', reason: `the request was ${result.reason === 'withdrawn' ? 'withdrawn' : `closed: ${result.reason}`}` };
  }
}
