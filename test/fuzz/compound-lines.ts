// The differential check of the compound-line reader (issue #16, ADR 0091): the reader hands back the syntax tree
// tree-sitter would give (src/gate/parse/tree.ts's SyntaxNode), or nothing. The oracle compares its tree, node by
// node, with tree-sitter's own reading of the same text. The generator makes lines in and near the reader's subset —
// loops, `if`, `case`, `{ …; }`, `( … )`, `[ … ]`, `$(…)`, `<(…)`, assignments, redirections after compounds — and,
// more often than not, one edit away from it: a dropped `;`, a glued keyword, a stray quote, a comment, a CR.
// A few thousand lines in `npm test` (compound-lines.fuzz.test.ts), hundreds of thousands in test:stress.
import { BOUNDED_LENGTH, boundedParse, loadedParser } from '../../src/gate/parse/runtime.js';
import { type SyntaxNode, readTree, treeHasError } from '../../src/gate/parse/tree.js';
import { prng } from '../helpers/prng.js';
import { VOCABULARY, blank, pick, randomWord } from './plain-words.js';
import { readCompound } from '../../src/gate/parse/compound.js';
import { sameAsTreeSitter } from './same-reading.js';

export { readCompound, sameAsTreeSitter };

// ---------------------------------------------------------------------------------------------------------------
// The oracle

/**
 * What `fieldNameForChild(i)` answers: the name, null, or '<not read>' where the reading did not read it (it throws).
 * Asked of both trees, so the set of parents whose fields are read need not be copied here.
 */
function fieldAnswer(node: SyntaxNode, i: number): string | null {
  try {
    return node.fieldNameForChild(i);
  } catch {
    return '<not read>';
  }
}

function flagsOf(node: SyntaxNode): string | undefined {
  try {
    if (node.isError) return 'isError';
    if (node.isMissing) return 'isMissing';
    if (node.hasError) return 'hasError';
  } catch (err) {
    return `error flags unreadable (${String(err)})`;
  }
  return undefined;
}

/**
 * Compares the reader's tree `a` with tree-sitter's `b`: type, named-ness, span, children, each child's parent, and
 * each child's field name exactly as the walk can ask it (readTree reads them for its FIELDED parents and for `command`'s
 * anonymous children; anywhere else asking throws, and must throw in both). Neither tree may hold an error. Returns
 * the first difference, with the path of child indexes and types from the root, or undefined when they are equal.
 */
export function sameTree(a: SyntaxNode, b: SyntaxNode): string | undefined {
  if (a.parent !== null) return `${a.type}: the reader's root has a parent`;
  const todo: Array<{ a: SyntaxNode; b: SyntaxNode; path: string }> = [{ a, b, path: a.type }];
  while (todo.length > 0) {
    const { a: x, b: y, path } = todo.pop()!;
    if (x.type !== y.type) return `${path}: type ${JSON.stringify(x.type)} ≠ ${JSON.stringify(y.type)}`;
    if (x.isNamed !== y.isNamed) return `${path}: isNamed ${x.isNamed} ≠ ${y.isNamed}`;
    if (x.startIndex !== y.startIndex || x.endIndex !== y.endIndex) return `${path}: span [${x.startIndex},${x.endIndex}] ≠ [${y.startIndex},${y.endIndex}]`;
    const fa = flagsOf(x);
    if (fa !== undefined) return `${path}: the reader's node has ${fa}`;
    const fb = flagsOf(y);
    if (fb !== undefined) return `${path}: tree-sitter's node has ${fb}`;
    if (x.children.length !== y.children.length) {
      return `${path}: ${x.children.length} children [${x.children.map((c) => c.type).join(' ')}] ≠ ${y.children.length} [${y.children.map((c) => c.type).join(' ')}]`;
    }
    for (let i = 0; i < x.children.length; i++) {
      const fx = fieldAnswer(x, i);
      const fy = fieldAnswer(y, i);
      if (fx !== fy) return `${path}/${i}:${x.children[i]!.type}: field ${JSON.stringify(fx)} ≠ ${JSON.stringify(fy)}`;
      if (x.children[i]!.parent !== x) return `${path}/${i}:${x.children[i]!.type}: the reader's child does not name its parent`;
    }
    // Depth first, left to right: the first difference reported is the leftmost.
    for (let i = x.children.length - 1; i >= 0; i--) todo.push({ a: x.children[i]!, b: y.children[i]!, path: `${path}/${i}:${x.children[i]!.type}` });
  }
  return undefined;
}

/**
 * tree-sitter's tree of `text`, read as parseSource reads it (readTree), with its error flag; undefined when the text
 * is not parsed (the bounds of ADR 0019). The tree is deleted after reading: the error flags of the nodes below the
 * root of a tree with an error cannot be read after that, and such a tree is a difference anyway.
 */
export function treeSitterTree(text: string): { root: SyntaxNode; hasError: boolean } | undefined {
  const tree = boundedParse(loadedParser(), text);
  if (!tree) return undefined;
  try {
    const hasError = treeHasError(tree);
    return { root: readTree(tree, hasError), hasError };
  } finally {
    tree.delete();
  }
}

/**
 * The text parseSource hands tree-sitter for `line` (src/gate/parse.ts's endedText): the line and a final newline,
 * except for long lines, lines already ending in a newline, a final backslash (blanks after it too) and heredocs.
 */
export function endedText(line: string): string {
  if (line.length > BOUNDED_LENGTH || line.endsWith('\n') || line.trimEnd().endsWith('\\') || line.includes('<<')) return line;
  return line + '\n';
}

/** A reader of texts into syntax trees: readCompound, or a test's stand-in. */
export type TreeReader = (text: string) => SyntaxNode | undefined;

/** The reader's tree of `text` against tree-sitter's: whether it gave one, and the first difference if any. */
export function compareText(text: string, read: TreeReader = readCompound): { taken: boolean; difference: string | undefined } {
  const mine = read(text);
  if (mine === undefined) return { taken: false, difference: undefined };
  const theirs = treeSitterTree(text);
  if (theirs === undefined) return { taken: true, difference: 'tree-sitter did not parse the text (bounds), the reader did' };
  if (theirs.hasError) return { taken: true, difference: "tree-sitter's tree has an error, the reader gave a tree" };
  return { taken: true, difference: sameTree(mine, theirs.root) };
}

