// Shell line → parts, with web-tree-sitter and the tree-sitter-bash grammar (docs/decisions/0001-shell-parser.md).
// Loading is async and happens once (`initParser`); parsing is synchronous. Whatever the parser cannot read becomes
// an `unparsed` part — never dropped — so the classifier can rate it at least moderate (fail closed).
import { createRequire } from 'node:module';
import type { Node as TsNode, Parser as TsParser } from 'web-tree-sitter';
import type { ParsedLine, Part, WordShape } from './types.js';
import { MAX_PARTS } from './limits.js';
import { shellOf } from './shells.js';
import { decodeAnsiC, requote, roughSegments, unescapeDoubleQuoted, unescapeUnquoted } from './words.js';
import { resolveCommand } from './wrappers.js';

/** How deep `sh -c '…'` / `eval …` bodies are re-parsed before the rest is kept whole as unparsed. */
export const MAX_DEPTH = 8;

let parser: TsParser | undefined;
let initializing: Promise<void> | undefined;

/** Loads the WASM runtime and the bash grammar once; later calls return at once. */
export function initParser(): Promise<void> {
  if (parser) return Promise.resolve();
  initializing ??= (async () => {
    const require = createRequire(import.meta.url);
    const runtimeWasm = require.resolve('web-tree-sitter/web-tree-sitter.wasm');
    const grammarWasm = require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
    const { Parser, Language } = await import('web-tree-sitter');
    await Parser.init({ locateFile: () => runtimeWasm });
    const language = await Language.load(grammarWasm);
    const p = new Parser();
    p.setLanguage(language);
    parser = p;
  })().catch((err: unknown) => {
    initializing = undefined; // let a later call retry
    throw err;
  });
  return initializing;
}

export function parserReady(): boolean {
  return parser !== undefined;
}

/**
 * Thrown (instead of turning the text into an `unparsed` part) when a text needs tree-sitter while the parser is not
 * loaded and `withoutParser` is running: the caller loads the parser and starts over (ADR 0040).
 */
export class ParserNotReady extends Error {
  constructor() {
    super('the shell parser is not initialised: await initParser() before parseLine()');
  }
}

/** While true, parsing without a loaded parser throws ParserNotReady for texts the plain-word path does not take. */
let lazy = false;
/** Tests switch the plain-word path off to compare it with tree-sitter (test/fuzz/plain-words.fuzz.test.ts). */
let plainPathOn = true;

/** Whether text can be parsed now: the parser is loaded, or `withoutParser` runs (texts needing it then throw). */
export function canParse(): boolean {
  return parser !== undefined || lazy;
}

/**
 * Runs `fn` where parsing plain-word texts needs no parser (`wisp check -- ls`, ADR 0040). When `fn` reaches a text
 * that does need it, ParserNotReady escapes and the parser is loaded and `fn` run again from the start: the answer is
 * always the one the parser-backed path gives.
 */
export async function withoutParser<T>(fn: () => T, load: () => Promise<void> = initParser): Promise<T> {
  if (!parser) {
    lazy = true;
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof ParserNotReady)) throw err;
    } finally {
      lazy = false;
    }
    await load();
  }
  return fn();
}

/** Runs `fn` with the plain-word path switched off: every text goes through tree-sitter. For the differential test. */
export function treeSitterOnly<T>(fn: () => T): T {
  const before = plainPathOn;
  plainPathOn = false;
  try {
    return fn();
  } finally {
    plainPathOn = before;
  }
}

// The plain-word path (ADR 0040). A text of nothing but plain words — a small character set, no quotes, escapes,
// expansions, globs, operators, comments or newlines — is one simple command whose words are its blank-separated
// pieces, as tree-sitter reads it. A differential fuzz test (test/fuzz/plain-words.fuzz.test.ts, and many more lines
// in test:stress) keeps the two paths identical. Where tree-sitter-bash reads such text otherwise (a reserved word or
// declaration first, a program name starting with `-` or holding `@`/`%`/`=`/`+`/`:`, a word starting with `=`, `+:`), the text takes the
// tree-sitter path.
const PLAIN_TEXT = /^[ \t]*[A-Za-z0-9_./][A-Za-z0-9_./-]*(?:[ \t]+[A-Za-z0-9_./,:@%+=-]+)*[ \t]*$/;
const NOT_PLAIN_NAME = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'in', 'function', 'select',
  'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv',
]);

/** Whether the plain-word path reads `line` itself (what it runs may still need the parser). */
export function isPlainLine(line: string): boolean {
  return plainWords(line) !== undefined;
}

/** The words of `src` when the plain-word path can read it, else undefined. */
function plainWords(src: string): string[] | undefined {
  if (!plainPathOn || src.length > BOUNDED_LENGTH || !PLAIN_TEXT.test(src)) return undefined;
  const words = src.split(/[ \t]+/).filter((w) => w !== '');
  if (NOT_PLAIN_NAME.has(words[0]!)) return undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith('=') || w.includes('+:')) return undefined;
  }
  return words;
}

type Origin = Part['origin'];

