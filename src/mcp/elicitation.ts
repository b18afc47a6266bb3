// The MCP dialog leg of an escalation: one `elicitation/create` form per approval or inquiry, tied to the call (or
// task) that is asking, bounded by the escalation's wait, withdrawn with the caller's signal. Its words are in
// dialog-wording.ts and inquiry-form.ts; which legs a `wisp mcp` escalation races is mcp-channel.ts.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type ElicitRequestFormParams, type ElicitResult, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { AuditSink } from '../audit/kinds.js';
import { SCOPES, type Scope } from '../core/scopes.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../escalation/types.js';
import { approvalMessage, scopeSchema } from './dialog-wording.js';
import { inquiryForm, type InquiryForm } from './inquiry-form.js';

/** setTimeout's ceiling (~24.8 days): "no timeout" must never fall back to the SDK's 60 s default. */
export const NO_TIMEOUT_MS = 2_147_483_647;

export const DECLINED_BY_USER = 'declined by the user';
export const CANCELLED_BY_USER = 'cancelled by the user';
export const CALL_CANCELLED = 'the call was cancelled while waiting for an answer';

/** What the dialog needs of the MCP server (the SDK's low-level `Server` fits). */
export type ElicitingServer = Pick<Server, 'elicitInput' | 'getClientCapabilities'>;

export interface ElicitationOptions {
  readonly server: ElicitingServer;
  /** `approval.persistDays`, for the scope titles. */
  readonly persistDays: number;
  /** Audit sink for `escalation.answered` (the session's). */
  readonly audit?: AuditSink;
  /** The id of the tools/call being served, so the dialog is tied to it (relatedRequestId). */
  readonly currentRequestId?: () => RequestId | undefined;
  /**
   * The MCP task whose turn is asking, if any: its dialog is then related to the task and waits in the task's
   * queue until the client calls tasks/result (spec 2025-11-25, tasks).
   */
  readonly currentTask?: () => string | undefined;
}

export class ElicitationChannel implements EscalationChannel {
  readonly name = 'elicitation' as const;

  constructor(private readonly opts: ElicitationOptions) {}

  /** Did the connected client advertise form elicitation? (`elicitation: {}` counts as form.) */
  get available(): boolean {
    const caps = this.opts.server.getClientCapabilities()?.elicitation as { form?: object; url?: object } | undefined;
    if (!caps) return false;
    // `elicitation: {}` means form; a client that lists only `url` cannot show wisp's forms.
    return caps.form !== undefined || caps.url === undefined;
  }

  async raise(e: Escalation, ctx: RaiseContext & { queueId?: string }): Promise<EscalationOutcome> {
    const started = Date.now();
    const queueId = ctx.queueId;
    let params: ElicitRequestFormParams;
    let read: InquiryForm['read'] | undefined;
    if (e.verb === 'approval') {
      params = {
        mode: 'form',
        message: approvalMessage(e.request, { timeoutMs: ctx.timeoutMs, ...(queueId ? { queueId } : {}) }),
        requestedSchema: scopeSchema(this.opts.persistDays),
        _meta: { 'wisp/escalation': ctx.escalationId },
      };
    } else {
      const form = inquiryForm(e.request, ctx.timeoutMs, queueId);
      params = { mode: 'form', message: form.message, requestedSchema: form.requestedSchema, _meta: { 'wisp/escalation': ctx.escalationId } };
      read = form.read;
    }
    const relatedRequestId = this.opts.currentRequestId?.();
    const taskId = this.opts.currentTask?.();
    let result: ElicitResult;
    try {
      result = await this.opts.server.elicitInput(params, {
        timeout: ctx.timeoutMs > 0 ? Math.min(ctx.timeoutMs, NO_TIMEOUT_MS) : NO_TIMEOUT_MS,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(taskId !== undefined ? { relatedTask: { taskId } } : relatedRequestId !== undefined ? { relatedRequestId } : {}),
      });
    } catch (err) {
      if (ctx.signal?.aborted) return { kind: 'declined', reason: CALL_CANCELLED };
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return { kind: 'unanswered', waitedMs: Date.now() - started };
      throw err;
    }
    if (ctx.signal?.aborted) return { kind: 'declined', reason: CALL_CANCELLED };
    this.audited(e, ctx, result.action);
    if (result.action === 'decline') return { kind: 'declined', reason: DECLINED_BY_USER };
    if (result.action === 'cancel') return { kind: 'declined', reason: CANCELLED_BY_USER };
    if (e.verb === 'approval') {
      const scope = result.content?.scope;
      return { kind: 'approved', scope: typeof scope === 'string' && (SCOPES as readonly string[]).includes(scope) ? (scope as Scope) : 'once' };
    }
    const answer = read!(result.content as Record<string, unknown> | undefined);
    if (!answer.ok) return { kind: 'declined', reason: answer.reason };
    return { kind: 'answered', text: answer.text };
  }

  private audited(e: Escalation, ctx: RaiseContext, action: ElicitResult['action']): void {
    this.opts.audit?.write(
      'escalation.answered',
      { channel: 'elicitation', escalationId: ctx.escalationId, verb: e.verb, via: 'elicitation', action },
      { session: ctx.session, ...(ctx.thread !== undefined ? { thread: ctx.thread } : {}) },
    );
  }
}

