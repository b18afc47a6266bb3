// The escalation channel of `wisp mcp`: picks the legs for each escalation from what the connected client can do —
//   - the client renders elicitation and `escalation.outOfBand` is on → the dialog raced with the queue;
//   - the client renders elicitation, outOfBand off → the dialog alone;
//   - the client cannot render it → the queue alone (outOfBand on), else a refusal that says what to do —
// reports progress while a person is asked, and lists what is in flight (for `wisp://pending`).
import { visible } from '../core/visible.js';
import { RaceChannel } from '../escalation/race.js';
import type { ChannelName } from '../core/channels.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../escalation/types.js';
import { ElicitationChannel, type ElicitationOptions } from './elicitation.js';

export interface InFlight {
  readonly id: string;
  readonly verb: 'approval' | 'inquiry';
  readonly command?: string;
  readonly question?: string;
  readonly pattern?: string;
  readonly level?: string;
  readonly thread?: string;
  readonly legs: readonly string[];
  readonly startedAt: string;
  readonly expiresAt: string | null;
}

export interface McpChannelOptions extends ElicitationOptions {
  /** `escalation.outOfBand`: raise the queue too. */
  readonly outOfBand: boolean;
  /** How often a progress line is sent while a person is being asked. @default 10000 */
  readonly progressIntervalMs?: number;
  /** The connected client's name, for queue listings. */
  readonly clientName?: () => string | undefined;
  /** The queue leg, raced beside the dialog when outOfBand is on (and asked alone when the client has no dialog). */
  readonly queue?: EscalationChannel;
}

export class McpChannel implements EscalationChannel {
  readonly name = 'elicitation' as const;
  readonly dialog: ElicitationChannel;
  private readonly queue: EscalationChannel | undefined;
  private readonly inFlight = new Map<string, InFlight>();

  constructor(private readonly opts: McpChannelOptions) {
    this.dialog = new ElicitationChannel(opts);
    this.queue = opts.queue;
  }

  /** The queue alone when the client has no dialog (and the queue is on); otherwise the dialog (raced or not). */
  route(): ChannelName {
    return !this.dialog.available && this.opts.outOfBand && this.queue ? 'queue' : 'elicitation';
  }

  /** Escalations waiting for a person right now (for `wisp://pending`). */
  waiting(): InFlight[] {
    return [...this.inFlight.values()];
  }

  async raise(e: Escalation, ctx: RaiseContext): Promise<EscalationOutcome> {
    const dialog = this.dialog.available;
    const queue = this.opts.outOfBand ? this.queue : undefined;
    const client = this.opts.clientName?.() ?? ctx.client;
    const legCtx: RaiseContext & { queueId?: string } = {
      ...ctx,
      ...(client ? { client } : {}),
      ...(queue ? { queueId: ctx.escalationId } : {}),
    };
    let channel: EscalationChannel;
    if (dialog && queue) channel = new RaceChannel('elicitation', [this.dialog, queue]);
    else if (dialog) channel = this.dialog;
    else if (queue) channel = queue;
    else {
      return { kind: 'declined', reason: noDialogReason(e) };
    }

    const legs = dialog && queue ? ['elicitation', 'queue'] : [channel.name];
    const started = Date.now();
    this.inFlight.set(ctx.escalationId, {
      id: ctx.escalationId,
      verb: e.verb,
      ...(e.verb === 'approval'
        ? { command: e.request.command, pattern: e.request.pattern, level: e.request.level }
        : { question: e.request.question }),
      ...(ctx.thread !== undefined ? { thread: ctx.thread } : {}),
      legs,
      startedAt: new Date(started).toISOString(),
      expiresAt: ctx.timeoutMs > 0 ? new Date(started + ctx.timeoutMs).toISOString() : null,
    });
    const what = e.verb === 'approval' ? `approval of ${visible(e.request.command, { maxChars: 120 })}` : 'an answer to the model\'s question';
    const where = legs.includes('queue')
      ? legs.includes('elicitation')
        ? `in the dialog, or in a terminal with \`wisp ${e.verb === 'approval' ? 'approvals approve' : 'inquiries answer'} ${ctx.escalationId}\``
        : `in a terminal: \`wisp ${e.verb === 'approval' ? 'approvals approve' : 'inquiries answer'} ${ctx.escalationId}\``
      : 'in the dialog';
    const progress = ctx.onProgress;
    let timer: NodeJS.Timeout | undefined;
    if (progress) {
      progress(`waiting for ${what} (${ctx.escalationId}), answer ${where}`);
      timer = setInterval(() => {
        progress(`still waiting for ${what} (${ctx.escalationId}), ${Math.round((Date.now() - started) / 1000)}s so far`);
      }, this.opts.progressIntervalMs ?? 10_000);
      timer.unref?.();
    }
    try {
      const outcome = await channel.raise(e, legCtx);
      // The queue alone carried it (a client without a dialog): say so, as a race names its winning leg.
      return channel === queue && outcome.via === undefined ? { ...outcome, via: queue.name } : outcome;
    } finally {
      if (timer) clearInterval(timer);
      this.inFlight.delete(ctx.escalationId);
    }
  }
}

function noDialogReason(e: Escalation): string {
  if (e.verb === 'inquiry') {
    return 'this client does not support elicitation and escalation.outOfBand is off, so nobody can be asked; carry on and say what you assumed';
  }
  const r = e.request;
  return (
    `approval required (${r.level}: ${r.reasons.join('; ') || 'no reasons given'}) and this client does not support elicitation; ` +
    'turn escalation.outOfBand on to answer with `wisp approvals approve ID` in a terminal, start wisp mcp with --yes to ' +
    'approve once each, or lower approval.threshold in config.json'
  );
}