interface Ctx {
  readonly depth: number;
  readonly origin: Origin;
  readonly keyword?: string;
  readonly redirects: readonly string[];
  readonly pipeline?: { readonly text: string; readonly stage: number };
}

/** Node types whose presence in a command name makes the name dynamic. */
const DYNAMIC_TYPES = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
]);

class Collector {
  readonly parts: Part[] = [];
  /**
   * @param clean the tree has no ERROR or MISSING node anywhere (the root's hasError is false), so the per-node
   * checks can be skipped — each is a call into the wasm runtime.
   */
  constructor(
    readonly src: string,
    readonly clean = false,
  ) {}

  slice(n: TsNode): string {
    return this.src.slice(n.startIndex, n.endIndex);
  }
}

// Bounded parsing (issue #12.4, ADR 0019). tree-sitter's error recovery is super-linear on some shapes: 16 KiB of
// nested `( ls (` took 19 s, of `<<` 8 s. Short texts are always parsed (their worst case is milliseconds). Longer
// ones share one deadline per line, checked in tree-sitter's progress callback; the shapes known to be slow are not
// handed to it at all (deterministic, and tree-sitter may go a long stretch without a callback). Either way the text
// becomes an `unparsed` part: at least moderate, never run unasked (fail closed).
const BOUNDED_LENGTH = 1024;
/** Wall-clock budget for all the parsing of one line whose text is longer than BOUNDED_LENGTH. */
export const PARSE_BUDGET_MS = 250;
/**
 * CPU budget for the same parsing (issue 12.4): on an idle machine the wall-clock budget alone let one hostile line
 * (16 KiB of `a|`) take 250 ms of CPU in tree-sitter's error recovery; an ordinary 16 KiB line parses in under 10.
 */
export const PARSE_CPU_BUDGET_MS = 40;
let deadline = Number.POSITIVE_INFINITY;
let cpuAtStart = 0;
let statements = 0;

/** More than MAX_PARTS statements: the line becomes one unparsed part (at least moderate). */
class TooManyParts extends Error {}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function outOfTime(): boolean {
  return performance.now() > deadline || cpuMs() - cpuAtStart > PARSE_CPU_BUDGET_MS;
}

/** Shapes that make tree-sitter-bash's error recovery slow: many heredoc operators, deep parenthesis nesting. */
function knownSlowShape(src: string): boolean {
  let heredocs = 0;
  let depth = 0;
  let maxDepth = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x3c && src.charCodeAt(i + 1) === 0x3c) heredocs++;
    else if (c === 0x28) maxDepth = Math.max(maxDepth, ++depth);
    else if (c === 0x29) depth = Math.max(0, depth - 1);
  }
  return heredocs > 32 || maxDepth > 64;
}

/** tree-sitter's parse, bounded for long texts; null when it was not parsed (too slow a shape, or out of time). */
function boundedParse(p: TsParser, src: string): ReturnType<TsParser['parse']> {
  if (src.length <= BOUNDED_LENGTH) return p.parse(src);
  if (knownSlowShape(src) || outOfTime()) return null;
  // The callback's boolean cancels the parse (tree-sitter ≥ 0.25); the declared type says void.
  const progressCallback = outOfTime as unknown as (state: unknown) => void;
  const tree = p.parse(src, null, { progressCallback });
  // A cancelled parse is resumed by the parser's next call unless it is reset: the next line would be read with this
  // one's half-built state (it came out as one-letter parts with no error).
  if (tree === null) p.reset();
  return tree;
}

/** Parses one line into its parts. Synchronous; needs `initParser()` first. Never throws on any input once ready. */
export function parseLine(line: string): ParsedLine {
  if (!parser && !lazy) throw new ParserNotReady();
  deadline = performance.now() + PARSE_BUDGET_MS;
  cpuAtStart = line.length > BOUNDED_LENGTH ? cpuMs() : 0;
  statements = 0;
  const parts: Part[] = [];
  try {
    parseSource(line, { depth: 0, origin: 'line', redirects: [] }, parts);
  } catch (err) {
    if (err instanceof ParserNotReady) throw err;
    // TooManyParts lands here too: the line is then read roughly, as one part (fail closed).
    // Any surprise inside the walk: keep the whole line as one unreadable part (fail closed).
    parts.length = 0;
    parts.push(unparsedPart(line));
  }
  return { line, parts, hadErrors: parts.some((p) => p.unparsed === true) };
}

function unparsedPart(raw: string, keyword?: string): Part {
  // Surrounding blanks are the parser's error span, not part of what a person should read or approve.
  const text = raw.trim() === '' ? raw : raw.trim();
  const words = roughSegments(text).flat();
  return {
    text,
    words,
    redirects: [],
    origin: 'unparsed',
    unparsed: true,
    ...(keyword ? { keyword } : {}),
  };
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
    visitPlain(source, plain, ctx, out);
    return;
  }
  if (!parser) throw new ParserNotReady();
  const p = parser;
  const src = joinContinuations(p, source);
  const tree = boundedParse(p, src);
  if (!tree) {
    out.push(unparsedPart(source));
    return;
  }
  try {
    const root = tree.rootNode;
    const c = new Collector(src, !root.hasError);
    visitBlock(c, root, ctx);
    out.push(...c.parts);
  } finally {
    tree.delete();
  }
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

