// One path for an escalation, both verbs (issue 18, ADR 0058): request it, raise it on the channel, settle it, and
// audit each step under one id and the channel it actually travelled. The gate (approvals), `ask_operator`
// (inquiries) and the conversation (pending inquiries redeemed or expired) go through here; nothing else writes
// `*.requested`, `*.decided` or a final `escalation.settled`. (The queue audits what only it sees: a filed request,
// a taken answer, an answer it refused, a stale request; src/escalation/queue/asker.ts.)
import type { AuditContext, AuditSink } from '../audit/kinds.js';
import { shortId } from '../core/ids.js';
import { INQUIRY_ANSWER_MAX_BYTES, type Escalation, type EscalationChannel, type EscalationOutcome, type RaiseContext } from './types.js';
import type { ChannelName } from '../core/channels.js';
import type { Scope } from '../core/scopes.js';

/** How an escalation ended, as `escalation.settled` records it (`stale` is the queue's own). */
export type Settlement = 'answered' | 'timed-out' | 'abandoned' | 'refused';

/**
 * Why an escalation came back without a yes or an answer — decided by what happened, never read from a reason:
 * - `refused`: someone said no — a person, or a channel with nobody behind it (`deny`, `auto` for an inquiry);
 * - `timed-out`: nobody answered within the bound;
 * - `cancelled`: the asker withdrew (Ctrl-C, a cancelled call, a closed thread);
 * - `failed`: the request itself failed (a channel threw, every leg of a race failed, a channel answered the wrong verb).
 */
export type DeclineCause = 'refused' | 'timed-out' | 'cancelled' | 'failed';

/** What an approval was kept as, decided by the gate (downgrades, the store); recorded in `approval.decided`. */
export interface KeptApproval {
  readonly scope: Scope;
  readonly downgradedFrom?: Scope;
  readonly approvalID?: string;
  readonly expiresAt?: string;
  readonly persistError?: string;
}

export type Resolution =
  | ({ readonly kind: 'approved' } & KeptApproval)
  | { readonly kind: 'answered'; readonly text: string; readonly answeredBy?: 'human' | 'agent' }
  | { readonly kind: 'declined'; readonly cause: DeclineCause; readonly reason: string; readonly waitedMs?: number }
  /** Still open beyond this call (the result channel); `id` is the escalation's, `expiresAt` (ms) the channel's. */
  | { readonly kind: 'pending'; readonly id: string; readonly expiresAt?: number; readonly reason: string };

export interface Escalated {
  /** The id the escalation was requested under (a resumed one keeps its first id). */
  readonly escalationId: string;
  readonly outcome: Resolution;
  /** The channel that carried the answer: the race's winning leg, else the route the request was audited with. */
  readonly via: ChannelName;
  /** How it was settled; undefined while pending. */
  readonly settled?: Settlement;
}

export interface EscalateRequest {
  readonly escalation: Escalation;
  readonly channel: EscalationChannel;
  readonly audit: AuditSink;
  /** The asker's audit context (session, thread, turn). */
  readonly ctx: AuditContext;
  /** Bounded wait in ms; 0 = no bound. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  readonly client?: string;
  readonly onProgress?: (message: string) => void;
  /** Approvals: what a yes is kept as (the gate's downgrades and store). Without it, the scope as answered. */
  readonly keep?: (scope: Scope) => KeptApproval;
}

/** An escalation between its request and its settlement, so the end of its session can settle it (ADR 0102). */
interface InFlight {
  readonly session: string;
  /** Settles it now as abandoned, once (its id; undefined when it already was); its channel's later answer is not taken. */
  abandon(reason: string): string | undefined;
}
const inFlight = new Set<InFlight>();

/**
 * Settles, synchronously, every escalation of `session` still waiting for an answer: `*.decided` (denied or declined)
 * and `escalation.settled` `abandoned` with `reason`, written now — a process that is ending (a closed terminal,
 * SIGTERM, Ctrl+C in `wisp respond`) would otherwise leave a request in the audit log that nothing ever decided.
 * Whatever its channel answers later is not taken: the escalation comes back declined. Returns their ids.
 */
export function abandonInFlight(session: string, reason: string): string[] {
  return [...inFlight].flatMap((f) => (f.session === session ? (f.abandon(reason) ?? []) : []));
}

