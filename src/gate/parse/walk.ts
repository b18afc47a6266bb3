// The walk over tree-sitter-bash's syntax tree: every statement of a parsed text becomes a part (a simple command,
// a declaration, a test, an arithmetic command …), in the order the shell runs them; substitutions first, the bodies
// a command runs after it. What the walk does not know is kept whole as an unparsed part (fail closed).
import type { SyntaxNode } from './tree.js';
import type { Part, WordShape } from '../types.js';
import { Collector, type Ctx, type ParseNested, countStatement, keyed, makeCtx, newPart, unparsedPart, unpiped } from './context.js';
import type { SimpleLine } from './simple.js';
import type { HeredocHeader } from './heredoc-header.js';
import { emitNestedScripts } from './nested.js';
import { backquoteNests, emitBackquoted, emitHeredocBackticks, heredocQuoted } from './backticks.js';
import { assignmentWord, declarationWords, joinShapes, testWords, wordShape, wordValue } from './word-value.js';

/** Node types whose presence in a command name makes the name dynamic. */
const DYNAMIC_TYPES = new Set([
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
]);

/** Visits every statement child of a container node (program, subshell, do_group, compound statement …). */
export function visitBlock(c: Collector, node: SyntaxNode, ctx: Ctx): void {
  for (const child of node.children) {
    if (!child.isNamed) {
      if (!c.clean && (child.isMissing || child.isError)) c.parts.push(unparsedPart(c.slice(child) || child.type, ctx.keyword));
      continue;
    }
    if (child.type === 'comment') continue;
    visitStatement(c, child, ctx);
  }
}

function visitStatement(c: Collector, node: SyntaxNode, ctx: Ctx): void {
  countStatement();
  // The cheap flags first: hasError may ask the tree through the Node API (ADR 0076), which an ERROR node needs not.
  if (!c.clean && (node.isError || node.isMissing || node.hasError)) {
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
      // Its named children but comments, in order, each the next stage.
      const text = c.slice(node);
      let stage = 0;
      for (const child of node.children) {
        if (child.isNamed && child.type !== 'comment') visitStatement(c, child, makeCtx(ctx.depth, ctx.origin, ctx.keyword, ctx.redirects, { text, stage: stage++ }));
      }
      return;
    }
    case 'list':
      for (const child of node.children) {
        if (child.isNamed && child.type !== 'comment') visitStatement(c, child, unpiped(ctx));
      }
      return;
    case 'negated_command':
      visitBlock(c, node, ctx);
      return;
    case 'subshell':
      visitBlock(c, node, makeCtx(ctx.depth, 'subshell', ctx.keyword, ctx.redirects, undefined));
      return;
    case 'compound_statement':
      if (node.firstChild?.type === '((') {
        visitArithmetic(c, node, ctx);
      } else {
        visitBlock(c, node, unpiped(ctx));
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
      // `[ -d src ]` of plain words only (no quotes, expansions, globs or `[[`): its words are literal.
      const plain = words[0] === '[' && /^\[[A-Za-z0-9_.,:/@%+= \t!-]*\]$/.test(c.slice(node));
      c.parts.push(plain ? plainTestPart(c, node, ctx, words) : makePart(c, node, ctx, words, []));
      return;
    }
    case 'declaration_command':
    case 'unset_command':
      emitSubstitutions(c, node, ctx);
      c.parts.push(makePart(c, node, ctx, declarationWords(c, node), []));
      return;
    case 'variable_assignment':
    case 'variable_assignments': {
      emitSubstitutions(c, node, ctx);
      const assigns = node.type === 'variable_assignment' ? [node] : node.namedChildren;
      c.parts.push(makePart(c, node, ctx, assigns.map((a) => assignmentWord(c, a)), []));
      return;
    }
    default:
      // A construct this walker does not know is kept whole rather than guessed at.
      c.parts.push(unparsedPart(c.slice(node), ctx.keyword));
  }
}