/** Visits every statement child of a container node (program, subshell, do_group, compound statement …). */
function visitBlock(c: Collector, node: TsNode, ctx: Ctx): void {
  for (const child of node.children) {
    if (!child.isNamed) {
      if (!c.clean && (child.isMissing || child.isError)) c.parts.push(unparsedPart(c.slice(child) || child.type, ctx.keyword));
      continue;
    }
    if (child.type === 'comment') continue;
    visitStatement(c, child, ctx);
  }
}

function visitStatement(c: Collector, node: TsNode, ctx: Ctx): void {
  if (++statements > MAX_PARTS) throw new TooManyParts();
  if (!c.clean && (node.hasError || node.isError || node.isMissing)) {
    c.parts.push(unparsedPart(c.slice(node), ctx.keyword));
    return;
  }
  switch (node.type) {
    case 'command':
      visitCommand(c, node, ctx, []);
      return;
    case 'redirected_statement':
      visitRedirected(c, node, ctx);
      return;
    case 'pipeline': {
      const stages = node.namedChildren.filter((n) => n.type !== 'comment');
      const text = c.slice(node);
      stages.forEach((stage, i) => visitStatement(c, stage, { ...ctx, pipeline: { text, stage: i } }));
      return;
    }
    case 'list':
      for (const child of node.namedChildren) {
        if (child.type !== 'comment') visitStatement(c, child, { ...ctx, pipeline: undefined });
      }
      return;
    case 'negated_command':
      visitBlock(c, node, ctx);
      return;
    case 'subshell':
      visitBlock(c, node, { ...ctx, origin: 'subshell', pipeline: undefined });
      return;
    case 'compound_statement':
      if (node.firstChild?.type === '((') {
        visitArithmetic(c, node, ctx);
      } else {
        visitBlock(c, node, { ...ctx, pipeline: undefined });
      }
      return;
    case 'for_statement':
    case 'c_style_for_statement':
    case 'while_statement':
    case 'until_statement':
      visitLoop(c, node, ctx);
      return;
    case 'if_statement':
    case 'elif_clause':
    case 'else_clause':
      visitIf(c, node, ctx);
      return;
    case 'case_statement':
      visitCase(c, node, ctx);
      return;
    case 'function_definition':
      visitFunction(c, node, ctx);
      return;
    case 'test_command': {
      emitSubstitutions(c, node, ctx);
      const words = testWords(c, node);
      const part = makePart(c, node, ctx, words, [], false);
      // `[ -d src ]` of plain words only (no quotes, expansions, globs or `[[`): its words are literal.
      const plain = words[0] === '[' && /^\[[A-Za-z0-9_.,:/@%+= \t!-]*\]$/.test(c.slice(node));
      c.parts.push(plain ? { ...part, shapes: words.map(() => 'literal' as const) } : part);
      return;
    }
    case 'declaration_command':
    case 'unset_command':
      emitSubstitutions(c, node, ctx);
      c.parts.push(makePart(c, node, ctx, declarationWords(c, node), [], false));
      return;
    case 'variable_assignment':
    case 'variable_assignments': {
      emitSubstitutions(c, node, ctx);
      const assigns = node.type === 'variable_assignment' ? [node] : node.namedChildren;
      c.parts.push(makePart(c, node, ctx, assigns.map((a) => assignmentWord(c, a)), [], false));
      return;
    }
    default:
      // A construct this walker does not know is kept whole rather than guessed at.
      c.parts.push(unparsedPart(c.slice(node), ctx.keyword));
  }
}

function visitArithmetic(c: Collector, node: TsNode, ctx: Ctx): void {
  emitSubstitutions(c, node, ctx);
  const text = c.slice(node);
  c.parts.push(makePart(c, node, ctx, ['((', text.slice(2, -2).trim(), '))'], [], false));
}

function visitLoop(c: Collector, node: TsNode, ctx: Ctx): void {
  const base: Ctx = { ...ctx, pipeline: undefined };
  if (node.type === 'c_style_for_statement') {
    // The `((init; cond; step))` header is arithmetic the shell evaluates: a part of its own, like `(( … ))`.
    const open = node.children.find((n) => n.type === '((');
    const close = node.children.find((n) => n.type === '))');
    if (open && close && close.startIndex >= open.endIndex) {
      const inner = c.src.slice(open.endIndex, close.startIndex).trim();
      c.parts.push({
        text: c.src.slice(open.startIndex, close.endIndex),
        words: ['((', inner, '))'],
        redirects: [...ctx.redirects],
        origin: ctx.origin,
        keyword: 'for',
      });
    }
  }
  const loopKeyword = node.firstChild?.type === 'until' ? 'until' : 'while';
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    const field = node.fieldNameForChild(i);
    if (!child.isNamed || child.type === 'comment') continue;
    if (child.type === 'do_group' || (field === 'body' && child.type === 'compound_statement')) {
      visitBlock(c, child, { ...base, keyword: 'do' });
    } else if (field === 'condition' && (node.type === 'while_statement' || node.type === 'until_statement')) {
      visitStatement(c, child, { ...base, keyword: loopKeyword });
    } else {
      // for-loop words, c-style initialiser/condition/update: only substitutions run.
      emitSubstitutions(c, child, base);
    }
  }
}

