// A refused gate decision becomes a receipt refusal, and — when a person must answer — a pending entry.
import type { GateDecision } from '../gate/gate.js';
import type { ToolContext } from './types.js';

export function recordRefusal(ctx: ToolContext, subject: string, decision: Extract<GateDecision, { allowed: false }>): void {
  ctx.receipt.refusals.push({
    command: subject,
    reason: decision.reason,
    ...(decision.escalationId ? { escalationId: decision.escalationId } : {}),
  });
  if (decision.pending) {
    const expiresAt = new Date(Date.now() + ctx.config.escalation.pendingSeconds * 1000).toISOString();
    if (!ctx.receipt.pending.some((p) => p.id === decision.pending!.id)) {
      ctx.receipt.pending.push({
        ...decision.pending,
        expiresAt,
        answer: `wisp approvals approve ${decision.pending.id}`,
      });
    }
  }
}