// ---------------------------------------------------------------------------------------------------------------
// The generator

type R = () => number;

const chance = (r: R, p: number): boolean => r() < p;

/** Loop variable names: valid ones, and reserved words, digits and punctuation just outside. */
const NAMES = ['f', 'x', 'i', 'file', 'line', 'NAME', '_a', 'a1', 'dir', 'pkg'];
const NEAR_NAMES = ['do', 'in', 'done', 'for', 'if', '1x', 'a-b', '$x', 'x=1', '"x"', 'x.y', '{x}', 'é', ''];

const PROGRAMS = [
  'ls', 'echo', 'cat', 'grep', 'git', 'npm', 'node', 'rm', 'cp', 'mv', 'mkdir', 'sleep', 'exit', 'return', 'break', 'continue',
  'true', 'false', 'test', 'printf', 'read', 'wc', 'head', 'sed', 'awk', 'curl', 'sh', 'bash', 'eval', 'sudo', 'find', 'xargs',
  'export', 'local', 'set', 'cd', 'kill', 'wait', 'tee', 'sort', 'jq', 'python3', 'env', 'exec', 'command', 'timeout', 'shift',
];

/** Words the grammar reads as syntax where a command starts (reserved words, declarations, builtins it knows): kept out of everyday words. */
const RESERVED_SET: ReadonlySet<string> = new Set(['for', 'in', 'do', 'done', 'if', 'then', 'elif', 'else', 'fi', 'case', 'esac', 'while', 'until', 'select', 'function', 'time', 'coproc', 'declare', 'typeset', 'readonly', 'unset', 'export', 'local', 'unsetenv', 'test', 'let', 'source', 'alias', 'eval', 'exec']);
/** Reserved words and punctuation the grammar knows, for words in odd places (`echo for`, `ls }`). */
const RESERVED = ['for', 'in', 'do', 'done', 'if', 'then', 'elif', 'else', 'fi', 'case', 'esac', 'while', 'until', 'select', 'function', '{', '}', '!', '[[', ']]', 'time', 'coproc', 'declare', 'typeset', 'readonly', 'unset', '[', ']'];

/** Numbers as arguments: tree-sitter-bash reads some of them as `number` nodes. */
const NUMBERS = ['1', '5', '64', '0', '10', '1.5', '0x10', '08', '-1', '+3', '1e3', '007', '10#8', '2#101', '-n', '3s', '0.5', '99999999999999999999', '1_000', '-0'];

/** Expansions the simple-line reader takes (ADR 0087), and ones just outside that set. */
const EXPANSIONS = ['$x', '$f', '${x}', '${NAME}', '$1', '$0', '$?', '$#', '$_', '$HOME', '$i', '$file'];
const NEAR_EXPANSIONS = ['${f// /_}', '${x//a/}', '${x/#a/b}', '${x/%a/b}', '${x//a/b-c}', '${x/a b/c}', '${x/a/$y}', '${x//\//_}', '${#a[@]}', '${a[@]}', '${a[1]}', '${a[01]}', '${a[i]}', '${a[@]:1}', '${#a[*]}', '${a[-1]}', '$@', '$*', '$$', '$!', '$-', '${x:-y}', '${#x}', '${x%.*}', '${x/a/b}', '${!x}', '${x[0]}', '${1}', '$10', '${x:?}', '$', '${x'];

const QUOTED_CHARS = 'abc xyz./-_019,:@%+=*?~^!#$`\\|;&(){}[]<>\t';

let depthLimit = 3;
/**
 * Whether the line being made keeps to everyday pieces: common words, the expansions of the simple-line reader's set,
 * plain quotes, well-formed keywords and separators. Such lines are mostly inside the reader's subset, so that a good
 * share is taken (non-vacuity); their near misses are then one edit away from a taken line.
 */
let tame = false;

/** Words of everyday commands, with no character outside the simple-line reader's word set. */
const TAME_WORDS = VOCABULARY.filter((w) => /^[A-Za-z0-9_./,:@%+=-]+$/.test(w) && !RESERVED_SET.has(w));

function expansion(r: R): string {
  return chance(r, 0.85) ? pick<string>(r, EXPANSIONS) : pick<string>(r, NEAR_EXPANSIONS);
}

/** A word: mostly plain, often quoted, expanded, substituted or glued from pieces. */
function word(r: R, depth: number): string {
  const roll = r();
  if (tame) {
    if (roll < 0.6) return pick<string>(r, TAME_WORDS);
    if (roll < 0.7) return pick<string>(r, NUMBERS.slice(0, 10));
    if (roll < 0.77) return pick<string>(r, EXPANSIONS);
    if (roll < 0.8) return pick<string>(r, ['${f// /_}', '${x/a/b}', '${#a[@]}', '${a[@]}', '${a[0]}', '${a[*]}', '${x:-y}', '${x#*/}', '${x%.*}', '${HOME:-/tmp}', '${x:+-v}', '`ls`', '`date +%s`', '(a b)', "$'a\\nb'", "$'it\\'s'", 's\\udo', '\\rm', 'a\\.b', "x$'y'"]);
    if (roll < 0.92) return quoted(r, depth);
    if (depth < depthLimit) return substitution(r, depth + 1);
    return pick<string>(r, TAME_WORDS) + pick<string>(r, EXPANSIONS);
  }
  if (roll < 0.36) return pick<string>(r, VOCABULARY);
  if (roll < 0.44) return pick<string>(r, NUMBERS);
  if (roll < 0.5) return expansion(r);
  if (roll < 0.58) return quoted(r, depth);
  if (roll < 0.63 && depth < depthLimit) return substitution(r, depth + 1);
  if (roll < 0.7) return pick<string>(r, RESERVED);
  if (roll < 0.75) return pick<string>(r, ['*.ts', '?', '[ab]*', '{a,b}', '{1..3}', '~', '~/x', 'a=b', '--opt=v', '-', '--', '%1', '@', '\\;', '\\$x', 'a\\ b', '\\', '#x', 'x#y', '=']);
  if (roll < 0.87) return randomWord(r);
  // A word of pieces: `a"b"c`, `"$x"/y`, `pre$(ls)post`.
  let w = '';
  const pieces = 2 + Math.floor(r() * 2);
  for (let i = 0; i < pieces; i++) {
    const p = r();
    w += p < 0.3 ? pick<string>(r, VOCABULARY) : p < 0.55 ? quoted(r, depth) : p < 0.8 ? expansion(r) : depth < depthLimit ? substitution(r, depth + 1) : pick<string>(r, ['/', '.txt', '-', ':']);
  }
  return w;
}

