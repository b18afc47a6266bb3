// How a finished turn becomes `respond`'s result: the structured content, a second text block for agents that read
// only `content`, and the one-line progress messages of tool events. Model-derived text is made visible here.
import { visible } from '../core/visible.js';
import type { TurnResult } from '../session/conversation.js';
import type { ToolEvent } from '../tools/types.js';
import type { RespondStructured } from './schemas.js';

export function shape(threadId: string, created: boolean, result: TurnResult): RespondStructured {
  return {
    thread_id: threadId,
    created,
    text: result.text,
    refusals: result.refusals.map((r) => ({ command: r.command, reason: r.reason, ...(r.escalationId ? { escalationId: r.escalationId } : {}) })),
    pending: result.pending.map((p) =>
      p.verb === 'approval'
        ? { id: p.id, verb: p.verb, command: p.command, pattern: p.pattern, level: p.level, reasons: [...p.reasons], expiresAt: p.expiresAt, answer: p.answer }
        : { id: p.id, verb: p.verb, question: p.question, expiresAt: p.expiresAt, answer: p.answer },
    ),
    receipt: {
      commands: result.receipt.commands,
      files: result.receipt.files,
      approvals: result.receipt.approvals,
      inquiries: result.receipt.inquiries,
      errors: result.receipt.errors.map((e) => ({ tool: e.tool, error: e.error })),
    },
  };
}

/** A second text block for agents that read only `content`: what is pending, what was refused, what failed. */
export function noteFor(threadId: string, s: RespondStructured): string | undefined {
  const lines: string[] = [];
  for (const p of s.pending) {
    if (p.verb === 'inquiry') {
      lines.push(
        `wisp: pending inquiry ${p.id}: ${visible(String(p.question), { maxChars: 300 })} — ask your person, then call respond ` +
          `with thread_id "${threadId}" and answers: [{"id": "${p.id}", "text": "<their answer>"}]`,
      );
    } else {
      lines.push(
        `wisp: pending approval ${p.id} for ${visible(String(p.command), { maxChars: 200 })} — only a person can answer it, ` +
          `in a terminal: wisp approvals approve ${p.id}; then call respond again on thread "${threadId}"`,
      );
    }
  }
  for (const r of s.refusals) {
    if (s.pending.some((p) => p.id === r.escalationId)) continue;
    lines.push(`wisp: refused ${visible(r.command, { maxChars: 200 })}: ${visible(r.reason, { maxChars: 600 })}`); // a reason may quote a part
  }
  // The reply is the model's account; a failed edit or read is said in wisp's own words too (ADR 0097).
  for (const e of s.receipt.errors) lines.push(`wisp: ${visible(e.tool, { maxChars: 64 })} failed: ${visible(e.error, { maxChars: 600 })}`);
  return lines.length ? lines.join('\n') : undefined;
}

/** A tool event as one progress line. */
export function eventLine(event: ToolEvent): string {
  switch (event.type) {
    case 'gate': {
      const how = event.allowed ? event.notes.join('; ') : (event.notes[event.notes.length - 1] ?? event.reason ?? 'refused');
      return `${event.tool}: ${visible(event.subject, { maxChars: 160 })} — ${visible(how, { maxChars: 400 })}`;
    }
    case 'output':
      return `${event.tool}: ${visible(event.subject, { maxChars: 80 })} finished`;
    case 'inquiry':
      return `ask_operator: ${visible(event.question, { maxChars: 160 })} — ${event.outcome}`;
    case 'failed':
      return `${visible(event.tool, { maxChars: 64 })} failed: ${visible(event.error, { maxChars: 400 })}`;
  }
}