function visitIf(c: Collector, node: TsNode, ctx: Ctx): void {
  const base: Ctx = { ...ctx, pipeline: undefined };
  let keyword = node.type === 'else_clause' ? 'else' : node.type === 'elif_clause' ? 'elif' : 'if';
  for (const child of node.children) {
    if (!child.isNamed) {
      if (child.type === 'then') keyword = 'then';
      continue;
    }
    if (child.type === 'comment') continue;
    if (child.type === 'elif_clause' || child.type === 'else_clause') {
      visitIf(c, child, ctx);
    } else {
      visitStatement(c, child, { ...base, keyword });
    }
  }
}

function visitCase(c: Collector, node: TsNode, ctx: Ctx): void {
  const base: Ctx = { ...ctx, pipeline: undefined };
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    if (!child.isNamed || child.type === 'comment') continue;
    if (child.type !== 'case_item') {
      emitSubstitutions(c, child, base);
      continue;
    }
    for (let k = 0; k < child.childCount; k++) {
      const item = child.child(k)!;
      if (!item.isNamed || item.type === 'comment') continue;
      if (child.fieldNameForChild(k) === 'value') emitSubstitutions(c, item, base);
      else visitStatement(c, item, { ...base, keyword: 'case' });
    }
  }
}

function visitFunction(c: Collector, node: TsNode, ctx: Ctx): void {
  // The definition is its own part (exact-text pattern, at least moderate), then its body's commands.
  const name = node.childForFieldName('name');
  c.parts.push({
    text: c.slice(node),
    words: [name ? wordValue(c, name) : ''],
    redirects: [],
    origin: ctx.origin,
    keyword: 'function',
  });
  const body = node.childForFieldName('body');
  if (body) visitStatement(c, body, { ...ctx, pipeline: undefined });
  for (const r of node.childrenForFieldName('redirect')) emitSubstitutions(c, r, ctx);
}

function visitRedirected(c: Collector, node: TsNode, ctx: Ctx): void {
  const body = node.childForFieldName('body');
  const redirects = node.childrenForFieldName('redirect');
  if (body?.type === 'command') {
    visitCommand(c, body, ctx, redirects);
    return;
  }
  if (!body) {
    // A bare redirection (`> file`): it still opens, and may truncate, a file.
    emitSubstitutions(c, node, ctx);
    const texts = redirects.map((r) => redirectText(c, r));
    c.parts.push(makePart(c, node, ctx, [], texts, false));
    return;
  }
  // A compound command with redirections: its commands inherit them (`{ a; b; } > out`, `while …; done < f`).
  const texts = redirects.map((r) => redirectText(c, r));
  for (const r of redirects) emitSubstitutions(c, r, ctx);
  visitStatement(c, body, { ...ctx, redirects: [...ctx.redirects, ...texts] });
  for (const r of redirects) if (r.type === 'heredoc_redirect') visitHeredocTail(c, r, ctx, node);
}

/**
 * The text a redirect contributes to its command. A heredoc is its `<<EOF` header, a newline, then its body and end
 * marker — without what tree-sitter files under it from the rest of the header line (`| sh`, `&& …`).
 */
function redirectText(c: Collector, r: TsNode): string {
  if (r.type !== 'heredoc_redirect') return c.slice(r);
  const start = r.children.find((n) => n.type === 'heredoc_start');
  const header = c.src.slice(r.startIndex, start ? start.endIndex : r.endIndex);
  const body = r.children.find((n) => n.type === 'heredoc_body');
  const end = r.children.find((n) => n.type === 'heredoc_end');
  const from = body?.startIndex ?? end?.startIndex;
  return from === undefined ? header : header + '\n' + c.src.slice(from, end?.endIndex ?? body?.endIndex ?? from);
}

/** Redirects nested inside a heredoc header (`cat <<EOF > out`). */
function heredocInnerRedirects(r: TsNode): TsNode[] {
  const out: TsNode[] = [];
  for (let i = 0; i < r.childCount; i++) {
    if (r.fieldNameForChild(i) === 'redirect') out.push(r.child(i)!);
  }
  return out;
}

/**
 * tree-sitter-bash puts what follows `<<EOF` on the same line inside the heredoc node: the rest of a pipeline
 * (`cat <<EOF | sh`) or of a list (`cat <<EOF && rm x`). Those commands are visited here, after the owner.
 */
function visitHeredocTail(c: Collector, r: TsNode, ctx: Ctx, owner: TsNode): void {
  for (let i = 0; i < r.childCount; i++) {
    const child = r.child(i)!;
    const field = r.fieldNameForChild(i);
    if (child.type === 'pipeline' && field !== 'redirect') {
      const text = c.src.slice(owner.startIndex, r.endIndex);
      const first = ctx.pipeline?.stage ?? 0;
      child.namedChildren
        .filter((n) => n.type !== 'comment')
        .forEach((stage, k) => visitStatement(c, stage, { ...ctx, pipeline: { text, stage: first + k + 1 } }));
    } else if (field === 'right' || (child.isNamed && field === null && isStatementType(child.type))) {
      visitStatement(c, child, { ...ctx, pipeline: undefined });
    }
  }
}

