// The MCP dialog leg of an escalation: one `elicitation/create` form per approval or inquiry, tied to the call (or
// task) that is asking, bounded by the escalation's wait, withdrawn with the caller's signal. Its words are in
// dialog-wording.ts and inquiry-form.ts; which legs a `wisp mcp` escalation races is mcp-channel.ts.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError, type ElicitRequestFormParams, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AuditSink } from '../audit/kinds.js';
import { SCOPES, type Scope } from '../core/scopes.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../escalation/types.js';
import { visible } from '../core/visible.js';
import { approvalMessage, scopeSchema } from './dialog-wording.js';
import { inquiryForm, strayFields, type InquiryForm } from './inquiry-form.js';

/** setTimeout's ceiling (~24.8 days): "no timeout" must never fall back to the SDK's 60 s default. */
export const NO_TIMEOUT_MS = 2_147_483_647;

export const DECLINED_BY_USER = 'declined by the user';
export const CANCELLED_BY_USER = 'cancelled by the user';
export const CALL_CANCELLED = 'the call was cancelled while waiting for an answer';
/** Said (with why) when the dialog came back with an answer wisp cannot read: a refusal, never a yes (ADR 0094). */
export const UNREADABLE_ANSWER = "the dialog's answer could not be read, so it counts as a refusal";

/** What the dialog needs of the MCP server (the SDK's low-level `Server` fits). */
export type ElicitingServer = Pick<Server, 'request' | 'getClientCapabilities'>;

/**
 * The dialog's answer as wisp reads it, whatever the SDK checked: the request is sent with `request` and no result
 * schema of the SDK's, so the content is read here against the form wisp sent (ADR 0097). The SDK's own check lives
 * in `elicitInput` and its wording may change with its version; a malformed answer must stay a refusal regardless.
 */
const DialogAnswer = z.object({ action: z.enum(['accept', 'decline', 'cancel']), content: z.record(z.string(), z.unknown()).optional() });
type Action = z.infer<typeof DialogAnswer>['action'];

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
    let raw: unknown;
    try {
      raw = await this.opts.server.request({ method: 'elicitation/create', params }, z.unknown(), {
        timeout: ctx.timeoutMs > 0 ? Math.min(ctx.timeoutMs, NO_TIMEOUT_MS) : NO_TIMEOUT_MS,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(taskId !== undefined ? { relatedTask: { taskId } } : relatedRequestId !== undefined ? { relatedRequestId } : {}),
      });
    } catch (err) {
      if (ctx.signal?.aborted) return { kind: 'declined', reason: CALL_CANCELLED };
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) return { kind: 'unanswered', waitedMs: Date.now() - started };
      // The client answered the form with an error (its SDK found its own dialog's result malformed, or it failed):
      // the person may have acted, so that ends the escalation as a refusal. Thrown on, it would count as a failed
      // leg, and a race would go on waiting for the queue without a word to anyone. Told apart by the error's
      // code, never its words (ADR 0097); a client gone or one that cannot show forms is a failed leg.
      if (!clientAnsweredWithError(err)) throw err;
      return this.unreadable(e, ctx, 'unreadable', `the client answered with an error: ${(err as McpError).message}`);
    }
    if (ctx.signal?.aborted) return { kind: 'declined', reason: CALL_CANCELLED };
    const parsed = DialogAnswer.safeParse(raw);
    if (!parsed.success) {
      const action = (raw as { action?: unknown } | null)?.action;
      const why = typeof action === 'string' && !['accept', 'decline', 'cancel'].includes(action) ? `its action ${visible(action, { maxChars: 40 })} is not accept, decline or cancel` : 'it is not a dialog result';
      return this.unreadable(e, ctx, 'unreadable', why);
    }
    const result = parsed.data;
    if (result.action === 'decline' || result.action === 'cancel') {
      this.audited(e, ctx, result.action);
      return { kind: 'declined', reason: result.action === 'decline' ? DECLINED_BY_USER : CANCELLED_BY_USER };
    }
    const content = result.content as Record<string, unknown> | undefined;
    if (e.verb === 'approval') {
      const scope = readScope(content);
      if (!scope.ok) return this.unreadable(e, ctx, result.action, scope.reason);
      this.audited(e, ctx, result.action);
      return { kind: 'approved', scope: scope.scope };
    }
    const answer = read!(content);
    if (!answer.ok) return this.unreadable(e, ctx, result.action, answer.reason);
    this.audited(e, ctx, result.action);
    return { kind: 'answered', text: answer.text };
  }

  /** An accepted form whose content does not fit the form: audited with why, and refused. */
  private unreadable(e: Escalation, ctx: RaiseContext, action: Action | 'unreadable', why: string): EscalationOutcome {
    const shown = visible(why, { maxChars: 300 });
    this.audited(e, ctx, action, shown);
    return { kind: 'declined', reason: `${UNREADABLE_ANSWER} (${shown})` };
  }

  private audited(e: Escalation, ctx: RaiseContext, action: Action | 'unreadable', unreadable?: string): void {
    this.opts.audit?.write(
      'escalation.answered',
      {
        channel: 'elicitation',
        escalationId: ctx.escalationId,
        verb: e.verb,
        via: 'elicitation',
        action,
        ...(unreadable !== undefined ? { unreadable } : {}),
      },
      { session: ctx.session, ...(ctx.thread !== undefined ? { thread: ctx.thread } : {}) },
    );
  }
}

/**
 * The scope of an accepted approval form: absent means once (the form's default); anything but the one field the
 * form asks for, or a value outside its choices, is no answer.
 */
function readScope(content: Record<string, unknown> | undefined): { ok: true; scope: Scope } | { ok: false; reason: string } {
  const stray = strayFields(content, ['scope']);
  if (stray) return { ok: false, reason: stray };
  const scope = content?.scope;
  if (scope === undefined) return { ok: true, scope: 'once' };
  if (typeof scope === 'string' && (SCOPES as readonly string[]).includes(scope)) return { ok: true, scope: scope as Scope };
  return { ok: false, reason: 'its scope is not one of the choices' };
}

/**
 * Whether the client answered the form with an error of its own — a JSON-RPC error response, read by its code —
 * rather than the dialog failing to happen: a timeout, a closed connection, or a client without the method (those
 * are a failed leg, and another leg may still be answered).
 */
function clientAnsweredWithError(err: unknown): boolean {
  if (!(err instanceof McpError)) return false;
  return err.code !== ErrorCode.ConnectionClosed && err.code !== ErrorCode.MethodNotFound && err.code !== ErrorCode.RequestTimeout;
}
