// What a tool is, what it gets when it runs, and what a turn's receipt records.
import type { z } from 'zod';
import type { AuditContext, AuditSink } from '../audit/kinds.js';
import type { Config } from '../config/schema.js';
import type { EscalationChannel } from '../escalation/types.js';
import type { PendingEscalations } from '../escalation/pending.js';
import type { ApprovalRecord, Gate, PendingApproval } from '../gate/gate.js';
import type { ApprovalCache } from '../gate/session-approvals.js';
import type { WispPaths } from '../core/paths.js';

export interface CommandRecord {
  readonly command: string;
  readonly exitStatus: number | null;
  readonly timedOut: boolean;
  readonly truncated: boolean;
  readonly seconds: number;
}

export interface FileRecord {
  readonly path: string;
  readonly mode: 'write' | 'append' | 'replace';
  readonly created: boolean;
  readonly bytes: number;
}

export interface InquiryRecord {
  readonly question: string;
  readonly outcome: 'answered' | 'declined' | 'unanswered' | 'pending';
  readonly channel: string;
  readonly escalationId: string;
  readonly answeredBy?: string;
}

export interface Refusal {
  readonly command: string;
  readonly reason: string;
  readonly escalationId?: string;
}

/** A tool call that failed without a refusal: the tool and wisp's error text (which may quote a model's path). */
export interface ToolFailure {
  readonly tool: string;
  readonly error: string;
}

export interface PendingInquiryItem {
  readonly id: string;
  readonly verb: 'inquiry';
  readonly question: string;
  readonly expiresAt: string;
  readonly answer: string;
}

export interface PendingApprovalItem extends PendingApproval {
  readonly expiresAt: string;
  readonly answer: string;
}

export type PendingItem = PendingInquiryItem | PendingApprovalItem;

/** Everything one turn did, for `--json`, the MCP result and the chat transcript. */
export class TurnReceipt {
  readonly commands: CommandRecord[] = [];
  readonly files: FileRecord[] = [];
  readonly approvals: ApprovalRecord[] = [];
  readonly inquiries: InquiryRecord[] = [];
  readonly refusals: Refusal[] = [];
  readonly pending: PendingItem[] = [];
  readonly tools: Array<{ name: string; error?: string }> = [];
  /** Tool calls that failed for a reason other than a refusal (a find text not found, a missing file): the person
   *  is told, not only the model (ADR 0097). */
  readonly errors: ToolFailure[] = [];

  toJSON(): {
    commands: CommandRecord[];
    files: FileRecord[];
    approvals: ApprovalRecord[];
    inquiries: InquiryRecord[];
    refusals: Refusal[];
    tools: Array<{ name: string; error?: string }>;
    errors: ToolFailure[];
  } {
    return {
      commands: this.commands,
      files: this.files,
      approvals: this.approvals,
      inquiries: this.inquiries,
      refusals: this.refusals,
      tools: this.tools,
      errors: this.errors,
    };
  }
}

/** Things a tool tells the face while it works (gate lines, command output tails). */
export type ToolEvent =
  | { readonly type: 'gate'; readonly tool: string; readonly subject: string; readonly allowed: boolean; readonly notes: readonly string[]; readonly reason?: string }
  | { readonly type: 'output'; readonly tool: string; readonly subject: string; readonly text: string }
  | { readonly type: 'inquiry'; readonly question: string; readonly outcome: string }
  /** A tool call that failed for a reason other than a refusal (refusals come as `gate` events). */
  | { readonly type: 'failed'; readonly tool: string; readonly error: string };

/**
 * A command while it runs, for a face that shows it live (the chat's output box and spinner). Only for drawing:
 * it never reaches the model or the audit log (the result and `command.outcome` do). `text` is untrusted output.
 */
export type LiveEvent =
  | { readonly type: 'command-start'; readonly callId: string; readonly command: string }
  | { readonly type: 'command-output'; readonly callId: string; readonly stream: 'stdout' | 'stderr'; readonly text: string }
  | { readonly type: 'command-end'; readonly callId: string };

export interface ToolContext {
  readonly config: Config;
  readonly audit: AuditSink;
  readonly ctx: AuditContext;
  readonly gate: Gate;
  /** The session's channel, for `ask_operator`. */
  readonly channel: EscalationChannel;
  readonly pendingInquiries?: PendingEscalations;
  readonly paths: WispPaths;
  /** Where wisp was started: the sandbox's writable root and the default working directory. */
  readonly launchDir: string;
  readonly turnApprovals: ApprovalCache;
  readonly receipt: TurnReceipt;
  readonly toolCallId: string;
  readonly client?: string;
  readonly signal?: AbortSignal;
  readonly onEvent?: (event: ToolEvent) => void;
  readonly onProgress?: (message: string) => void;
  readonly onLive?: (event: LiveEvent) => void;
}

export interface ToolOutput {
  readonly content: string;
  readonly isError?: boolean;
}

export interface WispTool<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly description: string;
  readonly schema: S;
  /** Human-readable limits for the catalogue. */
  readonly limits: readonly string[];
  /** An example prompt that makes a model use the tool. */
  readonly example: string;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolOutput>;
}
