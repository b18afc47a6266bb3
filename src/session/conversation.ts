// The tool loop: prompt → model → tool calls → gate → results → model, until a reply or the round cap.
// Bad calls from the model (unknown tool, invalid JSON, wrong arguments) become error results the model can read.
import { auditFailure } from '../audit/failure.js';
import type { AuditContext, AuditSink } from '../audit/kinds.js';
import { outputFields } from '../audit/output.js';
import type { Config } from '../config/schema.js';
import { refuseAnswer, settleExpired, settleRedeemed } from '../escalation/escalate.js';
import type { FitCheck, PendingEscalations } from '../escalation/pending.js';
import type { EscalationChannel } from '../escalation/types.js';
import type { Gate } from '../gate/gate.js';
import { ApprovalCache } from '../gate/session-approvals.js';
import { isModelError, type ChatMessage, type LanguageModel, type ToolCall } from '../model/types.js';
import type { WispPaths } from '../core/paths.js';
import { visible } from '../core/visible.js';
import { toolSchema } from '../tools/registry.js';
import { TurnReceipt, type PendingItem, type Refusal, type LiveEvent, type ToolContext, type ToolEvent, type WispTool } from '../tools/types.js';

export interface ConversationDeps {
  readonly model: LanguageModel;
  readonly tools: readonly WispTool[];
  readonly config: Config;
  readonly audit: AuditSink;
  readonly gate: Gate;
  readonly channel: EscalationChannel;
  readonly pendingInquiries?: PendingEscalations;
  readonly paths: WispPaths;
  readonly launchDir: string;
  readonly session: string;
  readonly thread?: string;
  readonly client?: string;
  /** Extra instructions from the operator or the calling agent (`respond.instructions`). */
  readonly instructions?: string;
}

export interface TurnOptions {
  readonly signal?: AbortSignal;
  readonly onText?: (delta: string) => void;
  readonly onEvent?: (event: ToolEvent) => void;
  readonly onProgress?: (message: string) => void;
  /** A command's output as it comes (for drawing only). */
  readonly onLive?: (event: LiveEvent) => void;
  /** Result-channel answers to redeem before the prompt (MCP `respond.answers`). */
  readonly answers?: ReadonlyArray<{ id: string; text: string; answeredBy?: 'human' | 'agent' }>;
  /**
   * The receipt this turn fills. A face that must say what ran even when the turn then fails (the model gone, the
   * script exhausted) passes its own and reads it after the throw (ADR 0094).
   */
  readonly receipt?: TurnReceipt;
}

export interface TurnResult {
  readonly text: string;
  readonly refusals: Refusal[];
  readonly pending: PendingItem[];
  readonly receipt: TurnReceipt;
  readonly turn: number;
  readonly rounds: number;
  readonly seconds: number;
}

export function systemPrompt(tools: readonly WispTool[], instructions?: string): string {
  const lines = [
    'You are wisp, an assistant that works on the operator\'s machine through tools.',
    'Every command, edit and read passes a gate: read-only commands run at once; others may need the operator\'s',
    'approval, and some are refused. When a tool says a call was refused or not approved, do not retry it unchanged:',
    'explain what you wanted and why, or find another way. Keep replies short and concrete.',
  ];
  if (tools.length > 0) lines.push(`Your tools: ${tools.map((t) => t.name).join(', ')}.`);
  else lines.push('You have no tools in this session: answer from what you know.');
  if (instructions) lines.push('', 'Instructions for this conversation:', instructions);
  return lines.join('\n');
}

/**
 * What a failed turn had already done, in one sentence, or undefined when it did nothing: a caller told only
 * "the turn failed" would take it for nothing having happened, and may ask again and run the same commands twice.
 */
export function doneBeforeFailure(receipt: TurnReceipt): string | undefined {
  const ran = receipt.commands.map((c) => {
    const how = c.timedOut ? 'timed out' : c.exitStatus === null ? 'stopped by a signal' : `exit ${c.exitStatus}`;
    return `\`${visible(c.command, { maxChars: 120 })}\` (${how})`;
  });
  const wrote = receipt.files.map((f) => `${visible(f.path, { maxChars: 200 })} (${f.mode})`);
  const parts = [
    ...(ran.length > 0 ? [`ran ${ran.length === 1 ? 'a command' : `${ran.length} commands`}: ${ran.slice(0, 10).join(', ')}${ran.length > 10 ? ', …' : ''}`] : []),
    ...(wrote.length > 0 ? [`wrote ${wrote.slice(0, 10).join(', ')}${wrote.length > 10 ? ', …' : ''}`] : []),
  ];
  if (parts.length === 0) return undefined;
  return `Before it stopped, this turn ${parts.join('; and ')}. That is not undone: check it before asking again.`;
}

