// Escalations for `wisp mcp`: the MCP elicitation dialog (`elicitation/create`), and the channel the server's
// session actually uses, which picks the legs for each escalation from what the connected client can do:
//   - the client renders elicitation and `escalation.outOfBand` is on → the dialog raced with the queue;
//   - the client renders elicitation, outOfBand off → the dialog alone;
//   - the client cannot render it → the queue alone (outOfBand on), else a refusal that says what to do.
// The dialog's headline is authored text (a config rule's `ask`, or fixed words); model-derived text (the command,
// the question) only appears in labelled lines, passed through `visible()` (design.md §10).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ajvLinearRegExp } from '../util/linear-regex.js';
import { ErrorCode, McpError, type ElicitRequestFormParams, type ElicitResult, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { AuditSink } from '../audit/kinds.js';
import { hasHidden, visible } from '../display/visible.js';
import { RaceChannel } from '../escalation/race.js';
import {
  INQUIRY_ANSWER_MAX_BYTES,
  SCOPES,
  type ApprovalRequest,
  type Escalation,
  type EscalationChannel,
  type EscalationOutcome,
  type InquiryRequest,
  type RaiseContext,
  type Scope,
  type ChannelName,
} from '../escalation/types.js';

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
  /** Audit sink for `escalation.answered`; attached once the session exists. */
  audit?: AuditSink;
  /** The id of the tools/call being served, so the dialog is tied to it (relatedRequestId). */
  readonly currentRequestId?: () => RequestId | undefined;
  /**
   * The MCP task whose turn is asking, if any: its dialog is then related to the task and waits in the task's
   * queue until the client calls tasks/result (spec 2025-11-25, tasks).
   */
  readonly currentTask?: () => string | undefined;
}

/** Human wording of a wait bound: `10 minutes`, `45 seconds`. */
export function describeWait(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} second${s === 1 ? '' : 's'}`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} minutes`;
  return `${Math.round(m / 60)} hours`;
}

/** Fixed headline of an approval dialog, unless the operator's rule authored one. */
export function approvalHeadline(request: ApprovalRequest): string {
  return request.ask ? visible(request.ask, { maxChars: 200 }) : `wisp: approve command? (${request.level} risk)`;
}

export function approvalMessage(request: ApprovalRequest, opts: { timeoutMs: number; queueId?: string }): string {
  // Long blank runs collapse to a flagged marker (⟨990 spaces⟩), so nothing can hide past the bound.
  const shown = (t: string) => visible(t, { maxChars: 2000, collapseRuns: true });
  const lines = [approvalHeadline(request), '', 'Command:', shown(request.command)];
  if (request.line !== request.command) lines.push(`Part of: ${shown(request.line)}`);
  lines.push('', `Directory: ${visible(request.directory, { maxChars: 500 })}`, `Risk: ${request.level}`);
  for (const reason of request.reasons) lines.push(`- ${visible(reason, { maxChars: 200 })}`);
  lines.push(`Remembered as: ${visible(request.pattern, { maxChars: 500 })}`, '');
  lines.push('Accept runs it; the choice below says how long the answer is remembered. Decline refuses it.');
  if (request.level === 'dangerous') lines.push('A dangerous command is never remembered beyond this session.');
  lines.push(silence(opts.timeoutMs, 'Decline'));
  if (opts.queueId) lines.push(`You can also answer in a terminal: wisp approvals approve ${opts.queueId}`);
  return lines.join('\n');
}

function silence(timeoutMs: number, what: string): string {
  return timeoutMs > 0 ? `No answer within ${describeWait(timeoutMs)} counts as ${what}.` : 'This waits until you answer; there is no time limit.';
}