function isStatementType(type: string): boolean {
  return (
    type === 'command' ||
    type === 'list' ||
    type === 'redirected_statement' ||
    type === 'subshell' ||
    type === 'compound_statement' ||
    type === 'negated_command'
  );
}

function heredocPipelineText(c: Collector, owner: TsNode, redirects: readonly TsNode[]): string | undefined {
  for (const r of redirects) {
    if (r.type !== 'heredoc_redirect') continue;
    for (let i = 0; i < r.childCount; i++) {
      const child = r.child(i)!;
      // Up to the heredoc's end marker, so the key of a stage that runs its input includes the body it reads.
      if (child.type === 'pipeline' && r.fieldNameForChild(i) !== 'redirect') return c.src.slice(owner.startIndex, r.endIndex);
    }
  }
  return undefined;
}

function visitCommand(c: Collector, cmd: TsNode, ctx: Ctx, outerRedirects: readonly TsNode[]): void {
  const words: string[] = [];
  // How each word was written (aligned with `words`): only literal words can make a part safe (table/literal.ts).
  const shapes: WordShape[] = [];
  const redirectNodes: TsNode[] = [...outerRedirects];
  let nameNode: TsNode | null = null;
  let prevEnd = -1;
  // Each property read below is a call into the wasm runtime: read every one once per child.
  const children = cmd.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    const type = child.type;
    const named = child.isNamed;
    // A field name is only needed for anonymous children (`$`, `==`, `=~` as arguments); the redirect field holds
    // named *_redirect nodes only (tree-sitter-bash node-types.json).
    const field = named ? undefined : cmd.fieldNameForChild(i);
    if (field === 'redirect' || type.endsWith('_redirect')) {
      redirectNodes.push(child);
      continue;
    }
    if (type === 'variable_assignment') {
      words.push(assignmentWord(c, child));
      const value = child.childForFieldName('value');
      shapes.push(value ? wordShape(c, value) : 'literal');
      prevEnd = -1;
      continue;
    }
    if (type === 'command_name') {
      nameNode = child;
      const first = child.firstChild;
      words.push(first ? wordValue(c, first) : c.slice(child));
      shapes.push(first ? wordShape(c, first) : 'dynamic');
      prevEnd = child.endIndex;
      continue;
    }
    if (field === 'argument' || named || type === '$') {
      if (type === 'comment') continue;
      const value = wordValue(c, child);
      // Pieces the grammar splits but the shell joins (`$"…"`) touch each other: one word.
      if (child.startIndex === prevEnd && words.length > 0) {
        // A lone `$` right before "…" is the translation prefix of `$"…"`, not a character of the word.
        const prev = words[words.length - 1]!;
        const translated = child.type === 'string' && prev.endsWith('$') && c.src[child.startIndex - 1] === '$' && c.src[child.startIndex - 2] !== '\\';
        words[words.length - 1] = (translated ? prev.slice(0, -1) : prev) + value;
        shapes[shapes.length - 1] = joinShapes(shapes[shapes.length - 1] ?? 'dynamic', translated ? wordShape(c, child) : 'dynamic');
      } else {
        words.push(value);
        shapes.push(wordShape(c, child));
      }
      prevEnd = child.endIndex;
    }
  }

  // Substitutions run before the command: their bodies are parts of their own, listed first. Redirects inside the
  // command node (here-strings) were covered by the first call; only the outer ones need their own walk.
  emitSubstitutions(c, cmd, ctx);
  for (const r of outerRedirects) {
    if (r.type === 'heredoc_redirect') {
      for (const inner of heredocInnerRedirects(r)) emitSubstitutions(c, inner, ctx);
      const body = r.children.find((n) => n.type === 'heredoc_body');
      if (body && !heredocQuoted(r)) emitSubstitutions(c, body, ctx);
    } else {
      emitSubstitutions(c, r, ctx);
    }
  }

  const ownRedirects: TsNode[] = [];
  for (const r of redirectNodes) {
    ownRedirects.push(r);
    if (r.type === 'heredoc_redirect') ownRedirects.push(...heredocInnerRedirects(r));
  }
  const redirectTexts = [...ctx.redirects, ...ownRedirects.map((r) => redirectText(c, r))];

  // The part's text runs from the command to the end of its own redirections (not a heredoc's body or tail).
  const start = Math.min(cmd.startIndex, ...redirectNodes.map((r) => r.startIndex));
  let end = cmd.endIndex;
  for (const r of ownRedirects) {
    if (r.type === 'heredoc_redirect') {
      const hs = r.children.find((n) => n.type === 'heredoc_start');
      end = Math.max(end, hs ? hs.endIndex : r.startIndex + 2);
    } else {
      end = Math.max(end, r.endIndex);
    }
  }
  let dynamicName = false;
  // Every dynamic node type starts with `$`, a backtick, `<(` or `>(`: a name without them needs no walk.
  if (nameNode && mayExpand(c.slice(nameNode))) dynamicName = hasDescendantOf(nameNode, DYNAMIC_TYPES);

  const pipelineText =
    ctx.pipeline?.text ??
    (outerRedirects.length > 0 ? heredocPipelineText(c, cmd.parent?.type === 'redirected_statement' ? cmd.parent : cmd, outerRedirects) : undefined);
  const part: Part = {
    text: c.src.slice(start, end),
    words,
    ...(shapes.length === words.length ? { shapes } : {}),
    redirects: redirectTexts,
    origin: ctx.origin,
    ...(dynamicName ? { dynamicName: true } : {}),
    ...(ctx.keyword ? { keyword: ctx.keyword } : {}),
    ...(pipelineText !== undefined ? { pipeline: pipelineText, pipeStage: ctx.pipeline?.stage ?? 0 } : {}),
  };
  c.parts.push(part);

  // Bodies run by the command come after it: `sh -c '…'`, `eval …`, a shell fed by a heredoc or here-string.
  if (!dynamicName) emitNestedScripts(c, words, redirectNodes, ctx);

  for (const r of outerRedirects) if (r.type === 'heredoc_redirect') visitHeredocTail(c, r, ctx, cmd.parent ?? cmd);
  for (const r of redirectNodes) {
    if (r.type === 'heredoc_redirect' && !outerRedirects.includes(r)) visitHeredocTail(c, r, ctx, cmd);
  }
}

