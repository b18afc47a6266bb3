// Raise one escalation on several legs at once (elicitation + queue, terminal + queue): the first answer wins and
// the other legs are withdrawn through their abort signal. A leg that fails leaves the others asking.
import type { ChannelName, Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from './types.js';

export interface RaceContext extends RaiseContext {
  /** Told which leg's answer won, so the audit records the channel that actually answered. */
  readonly onWinner?: (leg: ChannelName) => void;
}

export class RaceChannel implements EscalationChannel {
  constructor(
    readonly name: ChannelName,
    private readonly legs: readonly EscalationChannel[],
  ) {
    if (legs.length === 0) throw new Error('a race needs at least one leg');
  }

  raise(e: Escalation, ctx: RaceContext): Promise<EscalationOutcome> {
    const controllers = this.legs.map(() => new AbortController());
    const onOuterAbort = () => controllers.forEach((c) => c.abort());
    ctx.signal?.addEventListener('abort', onOuterAbort, { once: true });

    return new Promise<EscalationOutcome>((resolve) => {
      let settled = false;
      const failures: string[] = [];
      const finish = (outcome: EscalationOutcome, winner?: number) => {
        if (settled) return;
        settled = true;
        ctx.signal?.removeEventListener('abort', onOuterAbort);
        controllers.forEach((c, i) => {
          if (i !== winner) c.abort();
        });
        if (winner !== undefined) ctx.onWinner?.(this.legs[winner]!.name);
        resolve(outcome);
      };
      this.legs.forEach((leg, i) => {
        const legCtx: RaiseContext = { ...ctx, signal: controllers[i]!.signal };
        leg.raise(e, legCtx).then(
          (outcome) => {
            // A leg that was withdrawn reports whatever it reports; only the first real answer counts.
            if (controllers[i]!.signal.aborted && !ctx.signal?.aborted) return;
            finish(outcome, i);
          },
          (err: unknown) => {
            failures.push(`${leg.name}: ${err instanceof Error ? err.message : String(err)}`);
            if (failures.length === this.legs.length) {
              const what = e.verb === 'approval' ? 'approval' : 'inquiry';
              finish({ kind: 'declined', reason: `${what} request failed: ${failures.join('; ')}` });
            }
          },
        );
      });
    });
  }
}
