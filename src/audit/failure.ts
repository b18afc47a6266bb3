// One `error` event per failure: a model that cannot answer, a tool that throws, a face that breaks. The first
// place that sees a failure records it; the places it passes through on its way out see it was recorded.
import { visible } from '../core/visible.js';
import type { AuditContext, AuditSink } from './kinds.js';

const recorded = new WeakSet<object>();

export interface FailureContext {
  /** Where it failed: `model`, `tool`, or the face (`respond`, `chat`, `mcp`). */
  readonly context: string;
  /** The model's id (`ollama:qwen3:8b`), when a model was involved. */
  readonly model?: string;
  readonly tool?: string;
}

/**
 * Writes the `error` event for `err` unless it was written already. The message may quote a server's reply or a
 * model's text, so it is stored made visible (design.md §10). A failure to write is swallowed: the caller is
 * already failing, and the write path reports its own breakage.
 */
export function auditFailure(audit: AuditSink, err: unknown, where: FailureContext, ctx: AuditContext): void {
  if (typeof err === 'object' && err !== null) {
    if (recorded.has(err)) return;
    recorded.add(err);
  }
  const message = err instanceof Error ? err.message : String(err);
  try {
    audit.write(
      'error',
      {
        message: visible(message, { multiline: true, maxChars: 4000 }),
        context: where.context,
        ...(where.model !== undefined ? { model: visible(where.model, { maxChars: 300 }) } : {}),
        ...(ctx.thread !== undefined ? { thread: ctx.thread } : {}),
        ...(where.tool !== undefined ? { tool: where.tool } : {}),
      },
      ctx,
    );
  } catch {
    /* see above */
  }
}

/** True when `err` was already recorded by auditFailure. */
export function wasAudited(err: unknown): boolean {
  return typeof err === 'object' && err !== null && recorded.has(err);
}