/** Raises one escalation and settles it. Throws only when the audit log cannot be written (the caller fails closed). */
export async function escalate(req: EscalateRequest): Promise<Escalated> {
  const { escalation: e, channel, audit, ctx } = req;
  const thread = ctx.thread ?? e.request.thread;
  // A deferred approval asked again on its thread goes on under the id it was requested with (ADR 0044).
  const resumed = channel.resumes?.(e, thread);
  const escalationId = resumed ?? shortId();
  const route = channel.route?.(e) ?? channel.name;
  if (resumed === undefined) audit.write(`${e.verb}.requested`, { ...requestFields(e), channel: route, escalationId }, ctx);

  const raiseCtx: RaiseContext = {
    session: ctx.session,
    ...(thread !== undefined ? { thread } : {}),
    ...(req.client !== undefined ? { client: req.client } : {}),
    timeoutMs: req.timeoutMs,
    ...(req.signal ? { signal: req.signal } : {}),
    ...(req.onProgress ? { onProgress: req.onProgress } : {}),
    escalationId,
  };
  let raised: EscalationOutcome;
  let threw: string | undefined;
  let abandoned: string | undefined;
  const entry: InFlight = {
    session: ctx.session,
    abandon(reason) {
      if (abandoned !== undefined) return undefined;
      abandoned = reason;
      try {
        settler(audit, ctx, e, escalationId, route).declined('cancelled', reason, 'abandoned');
      } catch {
        /* the audit failure is reported where the write path broke; the escalation stays refused */
      }
      return escalationId;
    },
  };
  inFlight.add(entry);
  try {
    raised = await channel.raise(e, raiseCtx);
  } catch (err) {
    threw = err instanceof Error ? err.message : String(err);
    raised = { kind: 'declined', reason: `${e.verb} request failed: ${threw}` };
  } finally {
    inFlight.delete(entry);
  }
  if (abandoned !== undefined) return { escalationId, outcome: { kind: 'declined', cause: 'cancelled', reason: abandoned }, via: route, settled: 'abandoned' };
  const via = raised.via ?? route;
  const settle = settler(audit, ctx, e, escalationId, via);
  const noOperator = via === 'deny' || via === 'auto';

  switch (raised.kind) {
    case 'approved': {
      if (e.verb !== 'approval') return settle.declined('failed', 'the channel answered a question with an approval', 'refused');
      let kept: KeptApproval;
      try {
        kept = req.keep ? req.keep(raised.scope) : { scope: raised.scope };
      } catch (err) {
        return settle.declined('failed', `the approval could not be kept: ${err instanceof Error ? err.message : String(err)}`, 'refused');
      }
      return settle.approved(kept);
    }
    case 'answered': {
      if (e.verb !== 'inquiry') return settle.declined('failed', 'the channel answered an approval with text; refused', 'refused');
      return settle.answered(capAnswer(raised.text), raised.answeredBy);
    }
    case 'declined': {
      // Only a no is an answer: a withdrawn question is abandoned; a failed request or no operator is a refusal.
      if (req.signal?.aborted === true) return settle.declined('cancelled', raised.reason, 'abandoned');
      if (threw !== undefined) return settle.declined('failed', raised.reason, 'refused');
      return settle.declined('refused', raised.reason, noOperator ? 'refused' : 'answered');
    }
    case 'unanswered':
      return settle.timedOut(raised.waitedMs);
    case 'pending':
      return settle.pending(raised.id, raised.expiresAt);
  }
}

/** The fields of `*.requested` that say what is asked. */
function requestFields(e: Escalation): Record<string, unknown> {
  if (e.verb === 'inquiry') {
    const r = e.request;
    return { question: r.question, ...(r.schema ? { schema: r.schema } : {}) };
  }
  const r = e.request;
  return {
    command: r.command,
    pattern: r.pattern,
    line: r.line,
    directory: r.directory,
    level: r.level,
    reasons: r.reasons,
    ...(r.ask ? { ask: r.ask } : {}),
  };
}