function visitArithmetic(c: Collector, node: SyntaxNode, ctx: Ctx): void {
  emitSubstitutions(c, node, ctx);
  const text = c.slice(node);
  c.parts.push(makePart(c, node, ctx, ['((', text.slice(2, -2).trim(), '))'], []));
}

function visitLoop(c: Collector, node: SyntaxNode, ctx: Ctx): void {
  const base: Ctx = unpiped(ctx);
  if (node.type === 'c_style_for_statement') {
    // The `((init; cond; step))` header is arithmetic the shell evaluates: a part of its own, like `(( … ))`.
    const open = node.children.find((n) => n.type === '((');
    const close = node.children.find((n) => n.type === '))');
    if (open && close && close.startIndex >= open.endIndex) {
      const inner = c.src.slice(open.endIndex, close.startIndex).trim();
      c.parts.push(newPart(c.src.slice(open.startIndex, close.endIndex), ['((', inner, '))'], undefined, [...ctx.redirects], ctx.origin, undefined, undefined, 'for', undefined, undefined));
    }
  }
  const loopKeyword = node.firstChild?.type === 'until' ? 'until' : 'while';
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i)!;
    const field = node.fieldNameForChild(i);
    if (!child.isNamed || child.type === 'comment') continue;
    if (child.type === 'do_group' || (field === 'body' && child.type === 'compound_statement')) {
      visitBlock(c, child, keyed(ctx, 'do'));
    } else if (field === 'condition' && (node.type === 'while_statement' || node.type === 'until_statement')) {
      visitStatement(c, child, keyed(ctx, loopKeyword));
    } else {
      // for-loop words, c-style initialiser/condition/update: only substitutions run.
      emitSubstitutions(c, child, base);
    }
  }
}

function visitIf(c: Collector, node: SyntaxNode, ctx: Ctx): void {
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
      visitStatement(c, child, keyed(ctx, keyword));
    }
  }
}

function visitCase(c: Collector, node: SyntaxNode, ctx: Ctx): void {
  const base: Ctx = unpiped(ctx);
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
      else visitStatement(c, item, keyed(ctx, 'case'));
    }
  }
}

function visitFunction(c: Collector, node: SyntaxNode, ctx: Ctx): void {
  // The definition is its own part (exact-text pattern, at least moderate), then its body's commands.
  const name = node.childForFieldName('name');
  c.parts.push(newPart(c.slice(node), [name ? wordValue(c, name) : ''], undefined, [], ctx.origin, undefined, undefined, 'function', undefined, undefined));
  const body = node.childForFieldName('body');
  if (body) visitStatement(c, body, unpiped(ctx));
  for (const r of node.childrenForFieldName('redirect')) emitSubstitutions(c, r, ctx);
}

function visitRedirected(c: Collector, node: SyntaxNode, ctx: Ctx): void {
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
    c.parts.push(makePart(c, node, ctx, [], texts));
    return;
  }
  // A compound command with redirections: its commands inherit them (`{ a; b; } > out`, `while …; done < f`).
  const texts = redirects.map((r) => redirectText(c, r));
  for (const r of redirects) emitSubstitutions(c, r, ctx);
  visitStatement(c, body, makeCtx(ctx.depth, ctx.origin, ctx.keyword, [...ctx.redirects, ...texts], ctx.pipeline));
  for (const r of redirects) if (r.type === 'heredoc_redirect') visitHeredocTail(c, r, ctx, node);
}

/**
 * The text a redirect contributes to its command. A heredoc is its `<<EOF` header, a newline, then its body and end
 * marker — without what tree-sitter files under it from the rest of the header line (`| sh`, `&& …`).
 */