/** `'…'`, `"…"` with expansions and `$(…)` inside, `$'…'`, `$"…"`, and a stray quote now and then. */
function quoted(r: R, depth: number): string {
  if (tame) {
    const text = pick<string>(r, ['a b', 'x', '', '*.ts', 'hello world', '-', 'a=b', '1', 'a\\$x', 'say \\"hi\\"', 'C:\\\\x']);
    const roll = r();
    if (roll < 0.4) return "'" + text + "'";
    if (roll < 0.75) return '"' + text + '"';
    if (roll < 0.9) return '"' + pick<string>(r, EXPANSIONS) + (chance(r, 0.5) ? '/x' : '') + '"';
    return depth < depthLimit ? '"' + substitution(r, depth + 1) + '"' : '"$x"';
  }
  const kind = r();
  const n = Math.floor(r() * 5);
  let body = '';
  for (let i = 0; i < n; i++) {
    const p = r();
    body += p < 0.65 ? pick<string>(r, 'abcdef xyz./-') : p < 0.78 ? expansion(r) : p < 0.84 && depth < depthLimit ? substitution(r, depth + 1) : pick<string>(r, QUOTED_CHARS);
  }
  if (kind < 0.45) return "'" + body.replaceAll("'", '') + "'";
  if (kind < 0.92) return '"' + body.replaceAll('"', '') + '"';
  if (kind < 0.96) return "$'" + body.replaceAll("'", '') + "'";
  return pick<string>(r, ['"', "'", '"a', "'a", '"$(ls)', '$"x"']);
}

/** `$(…)`, and its neighbours: backticks, `$((…))`, `<(…)`, `>(…)`. */
function substitution(r: R, depth: number): string {
  if (tame) {
    if (chance(r, 0.1)) return pick<string>(r, ['$((a + b))', '$((1 + 2))', '$(( i * 2 ))', '$((x))', '$(($x - 1))', '$((n+1))', '$((10 * $n))', '$(( 0 ))']);
    return (chance(r, 0.85) ? '$(' : '<(') + list(r, depth + 1, 2) + ')';
  }
  const roll = r();
  const inner = roll < 0.9 ? list(r, depth + 1, 2) : '';
  if (roll < 0.7) return '$(' + edge(r) + inner + edge(r) + ')';
  if (roll < 0.78) return '<(' + inner + ')';
  if (roll < 0.82) return '>(' + inner + ')';
  if (roll < 0.88) return '`' + inner.replaceAll('`', '') + '`';
  if (roll < 0.94) return pick<string>(r, ['$((1+2))', '$((x*2))', '$(( i + 1 ))', '$[1+1]', '$((', '$(ls', '$()', '$( )', '$(\n)', arithmetic(r)]);
  return '$(' + inner + pick<string>(r, ['', '))', ' )', ';)', '\n)', ') x', ')x']);
}

/** `$((…))` of one to three operands, blanks here and there, now and then an operator or operand outside the subset. */
function arithmetic(r: R): string {
  const operand = (): string => pick<string>(r, ['a', 'x', 'n1', '_i', '1', '0', '10', '08', '0x1', '$x', '$1', '${x}', '$(ls)', 'a[0]', '"1"', '-1', '']);
  const op = (): string => pick<string>(r, ['+', '-', '*', '/', '%', '**', '<<', '==', '<', '&&', ',', '=', '+=', '?', ':']);
  const gap = (): string => pick<string>(r, [' ', ' ', '', '  ']);
  let e = operand();
  const k = chance(r, 0.6) ? 1 : chance(r, 0.5) ? 0 : 2;
  for (let i = 0; i < k; i++) e += gap() + op() + gap() + operand();
  return '$((' + gap() + e + gap() + pick<string>(r, ['))', '))', '))', ')', ') )']);
}

/** What may stand just inside a `$(…)`: usually nothing. */
function edge(r: R): string {
  return chance(r, 0.8) ? '' : pick<string>(r, [' ', '\t', '\n', ';', ' ;', '(', ')', '#']);
}

function redirection(r: R, depth: number): string {
  if (tame) {
    const op = pick<string>(r, ['>', '>>', '<', '2>', '2>&1', '>&2']);
    return op.includes('&') ? op : op + (chance(r, 0.7) ? ' ' : '') + pick<string>(r, ['out', '/dev/null', 'log.txt', 'in.txt', '"a b"', '$LOG']);
  }
  const op = pick<string>(r, ['>', '>>', '<', '2>', '2>>', '&>', '>|', '<>', '1>', '0<', '2>&1', '>&2', '1>&2', '<<<', '>&-', '3>', '<&0']);
  if (op.includes('&') && !op.startsWith('&')) return op;
  const target = chance(r, 0.75) ? pick<string>(r, ['out', '/dev/null', 'log.txt', 'in.txt', '"a b"', '$LOG', "'x'", 'file', '~/.bashrc', '2']) : word(r, depth);
  return op + (chance(r, 0.6) ? ' ' : '') + target;
}

/** A simple command: assignments, a program, arguments, redirections; or an assignment alone (`X=$(ls)`). */
function simpleCommand(r: R, depth: number): string {
  const parts: string[] = [];
  if (chance(r, 0.15)) {
    const k = 1 + Math.floor(r() * 2);
    for (let i = 0; i < k; i++) parts.push(assignment(r, depth));
    if (chance(r, 0.4)) return parts.join(' ');
  }
  const first = r();
  // A statement of redirections alone (`> out`) now and then.
  if (tame && chance(r, 0.03)) return redirection(r, depth);
  if (tame) parts.push(chance(r, 0.04) ? pick<string>(r, ['s\\udo', '\\rm', 'l\\s', 'ec\\ho', 'g\\it', 'a\\1']) : pick<string>(r, PROGRAMS));
  else parts.push(first < 0.75 ? pick<string>(r, PROGRAMS) : first < 0.9 ? pick<string>(r, VOCABULARY) : first < 0.95 ? pick<string>(r, RESERVED) : word(r, depth));
  const roll = r();
  const n = roll < 0.15 ? 0 : roll < 0.55 ? 1 : roll < 0.85 ? 2 : 3;
  for (let i = 0; i < n; i++) parts.push(word(r, depth));
  if (chance(r, 0.12)) parts.push(redirection(r, depth));
  return parts.map((p, i) => (i === 0 ? p : sp(r) + p)).join('');
}