/** Writes `*.decided` and `escalation.settled` for one escalation, and says what was written. */
function settler(audit: AuditSink, ctx: AuditContext, e: Escalation, escalationId: string, via: ChannelName) {
  const decided = (details: Record<string, unknown>) => {
    const base = e.verb === 'approval' ? { command: e.request.command, pattern: e.request.pattern } : {};
    audit.write(`${e.verb}.decided`, { ...base, channel: via, escalationId, ...details }, ctx);
  };
  const settled = (outcome: Settlement, reason?: string) =>
    audit.write('escalation.settled', { channel: via, escalationId, verb: e.verb, outcome, ...(reason !== undefined ? { reason } : {}) }, ctx);
  const done = (outcome: Resolution, how?: Settlement): Escalated => ({ escalationId, outcome, via, ...(how ? { settled: how } : {}) });
  return {
    approved(kept: KeptApproval): Escalated {
      decided({
        decision: 'approved',
        scope: kept.scope,
        ...(kept.downgradedFrom ? { downgradedFrom: kept.downgradedFrom } : {}),
        ...(kept.approvalID ? { approvalID: kept.approvalID, expiresAt: kept.expiresAt } : {}),
        ...(kept.persistError ? { persistError: kept.persistError } : {}),
      });
      settled('answered');
      return done({ kind: 'approved', ...kept }, 'answered');
    },
    answered(text: string, answeredBy?: 'human' | 'agent'): Escalated {
      decided({ decision: 'answered', answer: text, ...(answeredBy ? { answeredBy } : {}) });
      settled('answered');
      return done({ kind: 'answered', text, ...(answeredBy ? { answeredBy } : {}) }, 'answered');
    },
    declined(cause: Exclude<DeclineCause, 'timed-out'>, reason: string, how: Settlement): Escalated {
      decided({ decision: e.verb === 'approval' ? 'denied' : 'declined', reason });
      settled(how, reason);
      return done({ kind: 'declined', cause, reason }, how);
    },
    timedOut(waitedMs: number): Escalated {
      const seconds = Math.round(waitedMs / 1000);
      const reason = `no answer within ${seconds}s; an unanswered ${e.verb} counts as declined`;
      decided({ decision: 'timed-out', ...(e.verb === 'approval' ? { reason } : {}), waitedMs });
      settled('timed-out');
      return done({ kind: 'declined', cause: 'timed-out', reason, waitedMs }, 'timed-out');
    },
    pending(id: string, expiresAt?: number): Escalated {
      const reason =
        e.verb === 'approval'
          ? `pending approval ${id}: a person must answer with \`wisp approvals approve ${id}\` ` +
            `(or \`wisp approvals deny ${id}\`) in a terminal; then ask again on this thread`
          : `pending inquiry ${id}: answered on the next turn of this thread`;
      audit.write(
        `${e.verb}.decided`,
        {
          ...(e.verb === 'approval' ? { command: e.request.command, pattern: e.request.pattern } : {}),
          channel: via,
          escalationId: id,
          decision: 'pending',
          ...(e.verb === 'approval' ? { reason } : {}),
        },
        ctx,
      );
      return { escalationId: id, outcome: { kind: 'pending', id, ...(expiresAt !== undefined ? { expiresAt } : {}), reason }, via };
    },
  };
}

/** An escalation that was left open (pending) and ends later: how, and under which id, verb and channel. */
export interface LaterSettlement {
  readonly escalationId: string;
  readonly verb: Escalation['verb'];
  readonly channel: ChannelName;
}

/** A pending escalation whose time ran out (a result-channel inquiry nobody redeemed in time). */
export function settleExpired(audit: AuditSink, ctx: AuditContext, s: LaterSettlement & { thread?: string }): void {
  const details = { channel: s.channel, escalationId: s.escalationId, ...(s.thread !== undefined ? { thread: s.thread } : {}) };
  audit.write(`${s.verb}.decided`, { ...details, decision: 'timed-out' }, ctx);
  audit.write('escalation.settled', { ...details, verb: s.verb, outcome: 'timed-out' }, ctx);
}

/** A pending escalation dropped with its thread (close_thread, eviction, shutdown). */
export function settleAbandoned(audit: AuditSink, ctx: AuditContext, s: LaterSettlement, reason: string): void {
  audit.write('escalation.settled', { channel: s.channel, escalationId: s.escalationId, verb: s.verb, outcome: 'abandoned', reason }, ctx);
}

/** A pending inquiry answered by the caller (`respond.answers`): the answer is the one the person gave. */
export function settleRedeemed(
  audit: AuditSink,
  ctx: AuditContext,
  s: LaterSettlement,
  answer: { text: string; answeredBy?: 'human' | 'agent'; via: string },
): void {
  const details = { channel: s.channel, escalationId: s.escalationId };
  const by = answer.answeredBy ? { answeredBy: answer.answeredBy } : {};
  audit.write('escalation.answered', { ...details, verb: s.verb, via: answer.via, ...by }, ctx);
  audit.write(`${s.verb}.decided`, { ...details, decision: 'answered', answer: answer.text, ...by }, ctx);
  audit.write('escalation.settled', { ...details, verb: s.verb, outcome: 'answered' }, ctx);
}

/**
 * An answer that did not fit what it names (unknown, other thread, an approval id, expired): recorded against the
 * id with `via`, and — unless it expired — without ending the escalation, which stays open for its own channel.
 */
export function refuseAnswer(
  audit: AuditSink,
  ctx: AuditContext,
  s: LaterSettlement,
  refusal: { reason: string; expired: boolean; via: string },
): void {
  audit.write(
    'escalation.settled',
    {
      channel: s.channel,
      escalationId: s.escalationId,
      verb: s.verb,
      outcome: refusal.expired ? 'timed-out' : 'refused',
      reason: refusal.reason,
      ...(refusal.expired ? {} : { via: refusal.via }),
    },
    ctx,
  );
}

/** Answers are capped at 4 KiB on a character boundary, and say so when cut. */
export function capAnswer(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= INQUIRY_ANSWER_MAX_BYTES) return text;
  const marker = ' …[answer cut at 4 KiB]';
  let cut = Buffer.from(text, 'utf8').subarray(0, INQUIRY_ANSWER_MAX_BYTES - Buffer.byteLength(marker)).toString('utf8');
  cut = cut.replace(/\uFFFD$/, '');
  return cut + marker;
}