function redirectText(c: Collector, r: SyntaxNode): string {
  if (r.type !== 'heredoc_redirect') return c.slice(r);
  const start = r.children.find((n) => n.type === 'heredoc_start');
  const header = c.src.slice(r.startIndex, start ? start.endIndex : r.endIndex);
  const body = r.children.find((n) => n.type === 'heredoc_body');
  const end = r.children.find((n) => n.type === 'heredoc_end');
  const from = body?.startIndex ?? end?.startIndex;
  return from === undefined ? header : header + '\n' + c.src.slice(from, end?.endIndex ?? body?.endIndex ?? from);
}

/** Redirects nested inside a heredoc header (`cat <<EOF > out`). */
function heredocInnerRedirects(r: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let i = 0; i < r.childCount; i++) {
    if (r.fieldNameForChild(i) === 'redirect') out.push(r.child(i)!);
  }
  return out;
}

/**
 * tree-sitter-bash puts what follows `<<EOF` on the same line inside the heredoc node: the rest of a pipeline
 * (`cat <<EOF | sh`) or of a list (`cat <<EOF && rm x`). Those commands are visited here, after the owner.
 */
function visitHeredocTail(c: Collector, r: SyntaxNode, ctx: Ctx, owner: SyntaxNode): void {
  for (let i = 0; i < r.childCount; i++) {
    const child = r.child(i)!;
    const field = r.fieldNameForChild(i);
    if (child.type === 'pipeline' && field !== 'redirect') {
      const text = c.src.slice(owner.startIndex, r.endIndex);
      const first = ctx.pipeline?.stage ?? 0;
      child.namedChildren
        .filter((n) => n.type !== 'comment')
        .forEach((stage, k) => visitStatement(c, stage, makeCtx(ctx.depth, ctx.origin, ctx.keyword, ctx.redirects, { text, stage: first + k + 1 })));
    } else if (field === 'right' || (child.isNamed && field === null && isStatementType(child.type))) {
      visitStatement(c, child, unpiped(ctx));
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

function heredocPipelineText(c: Collector, owner: SyntaxNode, redirects: readonly SyntaxNode[]): string | undefined {
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

function visitCommand(c: Collector, cmd: SyntaxNode, ctx: Ctx, outerRedirects: readonly SyntaxNode[]): void {
  const words: string[] = [];
  // How each word was written (aligned with `words`): only literal words can make a part safe (table/literal.ts).
  const shapes: WordShape[] = [];
  // The outer redirections, then the command's own: a list of its own only when the command has some.
  let redirectNodes: readonly SyntaxNode[] = outerRedirects;
  let nameNode: SyntaxNode | null = null;
  let prevEnd = -1;
  const children = cmd.children;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    const type = child.type;
    const named = child.isNamed;
    // A field name is only needed for anonymous children (`$`, `==`, `=~` as arguments); the redirect field holds
    // named *_redirect nodes only (tree-sitter-bash node-types.json).
    const field = named ? undefined : cmd.fieldNameForChild(i);
    if (field === 'redirect' || type.endsWith('_redirect')) {
      redirectNodes = redirectNodes === outerRedirects ? [...outerRedirects, child] : [...redirectNodes, child];
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
      if (body && !heredocQuoted(c, r)) emitSubstitutions(c, body, ctx);
    } else {
      emitSubstitutions(c, r, ctx);
    }
  }

  const ownRedirects: SyntaxNode[] = [];
  const redirectTexts = ctx.redirects.slice();
  for (const r of redirectNodes) {
    ownRedirects.push(r);
    if (r.type === 'heredoc_redirect') ownRedirects.push(...heredocInnerRedirects(r));
  }
  for (const r of ownRedirects) redirectTexts.push(redirectText(c, r));

  // The part's text runs from the command to the end of its own redirections (not a heredoc's body or tail).
  let start = cmd.startIndex;
  for (const r of redirectNodes) if (r.startIndex < start) start = r.startIndex;
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
  if (nameNode && c.mayExpand(nameNode.startIndex, nameNode.endIndex)) dynamicName = hasDescendantOf(nameNode, DYNAMIC_TYPES);

  const pipelineText =
    ctx.pipeline?.text ??
    (outerRedirects.length > 0 ? heredocPipelineText(c, cmd.parent?.type === 'redirected_statement' ? cmd.parent : cmd, outerRedirects) : undefined);
  c.parts.push(
    newPart(
      c.src.slice(start, end),
      words,
      shapes.length === words.length ? shapes : undefined,
      redirectTexts,
      ctx.origin,
      undefined,
      dynamicName ? true : undefined,
      ctx.keyword,
      pipelineText,
      pipelineText !== undefined ? (ctx.pipeline?.stage ?? 0) : undefined,
    ),
  );

  // Bodies run by the command come after it: `sh -c '…'`, `eval …`, a shell fed by a heredoc or here-string.
  if (!dynamicName) emitNestedScripts(c, words, redirectNodes, ctx);

  for (const r of outerRedirects) if (r.type === 'heredoc_redirect') visitHeredocTail(c, r, ctx, cmd.parent ?? cmd);
  for (const r of redirectNodes) {
    if (r.type === 'heredoc_redirect' && !outerRedirects.includes(r)) visitHeredocTail(c, r, ctx, cmd);
  }
}

/** A plain-word text: the one part visitCommand makes of such a command, then the bodies its program runs. */
export function visitPlain(source: string, words: string[], ctx: Ctx, out: Part[], nested: ParseNested): void {
  const c = new Collector(source, true, nested);
  const shapes: WordShape[] = words.map(() => 'literal');
  c.parts.push(newPart(source.trim(), words, shapes, [...ctx.redirects], ctx.origin, undefined, undefined, ctx.keyword, ctx.pipeline?.text, ctx.pipeline?.stage));
  emitNestedScripts(c, words, [], ctx);
  out.push(...c.parts);
}

/**
 * A simple line (ADR 0052): the parts visitCommand makes of its commands, in the same order, with the same
 * statements counted (a pipeline of two or more stages and each `&&`/`||` list are statements too).
 */
export function visitSimple(source: string, line: SimpleLine, ctx: Ctx, out: Part[], nested: ParseNested): void {
  const c = new Collector(source, true, nested);
  for (let n = 0; n < line.listOperators + line.wrapped; n++) countStatement();
  for (const pl of line.pipelines) {
    const piped = pl.commands.length > 1;
    if (piped) countStatement();
    const text = source.slice(pl.start, pl.end);
    for (let k = 0; k < pl.commands.length; k++) {
      countStatement();
      const cmd = pl.commands[k]!;
      const pipeline = piped ? { text, stage: k } : ctx.pipeline;
      // The part's own words go to the nested-script check too: resolveCommand keeps its answer for that array, which
      // the deny scan and the classifier then ask about again (a copy would be read afresh).
      const words = [...cmd.words];
      c.parts.push(
        newPart(
          source.slice(cmd.start, cmd.end),
          words,
          [...cmd.shapes],
          [...ctx.redirects, ...pl.outer, ...cmd.redirects],
          ctx.origin,
          undefined,
          undefined,
          ctx.keyword,
          pipeline?.text,
          pipeline?.stage,
        ),
      );
      emitNestedScripts(c, words, [], ctx);
    }
  }
  out.push(...c.parts);
}

/**
 * A text that is one substitution of a simple line, `$(…)` (ADR 0084): what visitCommand makes of the one command
 * tree-sitter reads there — the substitution's statements first, in the substitution's context, then the command,
 * whose only word is the text and whose name is dynamic (so no body of it is read).
 */
export function visitSubstitutionLine(source: string, inner: string, line: SimpleLine, ctx: Ctx, out: Part[], nested: ParseNested): void {
  countStatement();
  visitSimple(inner, line, makeCtx(ctx.depth, 'substitution', undefined, [], undefined), out, nested);
  out.push(newPart(source, [source], ['dynamic'], [...ctx.redirects], ctx.origin, undefined, true, ctx.keyword, ctx.pipeline?.text, ctx.pipeline === undefined ? undefined : ctx.pipeline.stage));
}

/**
 * A heredoc header without its body (ADR 0084): the part of its command, as the simple-line reader reads it, then the
 * operator to the end of the line as one unparsed part — tree-sitter's ERROR node, which counts as a statement.
 */
export function visitHeredocHeader(source: string, header: HeredocHeader, ctx: Ctx, out: Part[], nested: ParseNested): void {
  visitSimple(source.slice(0, header.commandEnd), header.command, ctx, out, nested);
  countStatement();
  out.push(unparsedPart(source.slice(header.operator), ctx.keyword));
}

/** Emits parts for every `$(…)`, backtick and `<(…)`/`>(…)` in `node` (the node itself included), outermost first. */
function emitSubstitutions(c: Collector, node: SyntaxNode, ctx: Ctx): void {
  // A node's range covers its descendants, so text without `$(`, a backtick, `<(` or `>(` holds no substitution:
  // skip the walk.
  if (!c.maySubstitute(node.startIndex, node.endIndex)) return;
  if (node.type === 'command_substitution') {
    const inner = c.src.slice(node.startIndex + 1, node.endIndex - 1);
    if (c.src[node.startIndex] === '`' && backquoteNests(inner)) emitBackquoted(c, inner, ctx);
    else visitBlock(c, node, makeCtx(ctx.depth, 'substitution', undefined, [], undefined));
    return;
  }
  if (node.type === 'heredoc_body' && node.parent && !heredocQuoted(c, node.parent)) emitHeredocBackticks(c, node, ctx);
  if (node.type === 'process_substitution') {
    visitBlock(c, node, makeCtx(ctx.depth, 'process-substitution', undefined, [], undefined));
    return;
  }
  for (const child of node.children) {
    if (child.type === 'heredoc_body' && child.parent && heredocQuoted(c, child.parent)) continue; // plain text
    if ((child.childCount > 0 || child.type.endsWith('_substitution')) && !isNestedStatementHolder(child)) {
      emitSubstitutions(c, child, ctx);
    }
  }
}

/** Children that hold statements visited separately (heredoc tails), so their substitutions are not counted twice. */
function isNestedStatementHolder(n: SyntaxNode): boolean {
  if (n.type === 'pipeline' && n.parent?.type === 'heredoc_redirect') return true;
  return isStatementType(n.type) && n.parent?.type === 'heredoc_redirect';
}

function hasDescendantOf(node: SyntaxNode, types: ReadonlySet<string>): boolean {
  if (types.has(node.type)) return true;
  for (const child of node.children) if (hasDescendantOf(child, types)) return true;
  return false;
}

function makePart(c: Collector, node: SyntaxNode, ctx: Ctx, words: string[], redirects: string[]): Part {
  return newPart(c.slice(node), words, undefined, [...ctx.redirects, ...redirects], ctx.origin, undefined, undefined, ctx.keyword, ctx.pipeline?.text, ctx.pipeline?.stage);
}

/**
 * The part of a `[ … ]` test of plain words: its shapes were added to a made part, so they come last (the golden
 * record hashes the parts as JSON, key order included). One shape of its own, every key always set (ADR 0084).
 */
function plainTestPart(c: Collector, node: SyntaxNode, ctx: Ctx, words: string[]): Part {
  return {
    text: c.slice(node),
    words,
    redirects: [...ctx.redirects],
    origin: ctx.origin,
    unparsed: undefined,
    dynamicName: undefined,
    keyword: ctx.keyword ? ctx.keyword : undefined,
    pipeline: ctx.pipeline?.text,
    pipeStage: ctx.pipeline?.stage,
    shapes: words.map(() => 'literal' as const),
  };
}
