// How a queued request is put in front of a person (design.md §10, ADR 0005). The headline is authored text — the
// operator's `ask` or wisp's own fixed words — never model text. Everything model-derived (the command, the line,
// the question) sits in a labelled block, made visible by src/core/visible.ts. Every field shown here is a
// field hashed into the binding, and nothing else is shown: what the person reads is what the answer is bound to.
import { hasHidden, hasLongRun, visible } from '../../core/visible.js';
import type { QueueRequest } from './files.js';

export const APPROVAL_HEADLINE = 'wisp asks: may this command run?';
export const INQUIRY_HEADLINE = 'wisp asks: the model has a question for you';

// Shown whole: a person answers only what they have seen. The request schema bounds every field (command and line
// 64 KiB, reasons 64 × 2000…), and long blank runs collapse to a flagged marker (⟨990 spaces⟩).
const WHOLE = { maxChars: Number.POSITIVE_INFINITY, collapseRuns: true } as const;
const LABEL_WIDTH = 15;

function field(label: string, value: string): string {
  return `  ${label.padEnd(LABEL_WIDTH)}${value}`;
}

/** A labelled block: every line of the (visible, multi-line) text behind a gutter, so no line can pose as a label. */
function block(label: string, text: string): string[] {
  const shown = visible(text, { ...WHOLE, multiline: true });
  const lines = [`  ${label}:`, ...shown.split('\n').map((l) => `  │ ${l}`)];
  if (hasHidden(text)) {
    lines.push(
      '  ! it contains control, escape, invisible or bidi characters, shown escaped above (\\x1b, <U+202E>, …);',
      '    backslashes in it are shown doubled. Decline unless you expected them.',
    );
  }
  if (hasLongRun(text)) {
    lines.push('  ! it contains long runs of blank characters, shown collapsed above (⟨990 spaces⟩): look past them.');
  }
  return lines;
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${String(m % 60).padStart(2, '0')}m`;
}

function expiry(req: QueueRequest, now: number): string {
  if (req.expiresAt === null) return 'no expiry (waits while the asking process runs)';
  return `expires ${req.expiresAt} (in ${formatDuration(Date.parse(req.expiresAt) - now)})`;
}

/** The full, multi-line description shown before an answer is written. */
export function describeRequest(req: QueueRequest, now: number = Date.now()): string {
  const lines: string[] = [];
  if (req.verb === 'approval') {
    lines.push(req.ask !== null ? visible(req.ask, { maxChars: 200 }) : APPROVAL_HEADLINE);
    lines.push(...block('command', req.command));
    if (req.line !== req.command) lines.push(...block('part of', req.line));
    lines.push(field('directory', visible(req.directory, WHOLE)));
    lines.push(field('level', req.level));
    if (req.reasons.length === 0) lines.push(field('reasons', '(none given)'));
    req.reasons.forEach((r, i) => lines.push(field(i === 0 ? 'reasons' : '', `- ${visible(r, WHOLE)}`)));
    lines.push(field('remembered as', visible(req.pattern, WHOLE)));
  } else {
    lines.push(INQUIRY_HEADLINE);
    lines.push(...block('question', req.question));
    if (req.schema !== undefined) {
      lines.push(field('answer shape', visible(JSON.stringify(req.schema), WHOLE)));
    }
  }
  lines.push(field('asked by', `${visible(req.client, WHOLE)} (pid ${req.pid})`));
  lines.push(field('thread', req.thread === null ? '(none)' : visible(req.thread, WHOLE)));
  lines.push(
    field(
      'request',
      `${req.id} · ${req.mode === 'waiting' ? 'the asking process is waiting' : 'collected by the asker later'} · filed ${req.createdAt}`,
    ),
  );
  lines.push(field('', expiry(req, now)));
  return lines.join('\n');
}