function assignment(r: R, depth: number): string {
  if (tame) return pick<string>(r, ['X', 'out', 'n', 'LC_ALL', '_v']) + '=' + (chance(r, 0.5) && depth < depthLimit ? substitution(r, depth + 1) : word(r, depth));
  const name = chance(r, 0.9) ? pick<string>(r, ['X', 'out', 'n', 'PATH', 'LC_ALL', '_v', 'a1']) : pick<string>(r, ['1a', 'a-b', 'x[0]', 'x+', '$x']);
  const op = chance(r, 0.9) ? '=' : pick<string>(r, ['+=', '= ', ' =', '==']);
  const roll = r();
  const value = roll < 0.3 && depth < depthLimit ? substitution(r, depth + 1) : roll < 0.45 ? '' : roll < 0.6 ? quoted(r, depth) : roll < 0.7 ? '(a b)' : word(r, depth);
  return name + op + value;
}

/** Blanks between words: one space mostly, a tab or several now and then. */
function sp(r: R): string {
  return tame || chance(r, 0.85) ? ' ' : blank(r);
}

/** The end of a statement before a keyword (`; done`, newline, `&`): now and then missing. */
function terminator(r: R): string {
  if (tame) return chance(r, 0.8) ? '; ' : '\n';
  const roll = r();
  if (roll < 0.55) return ';' + sp(r);
  if (roll < 0.75) return '\n';
  if (roll < 0.82) return sp(r) + ';' + sp(r);
  if (roll < 0.86) return ';\n' + (chance(r, 0.3) ? '  ' : '');
  if (roll < 0.9) return ' &' + sp(r);
  if (roll < 0.93) return '\n\n';
  if (roll < 0.95) return ' # c\n';
  if (roll < 0.97) return sp(r); // the `;` missing: the keyword becomes an argument
  return pick<string>(r, [';;', '&;', ';&', '\r\n', '\t;\t', ';\n\n', ' \\\n', ';#\n']);
}

/** A pipeline: `! ` now and then, commands joined by `|` (or `|&`). */
function pipeline(r: R, depth: number): string {
  let s = chance(r, 0.06) ? '!' + (tame ? ' ' : sp(r)) : '';
  const n = chance(r, 0.75) ? 1 : 2 + Math.floor(r() * 2);
  for (let i = 0; i < n; i++) {
    if (i > 0) s += tame ? ' | ' : (chance(r, 0.6) ? ' ' : '') + (chance(r, 0.95) ? '|' : '|&') + (chance(r, 0.7) ? ' ' : '');
    s += command(r, depth);
  }
  return s;
}

/** A list: pipelines joined by `&&`, `||`, `;`, `&` and newlines. */
function list(r: R, depth: number, most = 3): string {
  const roll = r();
  const n = Math.min(most, roll < 0.6 ? 1 : roll < 0.9 ? 2 : 3);
  let s = '';
  for (let i = 0; i < n; i++) {
    if (i > 0) {
      const roll = r();
      s += roll < 0.3 ? ' && ' : roll < 0.45 ? ' || ' : roll < 0.7 ? '; ' : roll < 0.85 ? '\n' : roll < 0.9 || tame ? ' & ' : pick<string>(r, ['&&', '||', ';', ' ;', '&&\n', '||\n', '|\n', ' &&  ']);
    }
    s += pipeline(r, depth);
  }
  return s;
}

/** A command: simple mostly, compound as the depth allows, with redirections after a compound now and then. */
function command(r: R, depth: number): string {
  if (depth >= depthLimit || chance(r, 0.7)) return simpleCommand(r, depth);
  const c = compound(r, depth + 1);
  if (!chance(r, 0.15)) return c;
  let out = c;
  const k = 1 + Math.floor(r() * 2);
  for (let i = 0; i < k; i++) out += (chance(r, 0.85) ? ' ' : '') + redirection(r, depth);
  return out;
}

function words(r: R, depth: number): string {
  const n = (chance(r, 0.9) ? 1 : 0) + (chance(r, 0.6) ? 1 : 0) + (chance(r, 0.3) ? 1 : 0);
  const ws: string[] = [];
  for (let i = 0; i < n; i++) ws.push(word(r, depth));
  return ws.join(' ');
}

/** The body between keywords: a list and its terminator. */
function body(r: R, depth: number): string {
  return list(r, depth) + terminator(r);
}

/** One keyword, now and then spelled one character away (`Done`, `don`, `fi;`, `done)`). */
function kw(r: R, k: string): string {
  if (tame || !chance(r, 0.03)) return k;
  const roll = r();
  if (roll < 0.25) return k.toUpperCase();
  if (roll < 0.5) return k.slice(0, -1);
  if (roll < 0.75) return k + pick<string>(r, ['x', ';', ')', '}', '&', '\\', '"', "'"]);
  return '\\' + k;
}

function compound(r: R, depth: number): string {
  const roll = r();
  if (roll < 0.17) return forLoop(r, depth);
  if (roll < 0.27) return whileLoop(r, depth);
  if (roll < 0.44) return ifStatement(r, depth);
  if (roll < 0.56) return caseStatement(r, depth);
  if (roll < 0.68) return braceGroup(r, depth);
  if (roll < 0.78) return subshell(r, depth);
  if (tame && roll >= 0.95) return (chance(r, 0.5) ? 'f() { ' : 'function f { ') + body(r, depth) + '}';
  if (tame && roll >= 0.9) return 'time ' + subshell(r, depth);
  if (tame && roll >= 0.87) return pick<string>(r, ['(( i++ ))', '((n--))', '(( a + 1 ))', '((x))', '(( $n * 2 ))', '(( count++ ))']);
  if (roll < 0.9 || tame) return testCommand(r, depth);
  return nearCompound(r, depth);
}

