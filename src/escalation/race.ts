// Raise one escalation on several legs at once (elicitation + queue): the first answer wins and the other legs are
// withdrawn through their abort signal. A leg that fails leaves the others asking; when every leg has failed the
// race fails (rejects), so the asker settles it as a failed request, not as somebody's no.
import type { ChannelName } from '../core/channels.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from './types.js';

export class RaceChannel implements EscalationChannel {
  constructor(
    readonly name: ChannelName,
    private readonly legs: readonly EscalationChannel[],
  ) {
    if (legs.length === 0) throw new Error('a race needs at least one leg');
  }

  raise(e: Escalation, ctx: RaiseContext): Promise<EscalationOutcome> {
    const controllers = this.legs.map(() => new AbortController());
    const onOuterAbort = () => controllers.forEach((c) => c.abort());
    ctx.signal?.addEventListener('abort', onOuterAbort, { once: true });

    return new Promise<EscalationOutcome>((resolve, reject) => {
      let settled = false;
      const failures: string[] = [];
      const withdrawOthers = (winner?: number) => {
        settled = true;
        ctx.signal?.removeEventListener('abort', onOuterAbort);
        controllers.forEach((c, i) => {
          if (i !== winner) c.abort();
        });
      };
      this.legs.forEach((leg, i) => {
        const legCtx: RaiseContext = { ...ctx, signal: controllers[i]!.signal };
        leg.raise(e, legCtx).then(
          (outcome) => {
            // A leg that was withdrawn reports whatever it reports; only the first real answer counts.
            if (settled || (controllers[i]!.signal.aborted && !ctx.signal?.aborted)) return;
            withdrawOthers(i);
            // The outcome names the leg that carried it (a leg that is itself a race has named its own winner);
            // when the caller withdrew, every leg reports the withdrawal and none of them carried an answer.
            resolve(ctx.signal?.aborted ? outcome : { ...outcome, via: outcome.via ?? leg.name });
          },
          (err: unknown) => {
            failures.push(`${leg.name}: ${err instanceof Error ? err.message : String(err)}`);
            if (!settled && failures.length === this.legs.length) {
              withdrawOthers();
              reject(new Error(failures.join('; ')));
            }
          },
        );
      });
    });
  }
}