/** A plain-word text: the one part visitCommand makes of such a command, then the bodies its program runs. */
function visitPlain(source: string, words: string[], ctx: Ctx, out: Part[]): void {
  const c = new Collector(source, true);
  const shapes: WordShape[] = words.map(() => 'literal');
  c.parts.push({
    text: source.trim(),
    words,
    shapes,
    redirects: [...ctx.redirects],
    origin: ctx.origin,
    ...(ctx.keyword ? { keyword: ctx.keyword } : {}),
    ...(ctx.pipeline ? { pipeline: ctx.pipeline.text, pipeStage: ctx.pipeline.stage } : {}),
  });
  emitNestedScripts(c, words, [], ctx);
  out.push(...c.parts);
}

function heredocQuoted(r: TsNode): boolean {
  const start = r.children.find((n) => n.type === 'heredoc_start');
  return start !== undefined && /['"\\]/.test(start.text);
}

/** ssh options that take a value: the first operand after them is the host, the rest the remote command. */
const SSH_VALUE_OPTIONS = 'BbcDEeFIiJLlmOoPpQRSWw';

function emitNestedScripts(c: Collector, words: readonly string[], redirects: readonly TsNode[], ctx: Ctx): void {
  const resolved = resolveCommand(words);
  const exe = resolved.executable;
  const nested: Ctx = { depth: ctx.depth + 1, origin: 'shell-c', redirects: [] };
  const args = resolved.args;
  if (exe === 'eval') {
    if (args.length > 0) parseNested(args.join(' '), { ...nested, origin: 'eval' }, c.parts);
    return;
  }
  // `watch CMD…` hands its words, joined, to `sh -c` (unless -x/--exec).
  const watchAt = resolved.wrappers.indexOf('watch');
  if (watchAt >= 0 && !resolved.words.some((w) => w === '-x' || w === '--exec')) {
    const start = resolved.layers[watchAt + 1];
    if (start !== undefined) parseNested(resolved.words.slice(start).join(' '), nested, c.parts);
    return;
  }
  // `trap 'CODE' SIGNAL…`: the code runs later, in this shell.
  if (exe === 'trap' && args.length >= 2 && !args[0]!.startsWith('-')) {
    parseNested(args[0]!, { ...nested, origin: 'eval' }, c.parts);
    return;
  }
  // `ssh [opts] host CMD…`: the remote command is a shell line too (it runs elsewhere, but it still runs).
  if (exe === 'ssh') {
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (!a.startsWith('-')) break;
      const last = a[a.length - 1]!;
      if (a.length === 2 && SSH_VALUE_OPTIONS.includes(last)) i++;
    }
    if (i + 1 < args.length) parseNested(args.slice(i + 1).join(' '), nested, c.parts);
    return;
  }
  // `find … -exec CMD … ;|+`: the command runs once per file; it is a part of its own.
  if (exe === 'find') {
    for (let i = 0; i < args.length; i++) {
      if (!/^-(exec|execdir|ok|okdir)$/.test(args[i]!)) continue;
      let end = i + 1;
      while (end < args.length && args[end] !== ';' && args[end] !== '+') end++;
      const inner = args.slice(i + 1, end);
      if (inner.length > 0 && ctx.depth < MAX_DEPTH) {
        c.parts.push({ text: inner.map(requote).join(' '), words: inner, redirects: [], origin: 'shell-c' });
        emitNestedScripts(c, inner, [], nested);
      }
      i = end;
    }
    return;
  }
  const shell = shellOf(exe, args);
  if (shell === undefined) return;
  const script = shellCommandString(shell.args);
  if (script.kind === 'string') {
    parseNested(script.value, nested, c.parts);
    return;
  }
  if (script.kind === 'stdin') {
    for (const r of redirects) {
      if (r.type === 'heredoc_redirect') {
        const body = r.children.find((n) => n.type === 'heredoc_body');
        if (body) parseNested(c.slice(body), nested, c.parts);
      } else if (r.type === 'herestring_redirect') {
        const value = r.namedChildren[r.namedChildCount - 1];
        if (value) parseNested(wordValue(c, value), nested, c.parts);
      }
    }
  }
}

