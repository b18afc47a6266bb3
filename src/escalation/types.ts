// The escalation contract (design.md §2): two verbs, one outcome union, channels that carry them.
import type { ChannelName } from '../core/channels.js';
import type { Level } from '../core/levels.js';
import type { Scope } from '../core/scopes.js';

export interface ApprovalRequest {
  /** The part of the line that needs approval (exactly the string that will run). */
  readonly command: string;
  /** The whole line the part belongs to. */
  readonly line: string;
  readonly pattern: string;
  readonly directory: string;
  readonly level: Level;
  readonly reasons: readonly string[];
  readonly thread?: string;
  /** Authored headline from the operator's config rule; never model text. */
  readonly ask?: string;
}

export interface InquiryRequest {
  readonly question: string;
  /** JSON Schema the answer should match (from `ask_operator`), if any. */
  readonly schema?: Record<string, unknown>;
  readonly thread?: string;
}

export type Escalation =
  | { readonly verb: 'approval'; readonly request: ApprovalRequest }
  | { readonly verb: 'inquiry'; readonly request: InquiryRequest };

export type EscalationOutcome = (
  | { readonly kind: 'approved'; readonly scope: Scope }
  | { readonly kind: 'answered'; readonly text: string; readonly answeredBy?: 'human' | 'agent' }
  | { readonly kind: 'declined'; readonly reason: string }
  | { readonly kind: 'unanswered'; readonly waitedMs: number }
  /** Waits on beyond this call; `expiresAt` (ms) is when the channel stops holding it, as its own record says. */
  | { readonly kind: 'pending'; readonly id: string; readonly expiresAt?: number }
) & {
  /**
   * The channel that carried this outcome, when it is not the one the escalation was routed to: a race names its
   * winning leg here. Audit events of the settlement name this channel.
   */
  readonly via?: ChannelName;
};

/** What a channel gets besides the escalation: who is asking, how long to wait, how to give up. */
export interface RaiseContext {
  /** Audit session of the asker. */
  readonly session: string;
  readonly thread?: string;
  /** Client name for out-of-band listings (`claude-code`, `chat`, `respond`). */
  readonly client?: string;
  /** Bounded wait in ms; 0 = no bound. */
  readonly timeoutMs: number;
  /** Aborted when the caller gives up (MCP cancel, disconnect, quit). */
  readonly signal?: AbortSignal;
  /** Id to use for this escalation (assigned by the gate so every leg and audit event shares it). */
  readonly escalationId: string;
  /** Progress callback while waiting (MCP progress notifications). */
  readonly onProgress?: (message: string) => void;
}

export interface EscalationChannel {
  readonly name: ChannelName;
  raise(escalation: Escalation, ctx: RaiseContext): Promise<EscalationOutcome>;
  /**
   * The channel this escalation will actually travel, when it is not `name`: the result channel's approvals go to
   * the queue, an MCP client without elicitation gets only the queue. Audit events name this one.
   */
  route?(escalation: Escalation): ChannelName;
  /**
   * The id of an escalation this channel already holds for the same question (a deferred approval asked again on
   * its thread). The asker continues that escalation under its id instead of requesting a new one.
   */
  resumes?(escalation: Escalation, thread: string | undefined): string | undefined;
}

export const INQUIRY_ANSWER_MAX_BYTES = 4096;
