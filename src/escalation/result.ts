// The result channel (design.md §2, ADR 0006): inquiries come back to the caller as pending ids, redeemed on the
// same thread; approvals are NEVER redeemable by the caller — they go to the queue in deferred mode and a person
// answers with `wisp approvals approve ID`; the next run of the same command on the thread then finds the answer.
import type { PendingEscalations } from './pending.js';
import type { ApprovalRequest, Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from './types.js';
import type { ChannelName } from '../core/channels.js';

/** The queue in deferred mode, as the result channel needs it. */
export interface DeferredQueue {
  /** Files the request and returns at once. */
  file(e: Escalation, ctx: RaiseContext): Promise<{ id: string; expiresAt: number }>;
  /** The person's answer when there is one (binding checked by the queue), else undefined. */
  poll(id: string): EscalationOutcome | undefined;
  /** Removes the request (and any answer) files. */
  withdraw(id: string): void;
}

interface DeferredApproval {
  readonly id: string;
  readonly thread: string;
  readonly directory: string;
  /** The part asked about, and the whole line it belongs to: an answer applies only to this part of this line. */
  readonly command: string;
  readonly line: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export class ResultChannel implements EscalationChannel {
  readonly name = 'result' as const;
  private readonly deferred = new Map<string, DeferredApproval>();

  constructor(
    private readonly pending: PendingEscalations,
    private readonly queue: DeferredQueue,
    private readonly now: () => number = Date.now,
  ) {}

  async raise(e: Escalation, ctx: RaiseContext): Promise<EscalationOutcome> {
    const thread = ctx.thread ?? e.request.thread ?? '';
    if (e.verb === 'inquiry') {
      const entry = this.pending.file(ctx.escalationId, e.request, thread);
      return { kind: 'pending', id: ctx.escalationId, expiresAt: entry.expiresAt };
    }
    const existing = this.find(thread, e.request);
    if (existing) {
      if (existing.expiresAt <= this.now()) {
        this.forget(existing.id);
        return { kind: 'unanswered', waitedMs: this.now() - existing.createdAt };
      }
      const answer = this.queue.poll(existing.id);
      if (answer) {
        this.forget(existing.id);
        return answer;
      }
      return { kind: 'pending', id: existing.id, expiresAt: existing.expiresAt };
    }
    const filed = await this.queue.file(e, ctx);
    this.deferred.set(filed.id, {
      id: filed.id,
      thread,
      directory: e.request.directory,
      command: e.request.command,
      line: e.request.line,
      createdAt: this.now(),
      expiresAt: filed.expiresAt,
    });
    this.pending.noteApprovalId(filed.id);
    return { kind: 'pending', id: filed.id, expiresAt: filed.expiresAt };
  }

  /** Inquiries come back in the result; approvals are filed in the queue, where a person answers them. */
  route(e: Escalation): ChannelName {
    return e.verb === 'approval' ? 'queue' : 'result';
  }

  /** A deferred approval asked again on its thread is the same escalation, under the id it was filed with. */
  resumes(e: Escalation, thread: string | undefined): string | undefined {
    if (e.verb !== 'approval') return undefined;
    return this.find(thread ?? e.request.thread ?? '', e.request)?.id;
  }

  /** Deferred approvals of a thread (for `wisp://pending` and close_thread). */
  approvals(thread?: string): DeferredApproval[] {
    return [...this.deferred.values()].filter((d) => thread === undefined || d.thread === thread);
  }

  /** Withdraws every deferred approval of a thread (close_thread, eviction). */
  dropThread(thread: string): string[] {
    const ids = this.approvals(thread).map((d) => d.id);
    ids.forEach((id) => this.forget(id));
    return ids;
  }

  /** Withdraws everything (server shutdown). */
  dropAll(): void {
    [...this.deferred.keys()].forEach((id) => this.forget(id));
  }

  /**
   * The deferred approval this request is the same question as: same thread, same directory, same part, same whole
   * line. The person approved a part as it stood in one line; the same text inside another line (`rm build/a` in
   * `rm build/a; rm build/keep`) is a different question and is filed anew.
   */
  private find(thread: string, request: ApprovalRequest): DeferredApproval | undefined {
    for (const d of this.deferred.values()) {
      if (d.thread === thread && d.directory === request.directory && d.command === request.command && d.line === request.line) {
        return d;
      }
    }
    return undefined;
  }

  private forget(id: string): void {
    this.deferred.delete(id);
    this.queue.withdraw(id);
  }
}
