// The words of an MCP approval dialog: its headline (authored text only: a config rule's `ask`, or wisp's fixed
// words), the message with the command and its risk (model-derived text only in labelled lines, through visible(),
// design.md §10), and the scope picker. Also how long a wait is, in words, for the inquiry form too.
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { visible } from '../core/visible.js';
import { SCOPES, type Scope } from '../core/scopes.js';
import type { ApprovalRequest } from '../escalation/types.js';

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

export function silence(timeoutMs: number, what: string): string {
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