function forLoop(r: R, depth: number): string {
  const name = tame || chance(r, 0.93) ? pick<string>(r, NAMES) : pick<string>(r, NEAR_NAMES);
  const roll = r();
  // `for x in …`, `for x; do`, `for x in; do`, and `select` beside it.
  const head = roll < 0.85 || tame ? `${kw(r, 'for')} ${name} ${kw(r, 'in')} ${words(r, depth)}` : roll < 0.92 ? `for ${name}` : roll < 0.96 ? `for ${name} in` : `select ${name} in ${words(r, depth)}`;
  return head + terminator(r) + kw(r, 'do') + sp(r) + body(r, depth) + kw(r, 'done');
}

function whileLoop(r: R, depth: number): string {
  const k = chance(r, 0.75) ? 'while' : 'until';
  return kw(r, k) + sp(r) + body(r, depth) + kw(r, 'do') + sp(r) + body(r, depth) + kw(r, 'done');
}

function ifStatement(r: R, depth: number): string {
  let s = kw(r, 'if') + sp(r) + body(r, depth) + kw(r, 'then') + sp(r) + body(r, depth);
  const elifs = chance(r, 0.25) ? 1 + Math.floor(r() * 2) : 0;
  for (let i = 0; i < elifs; i++) s += kw(r, 'elif') + sp(r) + body(r, depth) + kw(r, 'then') + sp(r) + body(r, depth);
  if (chance(r, 0.35)) s += kw(r, 'else') + sp(r) + body(r, depth);
  return s + kw(r, 'fi');
}

const PATTERNS = ['a', 'b', '*', '*.ts', 'x|y', '"q"', "'q'", '$x', 'start', 'stop', '-h|--help', '[0-9]', '?', '*)', 'a b', '(a', '\\)', 'in', 'esac', '', '1', '*.@(a|b)', '!(x)', '$(ls)', 'a"b"'];

const TAME_PATTERNS = ['a', 'b', '*', '*.ts', 'start', 'stop', '-h', '--help', '"q"', "'q'", '1', 'x*'];

function caseStatement(r: R, depth: number): string {
  const value = tame || chance(r, 0.9) ? pick<string>(r, ['$x', '$1', '"$1"', 'x', '$(uname)', '${x}', 'in', '"$(ls)"']) : word(r, depth);
  let s = `${kw(r, 'case')} ${value} ${kw(r, 'in')}` + (chance(r, 0.7) ? ' ' : '\n');
  const items = chance(r, 0.95) ? 1 + Math.floor(r() * 3) : 0;
  for (let i = 0; i < items; i++) {
    const open = chance(r, 0.1) ? '(' : '';
    const patterns = tame ? TAME_PATTERNS : PATTERNS;
    const pat = pick<string>(r, patterns) + (chance(r, 0.15) ? '|' + pick<string>(r, patterns) : '');
    const item = chance(r, 0.9) ? list(r, depth, 2) : '';
    const last = i === items - 1;
    const term = last && chance(r, 0.2) ? '' : chance(r, 0.9) || tame ? ';;' : pick<string>(r, [';&', ';;&', ';', ';;;']);
    s += open + pat + ')' + (chance(r, 0.8) ? ' ' : chance(r, 0.5) ? '\n' : '') + item + term + (chance(r, 0.7) ? ' ' : '\n');
  }
  return s + kw(r, 'esac');
}

function braceGroup(r: R, depth: number): string {
  const open = tame || chance(r, 0.93) ? '{' + sp(r) : pick<string>(r, ['{', '{\n', '{{ ']);
  return open + body(r, depth) + kw(r, '}');
}

function subshell(r: R, depth: number): string {
  const open = chance(r, 0.6) ? '( ' : chance(r, 0.7) ? '(' : '(\n';
  const close = chance(r, 0.6) ? ' )' : chance(r, 0.8) || tame ? ')' : pick<string>(r, ['\n)', '; )', ';)', ' ))']);
  return open + list(r, depth) + close;
}

function testCommand(r: R, depth: number): string {
  const roll = r();
  const a = pick<string>(r, ['"$x"', '$x', '-f', 'x', '"$1"', '$(ls)', '1', '""', "'a'"]);
  const op = pick<string>(r, ['-f', '-d', '-z', '-n', '-e', '!', '-x']);
  const bin = pick<string>(r, ['=', '==', '!=', '-eq', '-lt', '-gt', '-ne', '<', '>', '=~', '-a', '-o']);
  const inside = roll < 0.4 ? `${op} ${a}` : roll < 0.8 || tame ? `${a} ${bin} ${word(r, depth)}` : words(r, depth);
  const form = r();
  if (form < 0.6 || (tame && form < 0.85)) return `[ ${inside} ]`;
  if (tame) return `[[ ${inside} ]]`;
  if (form < 0.75) return `test ${inside}`;
  if (form < 0.88) return `[[ ${inside} ]]`;
  return pick<string>(r, [`[${inside} ]`, `[ ${inside}]`, `[ ${inside}`, `[ ]`, `[]`, `[ ${inside} ] ]`, `[[ ${inside} ]`, `! [ ${inside} ]`]);
}

/** Constructs next to the subset: functions, arithmetic, C-style loops, coprocesses, heredocs in loops. */
function nearCompound(r: R, depth: number): string {
  const b = body(r, depth);
  return pick<string>(r, [
    `f() { ${b}}`,
    `function f { ${b}}`,
    `function f() { ${b}}`,
    `f() ( ${list(r, depth)} )`,
    `(( i++ ))`,
    `((${pick<string>(r, ['', ' ', '  '])}${pick<string>(r, ['i', 'x1', '$x', '1', '_', 'a[0]', '0', '08'])}${pick<string>(r, ['++', '--', '', ' + 1', ' - $y', '+1', ' * 2', ' ++', '+=2', ' / 2'])}${pick<string>(r, ['', ' ', '  '])}))`,
    `((i<3))`,
    `for ((i=0; i<3; i++)); do ${b}done`,
    `for ((;;)); do ${b}done`,
    `coproc ${simpleCommand(r, depth)}`,
    `time ${simpleCommand(r, depth)}`,
    `time ${subshell(r, depth)}`,
    `time${subshell(r, depth)}`,
    `time  ${subshell(r, depth)}`,
    `time -p ${subshell(r, depth)}`,
    `X=1 time ${subshell(r, depth)}`,
    `while read -r l; do ${b}done < in.txt`,
    `cat <<EOF\nx\nEOF`,
    `while true; do cat <<'E'\n$x\nE\ndone`,
    `{ ${b}} 2>&1`,
    `declare -a x=(1 2)`,
    `local x=$(ls)`,
    `export X=$(ls)`,
    `if (( x > 1 )); then ${b}fi`,
    `if [[ -f x ]]; then ${b}fi`,
    `case x in (a) ls;; esac`,
    `select x in a b; do ${b}done`,
  ]);
}

