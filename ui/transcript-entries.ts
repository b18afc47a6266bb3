// What the transcript holds: plain data, appended once and never changed (it is drawn in Ink's <Static>). Turning
// a ToolEvent or a dialog's ending into entries happens here; drawing (and visible()) happens in Transcript.tsx.
// Not named transcript.ts: on a case-insensitive file system (macOS) both would build to one dist/ui/transcript.js.
import { parseLine, parserReady } from '../src/gate/parse.js';
import type { ToolEvent } from '../src/tools/types.js';
import type { DialogRequest, DialogResult } from './dialog-store.js';

export type EntryBody =
  | { readonly kind: 'prompt'; readonly text: string }
  /** One line of the model's reply (the reply is appended line by line as it streams). */
  | { readonly kind: 'reply'; readonly text: string }
  /** A tool call and what the gate said: `run_command: ls — safe by rules`. */
  | { readonly kind: 'gate'; readonly tool: string; readonly subject: string; readonly allowed: boolean; readonly note: string }
  /** The tail of a command's output. */
  | { readonly kind: 'output'; readonly text: string }
  | { readonly kind: 'inquiry'; readonly question: string; readonly outcome: string }
  /** A tool call that failed without a refusal; its text may quote a model's path, so it is drawn on one line. */
  | { readonly kind: 'failed'; readonly tool: string; readonly error: string }
  /** What the person answered to a question dialog (shown made visible and cut). */
  | { readonly kind: 'answer'; readonly question: string; readonly text: string }
  /** A dialog for another wisp process, and how it ended. */
  | { readonly kind: 'remote'; readonly what: string; readonly client: string; readonly thread: string | null; readonly outcome: string }
  /** wisp's own words (slash commands, notices). */
  | { readonly kind: 'info'; readonly text: string }
  | { readonly kind: 'error'; readonly text: string };

export type Entry = EntryBody & { readonly id: number };

/** The entries for one tool event, as the gate and the tools report them. */
export function entriesForEvent(event: ToolEvent): EntryBody[] {
  switch (event.type) {
    case 'gate': {
      const named = event.tool === 'run_command' ? namedNotes(event.subject, event.notes) : undefined;
      const note =
        named ??
        (event.allowed ? event.notes.join('; ') || 'allowed' : (event.notes[event.notes.length - 1] ?? event.reason ?? 'refused'));
      return [{ kind: 'gate', tool: event.tool, subject: event.subject, allowed: event.allowed, note }];
    }
    case 'output':
      return event.text ? [{ kind: 'output', text: event.text }] : [];
    case 'inquiry':
      return [{ kind: 'inquiry', question: event.question, outcome: event.outcome }];
    case 'failed':
      return [{ kind: 'failed', tool: event.tool, error: event.error }];
  }
}

/**
 * `bodies` with each held answer placed right under the line of the question it answers; the answers placed are
 * taken out of `held`.
 */
export function withAnswers(bodies: EntryBody[], held: EntryBody[]): EntryBody[] {
  if (held.length === 0) return bodies;
  return bodies.flatMap((b) => {
    if (b.kind !== 'inquiry') return [b];
    const at = held.findIndex((h) => h.kind === 'answer' && h.question === b.question);
    return at < 0 ? [b] : [b, ...held.splice(at, 1)];
  });
}

/** How a dialog for another wisp process ended, in a few words. */
export function remoteOutcome(result: DialogResult): string {
  switch (result.kind) {
    case 'approved':
      return `you approved (${result.scope})`;
    case 'answered':
      return 'you answered';
    case 'declined':
      return 'you declined';
    case 'unanswered':
      return 'no answer in time, refused';
    case 'closed':
      return result.reason;
  }
}

export function remoteEntry(request: DialogRequest, outcome: string): EntryBody {
  const source = request.source.kind === 'queue' ? request.source : { client: 'unknown', thread: null };
  const what = request.verb === 'approval' ? request.request.command : request.request.question;
  return { kind: 'remote', what, client: source.client, thread: source.thread, outcome };
}

/**
 * Splits streamed reply text into whole lines (appended to the transcript) and the unfinished last line (drawn
 * live until it ends). `push` returns the lines completed by this piece.
 */
export class ReplyLines {
  private partial = '';
  push(delta: string): string[] {
    const text = this.partial + delta;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    return lines;
  }
  /** The unfinished line so far. */
  get pending(): string {
    return this.partial;
  }
  /** Ends the reply: whatever is left is its last line. */
  flush(): string[] {
    const rest = this.partial;
    this.partial = '';
    return rest === '' ? [] : [rest];
  }
}

/**
 * For a line of several parts, each part named with its outcome (`ls: safe by rules; touch x: approved (session)`):
 * the gate reports one note per part it cleared, in the parser's order, and stops at the first refusal. Undefined
 * when the line is one part, the parser is not loaded, or the notes do not line up with the parts.
 */
function namedNotes(line: string, notes: readonly string[]): string | undefined {
  // A policy refusal is about the whole line, not a part.
  if (notes.length === 0 || !parserReady() || notes.some((n) => n.startsWith('blocked by policy'))) return undefined;
  let parts: readonly { text: string }[];
  try {
    parts = parseLine(line).parts;
  } catch {
    return undefined;
  }
  if (parts.length < 2 || notes.length > parts.length) return undefined;
  const named = notes.map((note, i) => `${parts[i]!.text}: ${note}`);
  const unasked = parts.length - notes.length;
  return named.join('; ') + (unasked > 0 ? `; ${unasked} more part${unasked === 1 ? '' : 's'} not reached` : '');
}
