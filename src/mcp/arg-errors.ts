// How wisp words invalid tool arguments: one message that names each problem and says what to send instead.
// (The escalation channel is the operator's choice, never an argument; approvals are never answered in `answers`.)
import type { z } from 'zod';

export function describeIssues(tool: 'respond' | 'close_thread', error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : '(arguments)';
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys;
      if (tool === 'respond' && keys.some((k) => ['escalation', 'channel', 'yes'].includes(k))) {
        return `${keys.join(', ')}: not an argument; the escalation channel is chosen by the operator (wisp mcp --escalation), never per call`;
      }
      if (tool === 'respond' && issue.path[0] === 'answers' && keys.includes('scope')) {
        return `${where}: answers carry {id, text}; an approval is answered only by a person in a terminal with \`wisp approvals approve ID\``;
      }
      return `${where}: unknown argument${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
    }
    if (where === 'thread_id' && issue.code === 'invalid_format') {
      return 'thread_id: use 1 to 64 of A-Z a-z 0-9 . _ -';
    }
    return `${where}: ${issue.message}`;
  });
  const usage =
    tool === 'respond'
      ? 'respond takes {prompt, thread_id?, instructions?, tools?, answers?: [{id, text, answeredBy?}]}'
      : 'close_thread takes {thread_id}';
  return `invalid arguments for ${tool}: ${parts.join('; ')}. ${usage}`;
}
