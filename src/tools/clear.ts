// The one way a tool asks the gate: clear the line, record approvals, tell the face, and turn a refusal into a
// receipt refusal (and, when a person must answer, a pending entry).
import type { GateDecision } from '../gate/gate.js';
import type { LineAnalysis } from '../gate/analyze.js';
import type { ToolContext } from './types.js';

export async function clearThroughGate(
  ctx: ToolContext,
  opts: { tool: string; subject: string; line: string; cwd: string; analysis?: LineAnalysis },
): Promise<GateDecision> {
  const decision = await ctx.gate.clear({
    line: opts.line,
    cwd: opts.cwd,
    ctx: ctx.ctx,
    turnApprovals: ctx.turnApprovals,
    ...(opts.analysis ? { analysis: opts.analysis } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.client ? { client: ctx.client } : {}),
    ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
  });
  ctx.receipt.approvals.push(...decision.approvals);
  ctx.onEvent?.({
    type: 'gate',
    tool: opts.tool,
    subject: opts.subject,
    allowed: decision.allowed,
    notes: decision.notes,
    ...(decision.allowed ? {} : { reason: decision.reason }),
  });
  if (!decision.allowed) recordRefusal(ctx, opts.line, decision);
  return decision;
}

function recordRefusal(ctx: ToolContext, subject: string, decision: Extract<GateDecision, { allowed: false }>): void {
  ctx.receipt.refusals.push({
    command: subject,
    reason: decision.reason,
    ...(decision.escalationId ? { escalationId: decision.escalationId } : {}),
  });
  if (decision.pending) {
    // The channel's own expiry (the queue file's) when it says; a second clock here would disagree with it.
    const expiresAt = decision.pending.expiresAt ?? new Date(Date.now() + ctx.config.escalation.pendingSeconds * 1000).toISOString();
    if (!ctx.receipt.pending.some((p) => p.id === decision.pending!.id)) {
      ctx.receipt.pending.push({
        ...decision.pending,
        expiresAt,
        answer: `wisp approvals approve ${decision.pending.id}`,
      });
    }
  }
}