/** A tool's error result as one short line for a person: without the `error: ` prefix the model reads, cut. */
export function failureText(output: string): string {
  const text = output.startsWith('error: ') ? output.slice('error: '.length) : output;
  return text.length > 600 ? `${text.slice(0, 600)}… (${text.length - 600} more characters)` : text;
}

/** What a reply cut by `models.maxTokens` ends with. */
export function lengthNotice(maxTokens: number): string {
  return `(the reply was cut at ${maxTokens} tokens: models.maxTokens)`;
}

export class Conversation {
  readonly messages: ChatMessage[];
  private turnNo = 0;
  private readonly model: LanguageModel;

  constructor(private readonly deps: ConversationDeps) {
    this.model = deps.model.fork();
    this.messages = [{ role: 'system', content: systemPrompt(deps.tools, deps.instructions) }];
  }

  get turns(): number {
    return this.turnNo;
  }

  async turn(prompt: string, opts: TurnOptions = {}): Promise<TurnResult> {
    const started = Date.now();
    this.turnNo++;
    const ctx: AuditContext = {
      session: this.deps.session,
      ...(this.deps.thread !== undefined ? { thread: this.deps.thread } : {}),
      turn: this.turnNo,
    };
    const receipt = opts.receipt ?? new TurnReceipt();
    const turnApprovals = new ApprovalCache();
    const { audit, config } = this.deps;

    this.expirePending(ctx);
    if (opts.answers?.length) {
      // The schema check is loaded only when a question asked with one is answered (ajv is not light).
      const withSchema = this.deps.pendingInquiries?.list().some((p) => p.schema !== undefined) === true;
      const fits = withSchema ? (await import('../escalation/answer-schema.js')).answerProblem : undefined;
      this.redeem(opts.answers, ctx, receipt, fits);
    }

    audit.write('prompt', { text: prompt }, ctx);
    this.messages.push({ role: 'user', content: prompt });

    const specs = this.deps.tools.map((t) => ({ name: t.name, description: t.description, parameters: toolSchema(t) }));
    let rounds = 0;
    let text = '';
    for (;;) {
      const reply = await this.model
        .generate(this.messages, {
          tools: specs,
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.onText ? { onText: opts.onText } : {}),
        })
        .catch((err: unknown) => {
          // A withdrawn call (Ctrl-C, a cancelled MCP call) is not a failure; everything else is recorded here.
          if (!isModelError(err, 'aborted')) auditFailure(audit, err, { context: 'model', model: this.model.id }, ctx);
          throw err;
        });
      this.messages.push({ role: 'assistant', content: reply.text, ...(reply.toolCalls.length ? { toolCalls: reply.toolCalls } : {}) });
      if (reply.toolCalls.length === 0) {
        text = reply.text;
        // A reply stopped by the length bound says so, in the reply and in the audit, instead of passing as whole.
        const cut = reply.finishReason === 'length';
        if (cut) text = `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${lengthNotice(config.models.maxTokens)}`;
        audit.write(
          'response',
          {
            text,
            seconds: (Date.now() - started) / 1000,
            rounds,
            ...(reply.usage ? { usage: reply.usage } : {}),
            ...(cut ? { stopped: 'max-tokens', maxTokens: config.models.maxTokens } : {}),
          },
          ctx,
        );
        break;
      }
      rounds++;
      for (const call of reply.toolCalls) {
        const output = await this.callTool(call, ctx, receipt, turnApprovals, opts);
        this.messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: output });
      }
      if (rounds >= config.tools.maxRounds) {
        text = `(stopped after ${rounds} tool rounds, the limit set by tools.maxRounds)`;
        audit.write('response', { text, seconds: (Date.now() - started) / 1000, rounds, stopped: 'max-rounds' }, ctx);
        break;
      }
    }
    return {
      text,
      refusals: receipt.refusals,
      pending: receipt.pending,
      receipt,
      turn: this.turnNo,
      rounds,
      seconds: (Date.now() - started) / 1000,
    };
  }

  private async callTool(
    call: ToolCall,
    ctx: AuditContext,
    receipt: TurnReceipt,
    turnApprovals: ApprovalCache,
    opts: TurnOptions,
  ): Promise<string> {
    const { audit } = this.deps;
    const started = Date.now();
    audit.write('tool.call', { tool: call.name, callId: call.id, arguments: call.arguments }, ctx);
    const refusalsBefore = receipt.refusals.length;
    const finish = (output: string, isError: boolean): string => {
      audit.write(
        'tool.result',
        {
          tool: call.name,
          callId: call.id,
          // Errors are wisp's own words; what a tool produced is kept as size and hash unless recording is on.
          ...outputFields('output', output, isError || this.deps.config.audit.recordOutput),
          bytes: Buffer.byteLength(output),
          seconds: (Date.now() - started) / 1000,
          isError,
        },
        ctx,
      );
      receipt.tools.push({ name: call.name, ...(isError ? { error: output.slice(0, 200) } : {}) });
      // A refusal was already said (a gate line, `refusals`); any other failure is said here, or only the model
      // would know that the edit, read or command did not happen (ADR 0097).
      if (isError && receipt.refusals.length === refusalsBefore) {
        const error = failureText(output);
        receipt.errors.push({ tool: call.name, error });
        opts.onEvent?.({ type: 'failed', tool: call.name, error });
      }
      return output;
    };

    const tool = this.deps.tools.find((t) => t.name === call.name);
    if (!tool) {
      const names = this.deps.tools.map((t) => t.name).join(', ') || 'none';
      return finish(`error: unknown tool '${call.name}'; the tools you have are: ${names}`, true);
    }
    if (typeof call.arguments === 'string') {
      return finish(`error: the arguments for ${call.name} are not valid JSON; send a JSON object matching its schema`, true);
    }
    const parsed = tool.schema.safeParse(call.arguments ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
      return finish(`error: invalid arguments for ${call.name}: ${problems}`, true);
    }
    const toolCtx: ToolContext = {
      config: this.deps.config,
      audit,
      ctx,
      gate: this.deps.gate,
      channel: this.deps.channel,
      ...(this.deps.pendingInquiries ? { pendingInquiries: this.deps.pendingInquiries } : {}),
      paths: this.deps.paths,
      launchDir: this.deps.launchDir,
      turnApprovals,
      receipt,
      toolCallId: call.id,
      ...(this.deps.client ? { client: this.deps.client } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onEvent ? { onEvent: opts.onEvent } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(opts.onLive ? { onLive: opts.onLive } : {}),
    };
    try {
      const out = await tool.run(parsed.data, toolCtx);
      return finish(out.content, out.isError === true);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      auditFailure(audit, err, { context: 'tool', tool: call.name }, ctx);
      return finish(`error: ${call.name} failed: ${message}`, true);
    }
  }

  /** Pending inquiries that ran out of time are audited as timed out, once. */
  private expirePending(ctx: AuditContext): void {
    const pending = this.deps.pendingInquiries;
    if (!pending) return;
    for (const gone of pending.expire()) {
      settleExpired(this.deps.audit, ctx, { escalationId: gone.id, verb: 'inquiry', channel: 'result', thread: gone.thread });
    }
  }

  /**
   * Redeems result-channel answers. A valid answer is replayed into the transcript as the output of an
   * `ask_operator` call, right before the new prompt — the one place wisp writes a transcript entry itself.
   */
  private redeem(answers: NonNullable<TurnOptions['answers']>, ctx: AuditContext, receipt: TurnReceipt, fits?: FitCheck): void {
    const pending = this.deps.pendingInquiries;
    const thread = this.deps.thread ?? '';
    for (const answer of answers) {
      const result = pending
        ? pending.redeem(answer.id, thread, answer.text, fits)
        : ({ ok: false, code: 'unknown', reason: `${answer.id} is not a pending inquiry (this server does not use the result channel)` } as const);
      if (!result.ok) {
        // An approval id is the queue's approval: the answer is refused, and the approval stays open there.
        const approval = result.code === 'approval';
        refuseAnswer(
          this.deps.audit,
          ctx,
          { escalationId: answer.id, verb: approval ? 'approval' : 'inquiry', channel: approval ? 'queue' : 'result' },
          { reason: result.reason, expired: result.code === 'expired', via: 'respond.answers' },
        );
        receipt.refusals.push({ command: `answers[${answer.id}]`, reason: result.reason, escalationId: answer.id });
        continue;
      }
      settleRedeemed(this.deps.audit, ctx, { escalationId: answer.id, verb: 'inquiry', channel: 'result' }, {
        text: answer.text,
        via: 'respond.answers',
        ...(answer.answeredBy ? { answeredBy: answer.answeredBy } : {}),
      });
      receipt.inquiries.push({
        question: result.entry.question,
        outcome: 'answered',
        channel: 'result',
        escalationId: answer.id,
        ...(answer.answeredBy ? { answeredBy: answer.answeredBy } : {}),
      });
      const callId = `replay_${answer.id}`;
      this.messages.push({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: callId, name: 'ask_operator', arguments: { question: result.entry.question } }],
      });
      this.messages.push({
        role: 'tool',
        toolCallId: callId,
        name: 'ask_operator',
        content: `The operator answered (pending ${answer.id}):\n${result.text}`,
      });
    }
  }
}
