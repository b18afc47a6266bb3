// Shell line → parts, with web-tree-sitter and the tree-sitter-bash grammar (docs/decisions/0001-shell-parser.md).
// Loading is async and happens once (`initParser`); parsing is synchronous. Whatever the parser cannot read becomes
// an `unparsed` part — never dropped — so the classifier can rate it at least moderate (fail closed).
// The pieces live in src/gate/parse/: the runtime and its bounds, the plain-word path, the walk over the tree, word
// decoding, and the nested-script rules; this module joins them.
import type { Parser as TsParser, Node as TsNode } from 'web-tree-sitter';
import type { ParsedLine, Part } from './types.js';
import { Collector, type Ctx, MAX_DEPTH, TooManyParts, lineCtx, startCounting, unparsedPart } from './parse/context.js';
import { fastPathsOn, plainWords } from './parse/plain.js';
import { readSimple } from './parse/simple.js';
import { readHeredocHeader } from './parse/heredoc-header.js';
import { readSubstitutionLine } from './parse/substitution-line.js';
import { readCompound } from './parse/compound.js';
import { type SyntaxNode, readTree, treeHasError } from './parse/tree.js';
import { BOUNDED_LENGTH, ParserNotReady, boundedParse, canParse, loadedParser, startBudget } from './parse/runtime.js';
import { visitBlock, visitHeredocHeader, visitPlain, visitSimple, visitSubstitutionLine } from './parse/walk.js';

export { MAX_DEPTH } from './parse/context.js';
export { shellCommandString } from './parse/nested.js';
export { isPlainLine, treeSitterOnly } from './parse/plain.js';

/** Whether the simple-line reader (ADR 0052) reads `line` itself, without tree-sitter. */
export function isSimpleLine(line: string): boolean {
  return readSimple(line) !== undefined;
}

/** Whether the heredoc-header reader (ADR 0084) reads `line` itself, without tree-sitter. */
export function isHeredocHeader(line: string): boolean {
  return readHeredocHeader(line) !== undefined;
}

/** Whether the compound-line reader (ADR 0091) reads `line` itself, without tree-sitter. */
export function isCompoundLine(line: string): boolean {
  return readCompound(endedText(line)) !== undefined;
}

/** Whether the substitution-line reader (ADR 0084) reads `text` itself, without tree-sitter. */
export function isSubstitutionLine(text: string): boolean {
  return readSubstitutionLine(text) !== undefined;
}
export {
  PARSE_BUDGET_MS,
  PARSE_CPU_BUDGET_MS,
  ParserNotReady,
  canParse,
  initParser,
  parserReady,
  withoutParser,
} from './parse/runtime.js';

/** Parses one line into its parts. Synchronous; needs `initParser()` first. Never throws on any input once ready. */
export function parseLine(line: string): ParsedLine {
  if (!canParse()) throw new ParserNotReady();
  startBudget(line);
  startCounting();
  const parts: Part[] = [];
  try {
    parseSource(line, lineCtx(), parts);
  } catch (err) {
    if (err instanceof ParserNotReady) throw err;
    // TooManyParts lands here too: the line is then read roughly, as one part (fail closed).
    // Any surprise inside the walk: keep the whole line as one unreadable part (fail closed).
    parts.length = 0;
    parts.push(unparsedPart(line));
  }
  return { line, parts, hadErrors: parts.some((p) => p.unparsed === true) };
}

/** Parses `source` (a line, or an `sh -c`/`eval` body) and appends its parts. */
function parseSource(source: string, ctx: Ctx, out: Part[]): void {
  if (source.trim() === '') return;
  if (ctx.depth > MAX_DEPTH) {
    out.push(unparsedPart(source));
    return;
  }
  const plain = plainWords(source);
  if (plain) {
    visitPlain(source, plain, ctx, out, parseNested);
    return;
  }
  const simple = fastPathsOn() ? readSimple(source) : undefined;
  if (simple) {
    visitSimple(source, simple, ctx, out, parseNested);
    return;
  }
  const header = fastPathsOn() ? readHeredocHeader(source) : undefined;
  if (header) {
    visitHeredocHeader(source, header, ctx, out, parseNested);
    return;
  }
  const substitution = fastPathsOn() ? readSubstitutionLine(source) : undefined;
  if (substitution) {
    visitSubstitutionLine(source, substitution.inner, substitution.line, ctx, out, parseNested);
    return;
  }
  // The compound-line reader builds tree-sitter's own tree for its subset (ADR 0091); the walk is the same.
  const compound = fastPathsOn() ? readCompound(endedText(source)) : undefined;
  if (compound) {
    const c = new Collector(source, true, parseNested);
    visitBlock(c, compound, ctx);
    out.push(...c.parts);
    return;
  }
  const p = loadedParser();
  const src = joinContinuations(p, source);
  const ended = endedText(src);
  let tree = boundedParse(p, ended);
  let hasError = tree !== null && treeHasError(tree);
  // Where tree-sitter had to recover from an error, the newline can move the error's span: such a text is read as
  // it was written, as before (its parse is the slow one anyway).
  if (tree && ended !== src && hasError) {
    tree.delete();
    tree = boundedParse(p, src);
    hasError = tree !== null && treeHasError(tree);
  }
  if (!tree) {
    out.push(unparsedPart(source));
    return;
  }
  try {
    // The tree is read once into plain objects (ADR 0072); the walk then makes no call into the wasm runtime.
    const root = readTree(tree, hasError);
    const c = new Collector(src, !root.hasError, parseNested);
    visitBlock(c, root, ctx);
    out.push(...c.parts);
    // tree-sitter-bash reads two backtick substitutions apart (`` `a` `b` ``) as one, whose command name holds a
    // "``" token: the second command would be rated as part of a name. The text is also kept whole, as an unparsed
    // part read roughly (each command rated; its key the exact text): both readings count (fail closed).
    if (holdsBacktickPair(root)) out.push(unparsedPart(source));
  } finally {
    tree.delete();
  }
}

