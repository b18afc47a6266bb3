// Backtick substitutions as bash reads them, where tree-sitter-bash reads them otherwise (attack8): in the body of a
// heredoc with an unquoted delimiter it leaves `…` as plain text (bash runs it, as it runs $(…) there), and inside
// `…` it keeps the backslashes bash removes before it parses the inner text (`\`` opens a nested substitution).
import type { SyntaxNode } from './tree.js';
import { type Collector, type Ctx, makeCtx } from './context.js';
import type { Part } from '../types.js';

/** bash's unescaping inside backticks and in an unquoted heredoc's body: `\$`, `\``, `\\` lose the backslash. */
export function unescapeBackquoted(text: string): string {
  return text.includes('\\') ? text.replace(/\\([$`\\])/g, '$1') : text;
}

/** Whether a backtick substitution's inner text means something else once unescaped (`\``, `\$`). */
export function backquoteNests(inner: string): boolean {
  return inner.includes('\\`') || inner.includes('\\$');
}

/** Whether a heredoc's delimiter is quoted (`<<'EOF'`, `<<"EOF"`, `<<\\EOF`): its body is then plain text. */
export function heredocQuoted(c: Collector, r: SyntaxNode): boolean {
  const start = r.children.find((n) => n.type === 'heredoc_start');
  return start !== undefined && /['"\\]/.test(c.slice(start));
}

/**
 * The text of a heredoc's body. tree-sitter reads a body that starts with a backslash as words of the header
 * (`sh <<EOF` + `\\$'…' x`) and leaves its body node empty: the text from the first such word to the end marker.
 */
export function heredocBodyText(c: Collector, r: SyntaxNode): string | undefined {
  const body = r.children.find((n) => n.type === 'heredoc_body');
  if (body !== undefined && body.endIndex > body.startIndex) return c.slice(body);
  const start = r.children.find((n) => n.type === 'heredoc_start');
  const end = r.children.find((n) => n.type === 'heredoc_end');
  const header = start === undefined ? -1 : c.src.indexOf('\n', start.endIndex);
  if (header < 0 || end === undefined) return body === undefined ? undefined : c.slice(body);
  let from = end.startIndex;
  for (const n of r.children) if (n.startIndex >= header && n.startIndex < from && n.type !== 'heredoc_body') from = n.startIndex;
  return c.src.slice(from, end.startIndex);
}

/** A substitution's body: one level deeper, parsed on its own. */
function substitutionCtx(ctx: Ctx): Ctx {
  return makeCtx(ctx.depth + 1, 'substitution', undefined, [], undefined);
}

/** Parses `inner` (a backtick substitution's text) as bash does: unescaped, one level deeper. */
export function emitBackquoted(c: Collector, inner: string, ctx: Ctx): void {
  c.nested(unescapeBackquoted(inner), substitutionCtx(ctx), c.parts);
}

/**
 * Parses what an unquoted heredoc's body runs that tree-sitter left as text: each backtick substitution, and, where
 * it left a `$(`, `${` or `$[` unread too (a delimiter starting with `$`: `<<$EOF`), the whole body again under a
 * plain delimiter. What tree-sitter read itself is skipped; a backslash escapes the next character; an unclosed
 * backtick runs to the end.
 */
export function emitHeredocBackticks(c: Collector, body: SyntaxNode, ctx: Ctx): void {
  const spans = unreadSubstitutions(c, body);
  if (spans === 'reread') emitBodyReread(c, body, ctx);
  else for (const inner of spans) emitBackquoted(c, inner, ctx);
}

/** The inner texts of the body's unread backticks, or 'reread' when an unread `$(`, `${` or `$[` is there. */
function unreadSubstitutions(c: Collector, body: SyntaxNode): string[] | 'reread' {
  const src = c.src;
  const end = body.endIndex;
  const read = body.namedChildren.filter((n) => n.type !== 'heredoc_content');
  const spans: string[] = [];
  let k = 0;
  for (let i = body.startIndex; i < end; i++) {
    while (k < read.length && read[k]!.endIndex <= i) k++;
    if (k < read.length && read[k]!.startIndex <= i) {
      i = read[k]!.endIndex - 1;
      continue;
    }
    const ch = src[i];
    if (ch === '\\') {
      i++;
      continue;
    }
    if (ch === '$' && (src[i + 1] === '(' || src[i + 1] === '{' || src[i + 1] === '[')) return 'reread';
    if (ch !== '`') continue;
    let j = i + 1;
    while (j < end && src[j] !== '`') j += src[j] === '\\' ? 2 : 1;
    spans.push(src.slice(i + 1, Math.min(j, end)));
    i = j;
  }
  return spans;
}

/** The body parsed again as the body of `: <<END` (END a line the body does not hold); the `:` part is left out. */
function emitBodyReread(c: Collector, body: SyntaxNode, ctx: Ctx): void {
  const text = c.slice(body);
  const lines = text.split('\n');
  let end = 'WISP_HEREDOC_END';
  while (lines.includes(end)) end += '_';
  const header = `: <<${end}`;
  const parts: Part[] = [];
  c.nested(`${header}\n${text}${text.endsWith('\n') ? '' : '\n'}${end}\n`, makeCtx(ctx.depth + 1, ctx.origin, undefined, [], undefined), parts);
  for (const part of parts) if (!part.text.startsWith(header)) c.parts.push(part);
}
