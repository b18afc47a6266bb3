// Pending inquiries of the result channel (design.md §2): filed per thread, redeemed once, by the same thread,
// before they expire. Approvals are never filed here — the calling agent must not be able to approve.
import type { InquiryRequest } from './types.js';
import { INQUIRY_ANSWER_MAX_BYTES } from './types.js';

export interface PendingInquiry {
  readonly id: string;
  readonly verb: 'inquiry';
  readonly question: string;
  readonly schema?: Record<string, unknown>;
  readonly thread: string;
  /** The tool call that is waiting for this answer (so the answer is replayed as its output). */
  readonly toolCallId?: string;
  readonly createdAt: number;
  readonly expiresAt: number;
}

export type RedeemResult =
  | { readonly ok: true; readonly entry: PendingInquiry; readonly text: string }
  | { readonly ok: false; readonly reason: string; readonly code: 'unknown' | 'used' | 'other-thread' | 'expired' | 'approval' | 'too-long' | 'unfitting' };

/** Why an answer text does not fit a schema, or undefined (src/escalation/answer-schema.ts `answerProblem`). */
export type FitCheck = (schema: Record<string, unknown>, text: string) => string | undefined;

/** Per session (shared by its threads); ids are global so a wrong-thread redeem can be told apart from unknown. */
export class PendingEscalations {
  private readonly open = new Map<string, PendingInquiry>();
  private readonly used = new Set<string>();
  private readonly approvalIds = new Set<string>();

  constructor(
    private readonly pendingMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  file(id: string, request: InquiryRequest, thread: string, toolCallId?: string): PendingInquiry {
    const createdAt = this.now();
    const entry: PendingInquiry = {
      id,
      verb: 'inquiry',
      question: request.question,
      ...(request.schema ? { schema: request.schema } : {}),
      thread,
      ...(toolCallId ? { toolCallId } : {}),
      createdAt,
      expiresAt: createdAt + this.pendingMs,
    };
    this.open.set(id, entry);
    return entry;
  }

  /** Remember an approval id handed out in a result, so an `answers` entry naming it is told apart and refused. */
  noteApprovalId(id: string): void {
    this.approvalIds.add(id);
  }

  /** Attach the waiting tool call id once the tool loop knows it. */
  attachToolCall(id: string, toolCallId: string): void {
    const entry = this.open.get(id);
    if (entry) this.open.set(id, { ...entry, toolCallId });
  }

  list(thread?: string): PendingInquiry[] {
    return [...this.open.values()].filter((e) => thread === undefined || e.thread === thread);
  }

  /** Pending ids whose time ran out; removed, so the caller audits each as timed out exactly once. */
  expire(): PendingInquiry[] {
    const now = this.now();
    const gone: PendingInquiry[] = [];
    for (const entry of this.open.values()) {
      if (entry.expiresAt <= now) {
        gone.push(entry);
        this.open.delete(entry.id);
        this.used.add(entry.id);
      }
    }
    return gone;
  }

  /**
   * Takes an answer once. One that does not fit the question's schema is refused and the id stays open, so the
   * caller can send one that does (ADR 0097); without `fits`, a question with a schema cannot be answered.
   */
  redeem(id: string, thread: string, text: string, fits?: FitCheck): RedeemResult {
    if (this.approvalIds.has(id)) {
      return {
        ok: false,
        code: 'approval',
        reason: `${id} is an approval; approvals are answered by the person with \`wisp approvals approve ${id}\`, never through answers`,
      };
    }
    const entry = this.open.get(id);
    if (!entry) {
      if (this.used.has(id)) return { ok: false, code: 'used', reason: `${id} was already answered or has expired` };
      return { ok: false, code: 'unknown', reason: `${id} is not a pending inquiry` };
    }
    if (entry.thread !== thread) {
      return { ok: false, code: 'other-thread', reason: `${id} belongs to another thread` };
    }
    if (entry.expiresAt <= this.now()) {
      this.open.delete(id);
      this.used.add(id);
      return { ok: false, code: 'expired', reason: `${id} expired before it was answered` };
    }
    if (Buffer.byteLength(text, 'utf8') > INQUIRY_ANSWER_MAX_BYTES) {
      return { ok: false, code: 'too-long', reason: `the answer to ${id} is longer than ${INQUIRY_ANSWER_MAX_BYTES} bytes` };
    }
    if (text.trim() === '') return { ok: false, code: 'unfitting', reason: `the answer to ${id} is empty; it is still pending` };
    if (entry.schema !== undefined) {
      const problem = fits ? fits(entry.schema, text) : "the answer could not be checked against the question's schema";
      if (problem !== undefined) return { ok: false, code: 'unfitting', reason: `the answer to ${id} was refused: ${problem}; it is still pending` };
    }
    this.open.delete(id);
    this.used.add(id);
    return { ok: true, entry, text };
  }

  /** `close_thread`: the thread's ids are dropped and can never be redeemed. */
  dropThread(thread: string): PendingInquiry[] {
    const dropped = this.list(thread);
    for (const entry of dropped) {
      this.open.delete(entry.id);
      this.used.add(entry.id);
    }
    return dropped;
  }
}