/** One edit from the line as generated: the near misses of the subset. */
function nearMiss(r: R, line: string): string {
  if (line === '') return line;
  if (chance(r, 0.15)) {
    // A word (a run of non-blanks) replaced by a token of lexer-special pieces: the line's shape kept, one word changed.
    const runs = [...line.matchAll(/[^ \t\n]+/g)];
    if (runs.length === 0) return line;
    const m = pick(r, runs);
    return line.slice(0, m.index) + token(r) + line.slice(m.index + m[0].length);
  }
  const at = Math.floor(r() * line.length);
  const roll = r();
  if (roll < 0.2) return line.slice(0, at) + pick<string>(r, '~!#$^&*()[]{}\\|;\'"<>?`\n\r\0\t =é\u00a0\u2028') + line.slice(at);
  if (roll < 0.35) return line.slice(0, at) + line.slice(at + 1);
  if (roll < 0.45) return line.slice(0, at) + line[at] + line.slice(at);
  if (roll < 0.6) {
    // A separator dropped, or changed into another.
    const seps = [...line.matchAll(/;|\n|&&|\|\||&|\|/g)];
    if (seps.length === 0) return line;
    const m = pick(r, seps);
    return line.slice(0, m.index) + pick<string>(r, ['', ' ', '\n', ';', '&', ';;', '|', '||', '&&']) + line.slice(m.index + m[0].length);
  }
  if (roll < 0.75) {
    // A blank around a keyword or bracket dropped: `done;`, `{echo`, `fi)`.
    const blanks = [...line.matchAll(/ /g)];
    if (blanks.length === 0) return line;
    const m = pick(r, blanks);
    return line.slice(0, m.index) + pick<string>(r, ['', '', '\t', '  ', '\\ ']) + line.slice(m.index + 1);
  }
  if (roll < 0.85) return line + pick<string>(r, [' # c', '#c', ' ;', ';', ' &', '\n', '\nls', ' )', ' }', ' fi', ' done', '\\', ' \\', '\r', ' 2>&1', ' | cat']);
  if (roll < 0.92) return pick<string>(r, ['# c\n', ' ', '\t', '\n', '; ', '{ ', '( ', '! ', 'then ', 'do ', '\r']) + line;
  // A keyword swapped for another.
  const kws = [...line.matchAll(/\b(do|done|then|fi|else|elif|esac|in|for|while|until|if|case)\b/g)];
  if (kws.length === 0) return line;
  const m = pick(r, kws);
  return line.slice(0, m.index) + pick<string>(r, ['do', 'done', 'then', 'fi', 'else', 'esac', 'in', '}', ')', ';']) + line.slice(m.index + m[0].length);
}

/** Pieces of a token: expansions, digits, letters, the characters tree-sitter's lexer treats specially, quotes. */
const TOKEN_PIECES = [
  '$', '$1', '$0', '$9', '$x', '$_', '${x}', '$?', '$#', '$$', '$@', 'a', 'x1', 'Z', '1', '0', '08', '-', '--', '+', '=', '==', '@', '%', '^', '~',
  '*', '?', ',', '.', '/', ':', '"a"', "'a'", '""', "''", '{', '}', '[', ']', '!', '$(ls)', '"$1"', '"$x"', '"$1a"', '"a$x"', '_', 'do', 'done',
  'in', 'fi', 'esac', 'then', '(', ')', '<(ls)', '&', '|', ';', '<', '>', '\\', '#', '\t', ' ',
  // Reserved words and declarations, so that a token can start with one (`local;`, `fi1`, `then_`).
  'local', 'export', 'readonly', 'declare', 'typeset', 'unset', 'for', 'if', 'case', 'while', 'until', 'elif', 'else', 'select', 'function', '!',
];

/** Statements that put one token where the reader reads words: arguments, test operands, patterns, values, targets. */
const TOKEN_CONTEXTS = [
  'echo T', 'echo T x', 'T', 'T x', 'ls T; ls', '[ T ]', '[ -f T ]', '[ T = T ]', '[ x != T ]', '[ T == x ]', '[ x -eq T ]', '[ ! T ]', 'test T = x',
  'case T in T) ls;; esac', 'case x in T) ls;; esac', 'case x in a|T) ls;; esac', 'for x in T; do ls; done', 'for T in a; do ls; done', 'X=T', 'X=T ls',
  'echo "T"', 'echo "a T b"', 'echo $(echo T)', 'echo "$(echo T)"', 'if [ T ]; then ls; fi', '{ echo T; }', '( echo T )', 'ls > T', 'ls 2>T', 'echo T | cat',
  'while [ T ]; do ls; done', 'local x=T', 'export X=T', 'declare T', 'echo T T', 'echo x T', 'echo T; if true; then ls; fi', 'cat <(echo T)', 'X=$(echo T) ls',
  // The token as a command, in every place a command stands.
  'for x in a; do T; done', 'if T; then ls; fi', 'if ls; then T; fi', 'if ls; then ls; else T; fi', 'while T; do ls; done', 'case x in a) T;; esac', '{ T; }',
  '( T )', 'T && ls', 'ls && T', 'ls | T', 'T | ls', '! T', 'T &', 'T; ls', 'ls; T', 'T\nls', 'echo $(T)', 'X=$(T)', 'T x | cat', 'T x; ls',
  '[[ T ]]', '[[ -f T ]]', '[[ x = T ]]', '[[ x == T ]] && ls', '[[ x =~ T ]]', '[[ T || x ]]', 'echo "a\\T"', 'echo "T\\"',
  'X=(T T)', 'f() { T; }; f', 'function f { T; }', 'T() { ls; }', '> T', '> T; ls', 'echo `T`', 'echo "`T`"', 'echo ${x:-T}', 'echo "${x:-T}"', 'echo ${x#T}',
  // Here-strings (the text is then read as written, without the final newline).
  'cat <<< T', 'cat <<<T', 'for x in a; do cat <<< T; done', 'read x <<< T; ls', 'grep x <<< "T"', 'cat <<< T | sh',
];

