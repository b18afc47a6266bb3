// Every audit kind wisp writes (design.md §9). docs/logging.md documents each; a test keeps the two in step.
export const AUDIT_KINDS = [
  'session.start',
  'session.end',
  'prompt',
  'response',
  'tool.call',
  'tool.result',
  'policy.decision',
  'classifier.verdict',
  'approval.requested',
  'approval.decided',
  'approval.revoked',
  'inquiry.requested',
  'inquiry.decided',
  'escalation.pending',
  'escalation.answered',
  'escalation.settled',
  'command.outcome',
  'file.write',
  'mcp.request',
  'mcp.result',
  'config.change',
  'notification',
  'error',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export interface AuditContext {
  readonly session: string;
  readonly thread?: string;
  readonly turn?: number;
}

/** The envelope of one line of logs/audit.jsonl. */
export interface AuditEvent {
  readonly schema: 1;
  readonly id: string;
  readonly time: string;
  readonly version: string;
  readonly pid: number;
  readonly session: string;
  readonly thread?: string;
  readonly turn?: number;
  readonly kind: AuditKind;
  readonly details: Record<string, unknown>;
}

/**
 * Where events go. `write` is synchronous and throws when the event could not be written: callers must treat a
 * throw as "stop the action" (fail closed), never swallow it.
 */
export interface AuditSink {
  write(kind: AuditKind, details: Record<string, unknown>, ctx: AuditContext): AuditEvent;
}

/** An in-memory sink for tests and for `wisp check` (which decides without recording). */
export class MemoryAudit implements AuditSink {
  readonly events: AuditEvent[] = [];
  write(kind: AuditKind, details: Record<string, unknown>, ctx: AuditContext): AuditEvent {
    const event: AuditEvent = {
      schema: 1,
      id: Math.random().toString(16).slice(2, 10).padEnd(8, '0') + this.events.length.toString(16).padStart(8, '0'),
      time: new Date().toISOString(),
      version: 'test',
      pid: process.pid,
      session: ctx.session,
      ...(ctx.thread !== undefined ? { thread: ctx.thread } : {}),
      ...(ctx.turn !== undefined ? { turn: ctx.turn } : {}),
      kind,
      details,
    };
    this.events.push(event);
    return event;
  }
  ofKind(kind: AuditKind): AuditEvent[] {
    return this.events.filter((e) => e.kind === kind);
  }
}