function parseNested(source: string, ctx: Ctx, out: Part[]): void {
  if (ctx.depth > MAX_DEPTH) {
    out.push(unparsedPart(source));
    return;
  }
  parseSource(source, ctx, out);
}

/**
 * Reads a shell's arguments: with `-c` the first operand is the script text; without operands the shell reads its
 * script from stdin; otherwise it runs a script file.
 */
export function shellCommandString(args: readonly string[]): { kind: 'string'; value: string } | { kind: 'stdin' } | { kind: 'file' } | { kind: 'none' } {
  let cFlag = false;
  let sFlag = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--' || a === '-') {
      const operand = args[i + 1];
      if (cFlag) return operand === undefined ? { kind: 'none' } : { kind: 'string', value: operand };
      return operand === undefined ? { kind: 'stdin' } : { kind: 'file' };
    }
    if (a.startsWith('--')) {
      if (a === '--rcfile' || a === '--init-file') i++;
      continue;
    }
    if ((a.startsWith('-') || a.startsWith('+')) && a.length > 1) {
      const letters = a.slice(1);
      if (a.startsWith('-') && letters.includes('c')) cFlag = true;
      if (a.startsWith('-') && letters.includes('s')) sFlag = true;
      if (/[oO]$/.test(letters)) i++; // `-o pipefail`, `-O extglob`
      continue;
    }
    if (cFlag) return { kind: 'string', value: a };
    return sFlag ? { kind: 'stdin' } : { kind: 'file' };
  }
  return cFlag ? { kind: 'none' } : { kind: 'stdin' };
}

/** Emits parts for every `$(…)`, backtick and `<(…)`/`>(…)` in `node` (the node itself included), outermost first. */
function emitSubstitutions(c: Collector, node: TsNode, ctx: Ctx): void {
  // A node's range covers its descendants, so text without `$(`, a backtick, `<(` or `>(` holds no substitution:
  // skip the walk (each node visited is several calls into the wasm runtime).
  if (!maySubstitute(c.slice(node))) return;
  if (node.type === 'command_substitution') {
    visitBlock(c, node, { ...ctx, origin: 'substitution', keyword: undefined, redirects: [], pipeline: undefined });
    return;
  }
  if (node.type === 'process_substitution') {
    visitBlock(c, node, { ...ctx, origin: 'process-substitution', keyword: undefined, redirects: [], pipeline: undefined });
    return;
  }
  for (const child of node.children) {
    if (child.type === 'heredoc_body' && child.parent && heredocQuoted(child.parent)) continue; // plain text
    if ((child.childCount > 0 || child.type.endsWith('_substitution')) && !isNestedStatementHolder(child)) {
      emitSubstitutions(c, child, ctx);
    }
  }
}

/** Children that hold statements visited separately (heredoc tails), so their substitutions are not counted twice. */
function isNestedStatementHolder(n: TsNode): boolean {
  if (n.type === 'pipeline' && n.parent?.type === 'heredoc_redirect') return true;
  return isStatementType(n.type) && n.parent?.type === 'heredoc_redirect';
}

/** Whether text could contain a command or process substitution (`$(…)`, `` `…` ``, `<(…)`, `>(…)`). */
function maySubstitute(text: string): boolean {
  return text.includes('$(') || text.includes('`') || text.includes('<(') || text.includes('>(');
}

/** Whether text could contain an expansion or substitution (anything in DYNAMIC_TYPES). */
function mayExpand(text: string): boolean {
  return text.includes('$') || text.includes('`') || text.includes('<(') || text.includes('>(');
}

function hasDescendantOf(node: TsNode, types: ReadonlySet<string>): boolean {
  if (types.has(node.type)) return true;
  for (const child of node.children) if (hasDescendantOf(child, types)) return true;
  return false;
}

function makePart(c: Collector, node: TsNode, ctx: Ctx, words: string[], redirects: string[], dynamicName: boolean): Part {
  return {
    text: c.slice(node),
    words,
    redirects: [...ctx.redirects, ...redirects],
    origin: ctx.origin,
    ...(dynamicName ? { dynamicName: true } : {}),
    ...(ctx.keyword ? { keyword: ctx.keyword } : {}),
    ...(ctx.pipeline ? { pipeline: ctx.pipeline.text, pipeStage: ctx.pipeline.stage } : {}),
  };
}

function testWords(c: Collector, node: TsNode): string[] {
  const text = c.slice(node);
  const open = text.startsWith('[[') ? '[[' : '[';
  const close = open === '[[' ? ']]' : ']';
  const inner = text.slice(open.length, text.endsWith(close) ? -close.length : undefined);
  return [open, ...roughSegments(inner).flat(), close];
}