/** Whether the tree holds tree-sitter-bash's "``" token (two backtick substitutions misread as one). */
function holdsBacktickPair(root: SyntaxNode): boolean {
  const todo: SyntaxNode[] = [root];
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (n.type === '``') return true;
    for (const k of n.children) todo.push(k);
  }
  return false;
}

/** Tests switch the final newline off to compare both readings (test/gate/parse-newline.test.ts). */
let endWithNewline = true;

/** Runs `fn` with texts handed to tree-sitter exactly as written (no final newline). For the differential test. */
export function parsedAsWritten<T>(fn: () => T): T {
  const before = endWithNewline;
  endWithNewline = false;
  try {
    return fn();
  } finally {
    endWithNewline = before;
  }
}

/**
 * The text handed to tree-sitter: ended with a newline, which makes tree-sitter-bash's parse of multi-stage
 * pipelines about three times faster at the p99 (ADR 0052). Node offsets are unchanged (the newline comes last) and
 * the parts are sliced from the text as written. Long texts (bounded parsing, ADR 0019) and texts whose end a
 * newline could change — a heredoc, a final backslash (blanks after it too), a text already ending in a newline — are parsed as they are,
 * and so is a text whose parse needed error recovery (parseSource parses it again without the newline).
 */
function endedText(src: string): string {
  // A backslash before trailing blanks too (`ls -a \ `): with the newline tree-sitter drops the escaped blank's word
  // without an error; as written it keeps an unparsed part (asked about).
  if (!endWithNewline || src.length > BOUNDED_LENGTH || src.endsWith('\n') || src.trimEnd().endsWith('\\') || src.includes('<<')) return src;
  return src + '\n';
}

/**
 * Joins backslash-newline continuations outside single quotes and quoted heredocs, so `a\<newline>b` is the one word
 * `ab` as the shell reads it (tree-sitter treats the continuation as a word break).
 */
function joinContinuations(p: TsParser, source: string): string {
  if (!source.includes('\\\n')) return source;
  const tree = boundedParse(p, source);
  if (!tree) return source;
  try {
    let out = '';
    let last = 0;
    for (let i = source.indexOf('\\\n'); i >= 0; i = source.indexOf('\\\n', i + 2)) {
      let slashes = 0;
      for (let j = i; j >= 0 && source[j] === '\\'; j--) slashes++;
      if (slashes % 2 === 0) continue; // `\\` + newline: an escaped backslash, then a real newline
      let keep = false;
      for (let n: TsNode | null = tree.rootNode.descendantForIndex(i, i + 1); n; n = n.parent) {
        // bash joins lines in the body of a heredoc whose delimiter is unquoted before it looks for the delimiter:
        // `E\` + newline + `OF` ends `<<EOF`, and what follows runs (attack8). Only a quoted delimiter keeps them.
        if (n.type === 'heredoc_body' && !quotedHeredoc(n)) continue;
        if (n.type === 'raw_string' || n.type === 'heredoc_body' || n.type === 'comment' || n.type === 'ansi_c_string') {
          keep = true;
          break;
        }
      }
      if (keep) continue;
      out += source.slice(last, i);
      last = i + 2;
    }
    return out + source.slice(last);
  } finally {
    tree.delete();
  }
}

/** Whether the heredoc `body` belongs to was opened with a quoted delimiter (`<<'EOF'`, `<<"EOF"`, `<<\\EOF`). */
function quotedHeredoc(body: TsNode): boolean {
  const start = body.parent?.children.find((c) => c?.type === 'heredoc_start');
  // No start beside it (a tree tree-sitter recovered from an error): read it as bash reads `<<WORD`, unquoted.
  return start !== undefined && start !== null && /['"\\]/.test(start.text);
}

/** A body a command runs, parsed with the same bounds (MAX_DEPTH) as the line. */
function parseNested(source: string, ctx: Ctx, out: Part[]): void {
  if (ctx.depth > MAX_DEPTH) {
    out.push(unparsedPart(source));
    return;
  }
  parseSource(source, ctx, out);
}

