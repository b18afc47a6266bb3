// ask_operator: the inquiry verb. The question goes through escalate() on the session's channel; whatever happens,
// the model gets a plain statement of it (answered, declined, no answer in time, or pending until the next turn).
import { z } from 'zod';
import { escalate, type Resolution } from '../escalation/escalate.js';
import type { ChannelName } from '../core/channels.js';
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
    const thread = ctx.ctx.thread;
    const { escalationId, outcome, via } = await escalate({
      escalation: {
        verb: 'inquiry',
        request: { question: args.question, ...(args.schema ? { schema: args.schema } : {}), ...(thread !== undefined ? { thread } : {}) },
      },
      channel: ctx.channel,
      audit: ctx.audit,
      ctx: ctx.ctx,
      timeoutMs: ctx.config.escalation.timeoutSeconds * 1000,
      ...(ctx.client ? { client: ctx.client } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
    });
    return report(ctx, args.question, escalationId, via, outcome);
  },
};

/** Records the settled inquiry in the receipt and words it for the model (the audit was written by escalate()). */
function report(ctx: ToolContext, question: string, escalationId: string, channel: ChannelName, outcome: Resolution): ToolOutput {
  switch (outcome.kind) {
    case 'answered': {
      ctx.receipt.inquiries.push({ question, outcome: 'answered', channel, escalationId, ...(outcome.answeredBy ? { answeredBy: outcome.answeredBy } : {}) });
      ctx.onEvent?.({ type: 'inquiry', question, outcome: 'answered' });
      return { content: `The operator answered:\n${outcome.text}` };
    }
    case 'declined': {
      if (outcome.cause === 'timed-out') {
        const seconds = Math.round((outcome.waitedMs ?? 0) / 1000);
        ctx.receipt.inquiries.push({ question, outcome: 'unanswered', channel, escalationId });
        ctx.onEvent?.({ type: 'inquiry', question, outcome: 'no answer in time' });
        return { content: `No answer within ${seconds}s (silence counts as no answer). Carry on without it, and say what you assumed.` };
      }
      ctx.receipt.inquiries.push({ question, outcome: 'declined', channel, escalationId });
      // Under deny or auto nobody was asked: the person must not read that someone declined (ADR 0097).
      const notAsked = channel === 'deny' || channel === 'auto';
      ctx.onEvent?.({ type: 'inquiry', question, outcome: notAsked ? `not asked: nobody answers questions on the ${channel} channel` : 'declined' });
      return { content: `The operator did not answer: ${outcome.reason}. Carry on without it, and say what you assumed.` };
    }
    case 'pending': {
      ctx.pendingInquiries?.attachToolCall(outcome.id, ctx.toolCallId);
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
      // escalate() settles a channel that answers a question with an approval as a failed request; never reached.
      return { content: 'error: the channel answered a question with an approval', isError: true };
  }
}