function declarationWords(c: Collector, node: TsNode): string[] {
  const words: string[] = [];
  for (const child of node.children) {
    if (!child.isNamed) {
      if (/^[a-z]+$/.test(child.type)) words.push(child.type); // export, local, declare, unset …
      continue;
    }
    words.push(child.type === 'variable_assignment' ? assignmentWord(c, child) : wordValue(c, child));
  }
  return words;
}

function assignmentWord(c: Collector, node: TsNode): string {
  const value = node.childForFieldName('value');
  const name = node.childForFieldName('name');
  const nameText = name ? c.slice(name) : '';
  const op = node.children.find((n) => !n.isNamed && (n.type === '=' || n.type === '+='))?.type ?? '=';
  return nameText + op + (value ? wordValue(c, value) : '');
}

/** A word's value after quote removal; expansions and substitutions stay as written (their value is unknown). */
function wordValue(c: Collector, node: TsNode): string {
  switch (node.type) {
    case 'word':
      return unescapeUnquoted(c.slice(node));
    case 'raw_string':
      return c.slice(node).slice(1, -1);
    case 'ansi_c_string':
      return decodeAnsiC(c.slice(node).slice(2, -1));
    case 'string':
      return stringValue(c, node, node.startIndex + 1, node.endIndex - 1);
    case 'translated_string': {
      const inner = node.namedChildren[0];
      return inner ? wordValue(c, inner) : c.slice(node).slice(2, -1);
    }
    case 'concatenation': {
      let out = '';
      let pos = node.startIndex;
      const children = node.children;
      for (let i = 0; i < children.length; i++) {
        const child = children[i]!;
        if (child.startIndex > pos) out += unescapeUnquoted(c.src.slice(pos, child.startIndex));
        // `$"…"` inside a word (`"su"$"do"`): the `$` only marks a translated string and adds nothing.
        const next = children[i + 1];
        const translationMark = child.type === '$' && next?.type === 'string' && next.startIndex === child.endIndex;
        if (!translationMark) out += wordValue(c, child);
        pos = child.endIndex;
      }
      if (node.endIndex > pos) out += unescapeUnquoted(c.src.slice(pos, node.endIndex));
      return out;
    }
    default:
      return c.slice(node);
  }
}

/** The inside of `"…"`: literal stretches unescaped, expansions kept as written. */
function stringValue(c: Collector, node: TsNode, from: number, to: number): string {
  let out = '';
  let pos = from;
  for (const child of node.children) {
    if (child.startIndex < from || child.endIndex > to) continue; // the quotes themselves
    if (child.startIndex > pos) out += unescapeDoubleQuoted(c.src.slice(pos, child.startIndex));
    out += child.type === 'string_content' ? unescapeDoubleQuoted(c.slice(child)) : c.slice(child);
    pos = child.endIndex;
  }
  if (to > pos) out += unescapeDoubleQuoted(c.src.slice(pos, to));
  return out;
}

/**
 * How a word was written: `literal` (plain text and quoted literals), `glob` (unquoted `*`, `?` or `[`: the shell
 * replaces it with file names), or `dynamic` (any expansion, substitution, brace expansion or odd syntax).
 */
function wordShape(c: Collector, node: TsNode): WordShape {
  switch (node.type) {
    case 'word':
    case 'number':
      return unquotedShape(c.slice(node));
    case 'raw_string':
    case 'ansi_c_string':
      return 'literal';
    case 'string':
      return node.namedChildren.every((n) => n.type === 'string_content') && !/[$`]/.test(c.slice(node).replace(/\\[\s\S]/g, '')) ? 'literal' : 'dynamic';
    case 'translated_string': {
      const inner = node.namedChildren[0];
      return inner ? wordShape(c, inner) : 'literal';
    }
    case 'concatenation': {
      let shape: WordShape = 'literal';
      let pos = node.startIndex;
      for (const child of node.children) {
        if (child.startIndex > pos) shape = joinShapes(shape, unquotedShape(c.src.slice(pos, child.startIndex)));
        // `$"…"` inside a word: the `$` only marks a translated string.
        if (child.type !== '$') shape = joinShapes(shape, wordShape(c, child));
        pos = child.endIndex;
      }
      if (node.endIndex > pos) shape = joinShapes(shape, unquotedShape(c.src.slice(pos, node.endIndex)));
      return shape;
    }
    default:
      return 'dynamic';
  }
}

/** Unquoted text: backslash-escaped characters are literal; `$`, backticks, parentheses, braces are not. */
function unquotedShape(text: string): WordShape {
  let shape: WordShape = 'literal';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if ('$`(){}<>|;&\'"'.includes(ch)) {
      if (text === '{}') continue; // find's placeholder, not a brace expansion
      return 'dynamic';
    }
    if (ch === '*' || ch === '?' || ch === '[') shape = 'glob';
  }
  return shape;
}

function joinShapes(a: WordShape, b: WordShape): WordShape {
  if (a === 'dynamic' || b === 'dynamic') return 'dynamic';
  return a === 'glob' || b === 'glob' ? 'glob' : 'literal';
}
