// ask_operator: the inquiry verb. The question goes through the session's channel; whatever happens, the model
// gets a plain statement of it (answered, declined, no answer in time, or pending until the next turn).
import { z } from 'zod';
import { INQUIRY_ANSWER_MAX_BYTES, type Escalation, type EscalationOutcome } from '../escalation/types.js';
import type { RaceContext } from '../escalation/race.js';
import type { ChannelName } from '../escalation/types.js';
import { shortId } from '../util/ids.js';
import { schemaPatternProblem } from '../util/linear-regex.js';
import type { ToolContext, ToolOutput, WispTool } from './types.js';

const schema = z.strictObject({
  // Not 2000: llama.cpp's grammar (llama-server before PR 28469, and node-llama-cpp 3.21.1) refuses that exact bound.
  question: z.string().min(1).max(1000).describe('One clear question for the operator'),
  schema: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Optional JSON Schema (type object) for a structured answer; flat objects of strings/numbers/booleans work best'),
});

export const askOperatorTool: WispTool<typeof schema> = {
  name: 'ask_operator',
  description:
    'Ask the operator (the person running wisp) one question. Ask only when you cannot proceed without them, and ' +
    'ask one thing. The answer may be refused, may not come in time, or may arrive on the next turn.',
  schema,
  limits: ['answer capped at 4 KiB', 'bounded wait (escalation.timeoutSeconds)', 'declined under --yes: there is no operator'],
  example: 'Tidy up the config files, but ask me before deciding which of the two READMEs to keep.',
  async run(args, ctx): Promise<ToolOutput> {
    // A `pattern` the linear-time engine cannot run would be validated by backtracking (ADR 0017): refused before
    // anyone is asked, and the model is told which one.
    const patternProblem = args.schema ? schemaPatternProblem(args.schema) : undefined;
    if (patternProblem !== undefined) {
      return { content: `error: the schema was not used, nobody was asked: ${patternProblem}. Ask without it, or with a simpler pattern.`, isError: true };
    }
    const escalationId = shortId();
    const thread = ctx.ctx.thread;
    const escalation: Escalation = {
      verb: 'inquiry',
      request: { question: args.question, ...(args.schema ? { schema: args.schema } : {}), ...(thread !== undefined ? { thread } : {}) },
    };
    // The channel the question actually travels (an MCP client without elicitation: the queue).
    let channel: ChannelName = ctx.channel.route?.(escalation) ?? ctx.channel.name;
    ctx.audit.write(
      'inquiry.requested',
      { question: args.question, ...(args.schema ? { schema: args.schema } : {}), channel, escalationId },
      ctx.ctx,
    );
    const raiseCtx: RaceContext = {
      session: ctx.ctx.session,
      ...(thread !== undefined ? { thread } : {}),
      ...(ctx.client ? { client: ctx.client } : {}),
      timeoutMs: ctx.config.escalation.timeoutSeconds * 1000,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
      escalationId,
      onWinner: (leg) => {
        channel = leg;
      },
    };
    let outcome: EscalationOutcome;
    let failed = false;
    try {
      outcome = await ctx.channel.raise(escalation, raiseCtx);
    } catch (err) {
      failed = true;
      outcome = { kind: 'declined', reason: `inquiry request failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    if (outcome.kind === 'answered') outcome = { ...outcome, text: capAnswer(outcome.text) };
    if (outcome.kind === 'pending') ctx.pendingInquiries?.attachToolCall(outcome.id, ctx.toolCallId);
    return settleInquiry(ctx, args.question, escalationId, channel, outcome, failed ? 'failed' : undefined);
  },
};

/**
 * Audits the outcome, records it in the receipt and words it for the model. Also used for redeemed answers.
 * `cause: 'failed'` marks a decline that no one gave: the request itself failed.
 */
export function settleInquiry(
  ctx: ToolContext,
  question: string,
  escalationId: string,
  channel: ChannelName,
  outcome: EscalationOutcome,
  cause?: 'failed',
): ToolOutput {
  const base = { channel, escalationId };
  switch (outcome.kind) {
    case 'answered': {
      ctx.audit.write(
        'inquiry.decided',
        { ...base, decision: 'answered', answer: outcome.text, ...(outcome.answeredBy ? { answeredBy: outcome.answeredBy } : {}) },
        ctx.ctx,
      );
      ctx.audit.write('escalation.settled', { ...base, verb: 'inquiry', outcome: 'answered' }, ctx.ctx);
      ctx.receipt.inquiries.push({ question, outcome: 'answered', channel, escalationId, ...(outcome.answeredBy ? { answeredBy: outcome.answeredBy } : {}) });
      ctx.onEvent?.({ type: 'inquiry', question, outcome: 'answered' });
      return { content: `The operator answered:\n${outcome.text}` };
    }
    case 'declined': {
      ctx.audit.write('inquiry.decided', { ...base, decision: 'declined', reason: outcome.reason }, ctx.ctx);
      // Only a person's no is an answer: a withdrawn question (Ctrl-C, a cancelled call) is abandoned, and no
      // operator (deny, --yes) or a failed request is a refusal. Decided by what happened, not by the reason's words.
      const settled = ctx.signal?.aborted === true
        ? 'abandoned'
        : cause === 'failed' || channel === 'deny' || channel === 'auto'
          ? 'refused'
          : 'answered';
      ctx.audit.write('escalation.settled', { ...base, verb: 'inquiry', outcome: settled, reason: outcome.reason }, ctx.ctx);
      ctx.receipt.inquiries.push({ question, outcome: 'declined', channel, escalationId });
      ctx.onEvent?.({ type: 'inquiry', question, outcome: 'declined' });
      return { content: `The operator did not answer: ${outcome.reason}. Carry on without it, and say what you assumed.` };
    }
    case 'unanswered': {
      const seconds = Math.round(outcome.waitedMs / 1000);
      ctx.audit.write('inquiry.decided', { ...base, decision: 'timed-out', waitedMs: outcome.waitedMs }, ctx.ctx);
      ctx.audit.write('escalation.settled', { ...base, verb: 'inquiry', outcome: 'timed-out' }, ctx.ctx);
      ctx.receipt.inquiries.push({ question, outcome: 'unanswered', channel, escalationId });
      ctx.onEvent?.({ type: 'inquiry', question, outcome: 'no answer in time' });
      return { content: `No answer within ${seconds}s (silence counts as no answer). Carry on without it, and say what you assumed.` };
    }
    case 'pending': {
      ctx.audit.write('inquiry.decided', { ...base, escalationId: outcome.id, decision: 'pending' }, ctx.ctx);
      ctx.receipt.inquiries.push({ question, outcome: 'pending', channel, escalationId: outcome.id });
      const expiresAt = new Date(outcome.expiresAt ?? Date.now() + ctx.config.escalation.pendingSeconds * 1000).toISOString();
      ctx.receipt.pending.push({
        id: outcome.id,
        verb: 'inquiry',
        question,
        expiresAt,
        answer: `respond again on this thread with answers: [{"id": "${outcome.id}", "text": "…"}]`,
      });
      ctx.onEvent?.({ type: 'inquiry', question, outcome: `pending ${outcome.id}` });
      return {
        content:
          `pending (${outcome.id}): the operator will be asked; their answer arrives as this tool's output on the ` +
          'next turn. End this turn now and say what you are waiting for.',
      };
    }
    case 'approved':
      return { content: 'error: the channel answered a question with an approval', isError: true };
  }
}

/** Answers are capped at 4 KiB on a character boundary, and say so when cut. */
export function capAnswer(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= INQUIRY_ANSWER_MAX_BYTES) return text;
  const marker = ' …[answer cut at 4 KiB]';
  let cut = Buffer.from(text, 'utf8').subarray(0, INQUIRY_ANSWER_MAX_BYTES - Buffer.byteLength(marker)).toString('utf8');
  cut = cut.replace(/\uFFFD$/, '');
  return cut + marker;
}