/** One token of one to four pieces, in one of the contexts. The lexical near misses: `$1a`, `a$x$1`, `*)x`, `~/x` in a test. */
export function tokenLine(r: R): string {
  return pick<string>(r, TOKEN_CONTEXTS).replace(/T/g, () => token(r));
}

function token(r: R): string {
  const n = 1 + Math.floor(r() * 4);
  let t = '';
  for (let i = 0; i < n; i++) t += pick<string>(r, TOKEN_PIECES);
  return t;
}

/** The pieces of the exhaustive token check: what tree-sitter-bash's lexer treats specially, and plain words. */
export const WORD_PIECES: readonly string[] = [
  '$', '$1', '$0', '$x', '$_', '${x}', '$?', '$#', '$$', '$@', 'a', 'x1', 'Z', '1', '0', '08', '-', '+', '=', '@', '%', '^', '~', '*', '?', ',', '.', '/',
  ':', '"a"', "'a'", '""', "''", '{', '}', '[', ']', '!', '$(ls)', '"$1"', '"$x"', '_', 'do', 'in', 'fi', 'esac', 'then', 'local', 'for', 'if', '<(ls)',
  '#', '\\', '(', ')', '&', '|', ';', '<', '>', 'ab', '-f', '==', '!=', '-eq', '-a', 'a-b',
  // Backslashes inside "…" (the reader takes some), and [[ … ]]'s own operators.
  '${f// /_}', '${x/a/b}', '${x//a/}', '${x/#a/b}', '${x//a/-}', '${#a[@]}', '${a[@]}', '${a[0]}', '${a[*]}', '${a[x]}', '${#a[1]}', '((i++))', '(( i-- ))',
  '$((a + b))', '$((1 + 2))', '$((x))', '$(( $x * 2 ))', '$((a+b))', '$((a - 1 - 2))', '$((08 + 1))', '$((a ** 2))', "$'a'", "$'a\\'b'", "$'\\n'", "$'\\\\'", "$'\\x41'", "$'a b'", "$'\\\"'", '\\u', '\\1', '\\$', '\\.', 'a\\b',
  '"a\\$x"', '"\\\\"', '"\\""', '"a\\b"', '"\\n"', '"\\`"', '"\\1"', '"$x\\"', '&&', '||', '=~', '-n', '<', '(x)',
  // Backticks and the ${NAME…} operators.
  '`ls`', '"`ls`"', '`', '`a b`', '${x#a}', '${x%.*}', '${x:-y}', '${x:=y}', '${x:+y}', '${x-y}', '${x##*/}', '${x%%.*}', '${x:-$y}', '${x:-"a b"}',
  '${x:-`ls`}', '${#x}', '${x/a/b}', '${x:-}', '${x:-a b}', '${x#}', '${1:-a}', '${x:?e}',
];

/** The positions of the exhaustive token check (`T`): arguments, test operands, patterns, values, targets, commands. */
export const WORD_CONTEXTS: readonly string[] = [
  'echo T', '[ T = x ]', 'case x in T) ls;; esac', 'X=T ls', 'echo "T"', 'ls > T', 'local T', 'T; ls', 'if ls T; then ls; fi', '[[ x = T ]]', 'T', '[ T ]', '[ -f T ]', '[ x = T ]', '[ x -eq T ]',
  'case T in a) ls;; esac', 'for x in T; do ls; done', 'X=T', 'echo $(echo T)', 'export X=T', 'cat <<< T', 'if T; then ls; fi', '{ T; }', '( T )', 'ls | T',
  // An argument just before a closing keyword (tree-sitter ends a case at an `esac` argument).
  'while ls T; do ls; done', 'case x in a) ls T;; esac', '{ ls T; }', 'for x in a; do ls T; done', 'if true; then ls; else ls T; fi',
  '( ls T )', 'echo $(ls T)', 'case x in a) ls;; b) ls T;; esac',
  // [[ … ]]: operands, patterns after = and ==, regexes after =~, && and || inside.
  '[[ T ]]', '[[ -f T ]]', '[[ T = x ]]', '[[ x == T ]]', '[[ x != T ]]', '[[ x =~ T ]]', '[[ T && x ]]', '[[ x -eq T ]]', 'if [[ T ]]; then ls; fi',
  // Arrays, function bodies and names, statements of redirections alone.
  'X=(T)', 'X=(a T)', 'local X=(T)', 'f() { T; }', 'function f { T; }', 'f() ( T )', 'T() { ls; }', 'function T { ls; }', '> T', '< T', '2>&1 > T', 'T > out',
  // The word of a ${NAME op word}.
  'echo ${x:-T}', 'echo "${x:-T}"', 'echo ${x#T}', 'echo ${x%%T}', 'X=${x:=T}',
  // Beside another substitution in the same command (tree-sitter joins `a` `b` into one).
  'echo T `ls`', 'echo `ls` T', 'echo T $(ls)', 'X=`ls` T',
];

/** Statements a token's context is put inside (`C`): tree-sitter-bash's lexer reads some spellings otherwise there. */
export const WRAPPERS: readonly string[] = [
  'if true; then C; fi', 'for x in a; do C; done', '{ C; }', '( C )', 'echo $(C)', 'case x in a) C;; esac', 'while true; do C; done', 'if C; then ls; fi',
  'ls && C', 'C | cat', 'f() { C; }', 'X=$(C)', 'if true; then ls; else C; fi', 'echo "$(C)"', 'cat <(C)',
];