export function scopeSchema(persistDays: number): ElicitRequestFormParams['requestedSchema'] {
  const titles: Record<Scope, string> = {
    once: 'Once (this turn)',
    session: 'This session',
    project: `This directory (${persistDays} days)`,
    always: `Any directory (${persistDays} days)`,
  };
  return {
    type: 'object',
    properties: {
      scope: {
        type: 'string',
        title: 'Remember the answer for',
        description: 'How long this approval lasts; once unless you choose otherwise',
        oneOf: SCOPES.map((s) => ({ const: s, title: titles[s] })),
        default: 'once',
      },
    },
    required: [],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Inquiries: a plain answer field, the model's schema when it is flat, or one JSON field validated against it.

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
type Property = ElicitRequestFormParams['requestedSchema']['properties'][string];

/**
 * The model's schema as an elicitation form, when it is flat: an object whose properties are all strings (maybe an
 * enum of strings), numbers, integers or booleans. Titles and descriptions are model text, so they are made visible.
 */
export function flatForm(schema: Record<string, unknown> | undefined): ElicitRequestFormParams['requestedSchema'] | undefined {
  if (!schema || (schema.type !== undefined && schema.type !== 'object')) return undefined;
  const props = schema.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return undefined;
  const entries = Object.entries(props as Record<string, unknown>);
  if (entries.length === 0 || entries.length > 16) return undefined;
  const out: Record<string, Property> = {};
  for (const [name, raw] of entries) {
    if (!FIELD_NAME.test(name) || !raw || typeof raw !== 'object') return undefined;
    const p = raw as Record<string, unknown>;
    const label = {
      ...(typeof p.title === 'string' ? { title: visible(p.title, { maxChars: 100 }) } : {}),
      ...(typeof p.description === 'string' ? { description: visible(p.description, { maxChars: 300 }) } : {}),
    };
    const num = (k: string) => (typeof p[k] === 'number' ? { [k]: p[k] as number } : {});
    if (p.type === 'string') {
      if (Array.isArray(p.enum)) {
        // Choices are shown by the client and returned verbatim, so they cannot be escaped: a choice holding a
        // control, bidi or invisible character (or a very long one) makes the form not flat — answered as JSON.
        if (!p.enum.every(shownAsIs) || p.enum.length === 0) return undefined;
        out[name] = { type: 'string', ...label, enum: p.enum as string[], ...(shownAsIs(p.default) ? { default: p.default } : {}) };
      } else {
        const format = typeof p.format === 'string' && ['email', 'uri', 'date', 'date-time'].includes(p.format) ? { format: p.format as 'email' } : {};
        out[name] = {
          type: 'string',
          ...label,
          ...num('minLength'),
          maxLength: Math.min(typeof p.maxLength === 'number' ? p.maxLength : INQUIRY_ANSWER_MAX_BYTES, INQUIRY_ANSWER_MAX_BYTES),
          ...format,
          ...(shownAsIs(p.default) ? { default: p.default } : {}),
        };
      }
    } else if (p.type === 'number' || p.type === 'integer') {
      out[name] = { type: p.type, ...label, ...num('minimum'), ...num('maximum'), ...(typeof p.default === 'number' ? { default: p.default } : {}) };
    } else if (p.type === 'boolean') {
      out[name] = { type: 'boolean', ...label, ...(typeof p.default === 'boolean' ? { default: p.default } : {}) };
    } else {
      return undefined;
    }
  }
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((r): r is string => typeof r === 'string' && r in out) : [];
  return { type: 'object', properties: out, required };
}

/** A string the client may show without escaping: short, with nothing visible() would escape. */
function shownAsIs(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 200 && !hasHidden(v) && !v.includes('\n');
}

export interface InquiryForm {
  readonly message: string;
  readonly requestedSchema: ElicitRequestFormParams['requestedSchema'];
  /** Turns accepted content into the answer text, or says why it is not an answer. */
  readonly read: (content: Record<string, unknown> | undefined) => { ok: true; text: string } | { ok: false; reason: string };
}

// The SDK's default ajv settings, with JSON-schema `pattern`s run by the linear-time engine (ADR 0017): a model's
// schema cannot make the answer's validation backtrack for ever.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const validator = new AjvJsonSchemaValidator(
  addFormats(new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp: ajvLinearRegExp } })),
);

export function inquiryForm(request: InquiryRequest, timeoutMs: number, queueId?: string): InquiryForm {
  const head = ['wisp: the model has a question for you', '', 'Question:', visible(request.question, { maxChars: 2000, multiline: true }), ''];
  const tail = ['Decline if you would rather not answer.', silence(timeoutMs, 'no answer')];
  if (queueId) tail.push(`You can also answer in a terminal: wisp inquiries answer ${queueId} TEXT`);

  const flat = flatForm(request.schema);
  if (flat) {
    return {
      message: [...head, 'Answer in the fields below.', ...tail].join('\n'),
      requestedSchema: flat,
      read: (content) => ({ ok: true, text: JSON.stringify(content ?? {}) }),
    };
  }
  if (request.schema) {
    let check: ((value: unknown) => { valid: boolean; errorMessage?: string }) | undefined;
    try {
      check = validator.getValidator(request.schema as Parameters<AjvJsonSchemaValidator['getValidator']>[0]);
    } catch {
      check = undefined; // a schema ajv cannot compile: the answer must still be JSON
    }
    const shown = visible(JSON.stringify(request.schema), { maxChars: 1500 });
    return {
      message: [...head, 'Answer with JSON that matches this schema:', shown, '', ...tail].join('\n'),
      requestedSchema: {
        type: 'object',
        properties: { answer: { type: 'string', title: 'Answer (JSON)', description: 'JSON matching the schema in the message', maxLength: INQUIRY_ANSWER_MAX_BYTES } },
        required: ['answer'],
      },
      read: (content) => {
        const raw = typeof content?.answer === 'string' ? content.answer : '';
        let value: unknown;
        try {
          value = JSON.parse(raw);
        } catch {
          return { ok: false, reason: 'the answer was not JSON, and the question asked for JSON matching a schema' };
        }
        const result = check?.(value);
        if (result && !result.valid) return { ok: false, reason: `the answer does not match the requested schema: ${result.errorMessage ?? 'invalid'}` };
        return { ok: true, text: JSON.stringify(value) };
      },
    };
  }
  return {
    message: [...head, 'Type your answer below.', ...tail].join('\n'),
    requestedSchema: {
      type: 'object',
      properties: { answer: { type: 'string', title: 'Answer', maxLength: INQUIRY_ANSWER_MAX_BYTES } },
      required: ['answer'],
    },
    read: (content) => ({ ok: true, text: typeof content?.answer === 'string' ? content.answer : '' }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The dialog leg.

export class ElicitationChannel implements EscalationChannel {
  readonly name = 'elicitation' as const;

  constructor(private readonly opts: ElicitationOptions) {}

  set audit(audit: AuditSink) {
    this.opts.audit = audit;
  }

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

// ---------------------------------------------------------------------------------------------------------------
// The server's channel: picks legs per escalation, reports progress while waiting, and lists what is in flight.

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
}

export class McpChannel implements EscalationChannel {
  readonly name = 'elicitation' as const;
  readonly dialog: ElicitationChannel;
  private queue: EscalationChannel | undefined;
  private readonly inFlight = new Map<string, InFlight>();

  constructor(private readonly opts: McpChannelOptions) {
    this.dialog = new ElicitationChannel(opts);
  }

  /** Attaches what exists only once the session is open: its audit sink and the queue leg. */
  attach(parts: { audit: AuditSink; queue?: EscalationChannel }): void {
    this.dialog.audit = parts.audit;
    this.queue = parts.queue;
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