/**
 * The token check: in each of the first `contexts` WORD_CONTEXTS, every token of one WORD_PIECE and (with `pairs`, the
 * default) of two, then `random` tokens of two to four pieces in those contexts (with `wrapped`, each put inside one
 * of WRAPPERS). Returns how many lines the reader took and the first line of each kind of difference (at most `most`).
 */
export function wordTokensAgree(
  options: { contexts?: number; pairs?: boolean; random?: number; wrapped?: boolean; seed?: number; most?: number } = {},
): { taken: number; total: number; mismatches: Mismatch[] } {
  const contexts = WORD_CONTEXTS.slice(0, options.contexts ?? WORD_CONTEXTS.length);
  const most = options.most ?? 20;
  const mismatches: Mismatch[] = [];
  const seen = new Set<string>();
  let taken = 0;
  let total = 0;
  const check = (line: string): void => {
    total++;
    const text = endedText(line);
    const { taken: yes, difference } = compareText(text);
    if (yes) taken++;
    if (difference === undefined) return;
    // One line per kind of difference: the same shape in other tokens adds nothing.
    const kind = difference.replace(/\[\d+,\d+\]/g, '');
    if (seen.has(kind) || mismatches.length >= most) return;
    seen.add(kind);
    mismatches.push({ line, text, difference });
  };
  const seconds = options.pairs === false ? [''] : ['', ...WORD_PIECES];
  for (const context of contexts) {
    for (const a of WORD_PIECES) for (const b of seconds) check(context.replace('T', a + b));
  }
  const r = prng(options.seed ?? 1);
  for (let i = 0; i < (options.random ?? 0); i++) {
    const n = 2 + Math.floor(r() * 3);
    let t = '';
    for (let j = 0; j < n; j++) t += pick<string>(r, WORD_PIECES);
    const line = pick<string>(r, contexts).replace('T', t);
    check(options.wrapped === true ? pick<string>(r, WRAPPERS).replace('C', line) : line);
  }
  return { taken, total, mismatches };
}

/**
 * One generated line: a list whose commands are compound often (nested up to three deep), sometimes with blanks
 * around it; half the lines made of everyday pieces only (see `tame`), about half one edit away from what was
 * generated, and a few handed to `sh -c`/`eval` as a body.
 */
export function compoundishLine(r: R): string {
  if (chance(r, 0.2)) return tokenLine(r);
  tame = chance(r, 0.5);
  depthLimit = 1 + Math.floor(r() * 3);
  let line = chance(r, 0.8) ? compound(r, 1) : list(r, 0);
  if (chance(r, 0.25)) line = list(r, depthLimit, 2) + pick<string>(r, ['; ', ' && ', ' || ', '\n', ' | ']) + line;
  if (chance(r, 0.25)) line += pick<string>(r, ['; ', ' && ', ' || ', '\n', ' | ', ' & ']) + list(r, depthLimit, 2);
  if (chance(r, 0.08)) line = blank(r) + line;
  if (chance(r, 0.08)) line += blank(r);
  tame = false;
  const edits = chance(r, 0.5) ? 0 : chance(r, 0.8) ? 1 : 2;
  for (let i = 0; i < edits; i++) line = nearMiss(r, line);
  // Now and then the line is a body a shell or eval runs: parseSource reads it again, through the reader.
  if (chance(r, 0.05) && !line.includes("'")) return pick<string>(r, ['sh -c', 'bash -c', 'eval']) + " '" + line + "'";
  if (chance(r, 0.03) && !/["\\$`]/.test(line)) return pick<string>(r, ['sh -c', 'eval', 'ssh host']) + ' "' + line + '"';
  return line;
}

/** A line of `lines` (the bench corpus, the golden lines), as it is or one or two edits away from it. */
export function nearLine(r: R, lines: readonly string[]): string {
  let line = pick(r, lines);
  const edits = chance(r, 0.2) ? 0 : chance(r, 0.75) ? 1 : 2;
  for (let i = 0; i < edits; i++) line = nearMiss(r, line);
  return line;
}

// ---------------------------------------------------------------------------------------------------------------
// The run

export interface Mismatch {
  readonly line: string;
  readonly text: string;
  readonly difference: string;
}

/**
 * Generates `count` lines from `seed`; for each, the reader's tree of the ended text (and, one line in five, of the
 * text as written) must be tree-sitter's when the reader gives one. With `reading` set, each taken line's parse and
 * analysis must also equal the tree-sitter-only ones (sameAsTreeSitter; meaningful once parseSource uses the reader).
 * Returns how many lines the reader took (non-vacuity) and the mismatches, at most `most` of them. `read` stands in
 * for the reader (the harness's own tests); with `from`, the lines are those lines near-missed (nearLine) instead.
 */
export function compoundLinesAgree(
  count: number,
  seed: number,
  options: { reading?: boolean; most?: number; read?: TreeReader; from?: readonly string[] } = {},
): { taken: number; total: number; mismatches: Mismatch[] } {
  const r = prng(seed);
  const most = options.most ?? 10;
  let taken = 0;
  const mismatches: Mismatch[] = [];
  for (let i = 0; i < count && mismatches.length < most; i++) {
    const line = options.from === undefined ? compoundishLine(r) : nearLine(r, options.from);
    const text = endedText(line);
    const texts = text !== line && chance(r, 0.2) ? [text, line] : [text];
    let took = false;
    for (const t of texts) {
      const { taken: yes, difference } = compareText(t, options.read);
      if (yes && t === text) took = true;
      if (difference !== undefined) mismatches.push({ line, text: t, difference });
    }
    if (took) taken++;
    // A body handed to a shell or eval is read by the reader too (parseNested), whichever path read the line.
    const body = /^(?:sh -c|bash -c|eval|ssh host) ['"]/.test(line);
    if (!took && !body) continue;
    if (options.reading === true && !sameAsTreeSitter(line)) mismatches.push({ line, text, difference: 'the parse or analysis differs from the tree-sitter-only one' });
  }
  return { taken, total: count, mismatches };
}

/** A mismatch as one readable entry (JSON strings, so blanks, CR and NUL show). */
export function showMismatch(m: Mismatch): string {
  return `${JSON.stringify(m.line)}${m.text !== endedText(m.line) ? ' (as written)' : ''}: ${m.difference}`;
}
