// The differential check of the simple-line reader (ADR 0052): generated lines of commands joined by `|`, `&&`, `||`
// and `;`, with quoted words, blanks or none around the operators, redirections of the reader's closed set and just
// outside it (ADR 0075), parameter expansions of the reader's set and `$` spellings just outside it (ADR 0087), and now and then a character from just outside the subset. For each line the reader takes, the parse and the analysis must equal the tree-sitter-only ones.
// A few thousand lines in `npm test` (simple-lines.fuzz.test.ts), hundreds of thousands in test:stress.
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { analyzeLine, type LineAnalysis } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { isSimpleLine, parseLine, treeSitterOnly } from '../../src/gate/parse.js';
import { prng } from '../helpers/prng.js';
import { VOCABULARY, blank, pick, randomWord } from './plain-words.js';

/** What a quoted stretch may hold: word characters, blanks and the characters that mean something unquoted. */
const QUOTED_CHARS = 'abcXYZ019_./-,:@%+= \t*?~^!#$`\\|;&(){}[]<>\'"é\u00a0';
/** Characters just outside the subset, dropped into a line now and then (braces: `{}` alone is in it, ADR 0081). */
const NEAR_CHARS = '~!#$^&*()[]{}\\|;\'"<>?`\n\r\0\u00a0é\u2028=+:';
const SEPARATORS = ['|', '&&', '||', ';'];

/** Parameter expansions the reader takes (ADR 0087), unquoted or in "…". */
const EXPANSIONS = ['$HOME', '$PATH', '$x', '$_', '$_a1', '$X9', '${HOME}', '${x}', '${_y2}', '$0', '$1', '$9', '$?', '$#', '$TOKEN'];
/** `$` spellings just outside that set: substitutions, arithmetic, ANSI-C and translated strings, other operators. */
const NEAR_EXPANSIONS = [
  '$', '$(', '$(ls)', '$((1+2))', "$'a'", '$"a"', '${x:-y}', '${x:=y}', '${#x}', '${!x}', '${x[0]}', '${x}}', '${', '${}', '${1}', '${ x}',
  '${x', '$@', '$*', '$$', '$!', '$-', '$[1]', '$ ', '$\\', '\\$x', '$=', '$.', '$/', '$:', '$~', '$%', '$+', '$,', '$^', '${x%y}', '$x[1]',
];

/**
 * Whether lines may hold the constructs of ADR 0087 (expansions, `\;`, `@{…}`, `&`). The heredoc-header and
 * substitution-line readers leave such lines to tree-sitter, so their generators ask for them only now and then.
 */
let extendedOn = true;

/** An expansion of the set, mostly, or now and then one just outside it. */
function expansion(r: () => number): string {
  return r() < 0.95 ? pick<string>(r, EXPANSIONS) : pick<string>(r, NEAR_EXPANSIONS);
}

function quoted(r: () => number): string {
  const n = Math.floor(r() * 6);
  const q = r() < 0.5 ? "'" : '"';
  let body = '';
  for (let i = 0; i < n; i++) {
    const roll = r();
    // Expansions in both kinds of quotes: in '…' they are plain text, in "…" the reader takes a closed set.
    if (!extendedOn) body += roll < 0.7 ? pick<string>(r, 'abcdefgh xyz./-') : pick<string>(r, QUOTED_CHARS);
    else body += roll < 0.62 ? pick<string>(r, 'abcdefgh xyz./-') : roll < 0.85 ? expansion(r) : pick<string>(r, QUOTED_CHARS);
  }
  return q + body.replaceAll(q, '') + q;
}

/** A word holding expansions: alone, glued to word characters, quotes, braces and each other (`"$PWD":/app`). */
function expansionWord(r: () => number): string {
  const pieces = 1 + Math.floor(r() * 3);
  let w = '';
  for (let i = 0; i < pieces; i++) {
    const roll = r();
    w += roll < 0.45 ? expansion(r) : roll < 0.7 ? pick<string>(r, ['/app', ':/x', '-', 'a', '/*', '.txt', '=', '~', '?', '{}', '+', ',', '@', '%', '9', '_b']) : roll < 0.9 ? quoted(r) : pick<string>(r, VOCABULARY);
  }
  return w;
}

function word(r: () => number): string {
  const roll = r();
  if (roll < 0.44 || (!extendedOn && roll < 0.58)) return pick<string>(r, VOCABULARY);
  if (roll < 0.55) return expansionWord(r);
  // find's `\;`, git's `@{…}` (ADR 0087), and spellings just outside them.
  if (roll < 0.565) return r() < 0.5 ? '\\;' : pick<string>(r, ['\\;x', 'x\\;', '\\;\\;', '\\', '\\|', '\\&', '\\ ', '";"', "'\\;'"]);
  if (roll < 0.58) return r() < 0.4 ? pick<string>(r, ['stash@{0}', 'HEAD@{1}', '@{u}']) : pick<string>(r, ['stash@{0}', 'HEAD@{1}', '@{u}', '@{upstream}', 'main@{2}', '@{-1}', '@{}', '@{0', 'x{0}', '{0}', '@{0}}', '@{a,b}', '@{1..2}', '@{0}x', '@{0}@{1}', '@{0}{}', '{}@{0}', '@@{0}', '"@"{0}', '$x@{0}', '@{ 0}', '@{_}', '@{0}*', 'a@{0}=b']);
  if (roll < 0.6) return pick<string>(r, ['~', '~/x', 'HEAD~1', 'a^b', '^x', '~root', 'x~', '*.ts', '?', 'a*b?']);
  // xargs's and find's placeholder, in and around words (ADR 0081), and braces just outside what the reader takes.
  if (roll < 0.62) return pick<string>(r, ['{}', '-I{}', '{}.txt', 'a{}b', '{}{}', '*{}', '{}?', "'{}'", '"{}"x', '{}\'x\'', '{', '}', '{}}', '{{}', '{a,b}', '{1..3}', '}{', '{ }', '-i{}', '={}', '{}=x', '~{}', '{}+', '+{}', '2{}', '{}:x', '{}-']);
  if (roll < 0.75) return randomWord(r);
  if (roll < 0.88) return quoted(r);
  // A word of pieces: `a'b'c`, `"x"y`, `--opt="v v"`.
  let w = '';
  const pieces = 2 + Math.floor(r() * 3);
  for (let i = 0; i < pieces; i++) w += r() < 0.5 ? quoted(r) : pick<string>(r, VOCABULARY);
  return w;
}

/** Programs, most of them ones the rules know or that run another body (shells, eval, wrappers, find, xargs). */
const PROGRAMS = [
  'ls', 'git', 'cat', 'grep', 'head', 'tail', 'wc', 'sort', 'uniq', 'awk', 'sed', 'xargs', 'find', 'echo', 'npm', 'node', 'curl',
  'sh', 'bash', 'zsh', 'eval', 'sudo', 'env', 'nice', 'timeout', 'watch', 'ssh', 'trap', 'rm', 'dd', 'tee', 'wisp', 'npx', 'base64',
  'python3', 'su', 'script', 'command', 'exec', 'time', 'true', 'jq', 'cut', 'tr',
];

/** Redirection operators: the reader's closed set (ADR 0075), and ones just outside it. */
const REDIRECT_OPS = ['>', '>>', '<', '2>', '1>', '2>>', '0<', '>&2', '2>&1', '1>&2', '>&1'];
const NEAR_REDIRECT_OPS = ['&>', '&>>', '>|', '<>', '<&0', '>&-', '2>&-', '<<', '<<<', '>& ', '10>', '2 >', '>(', '<('];
const TARGETS = ['out.json', '/dev/null', 'log', 'in.txt', '"a b"', "'x'", '~/.profile', '*.txt', 'a=b', '=x', '2', '-', 'o2', '$LOG', '"$HOME/.bashrc"', '${X}', '$1', '$(x)', '$'];

/** One redirection: mostly of the closed set, with or without a blank before its target. */
function redirection(r: () => number): string {
  if (r() < 0.15) return pick<string>(r, NEAR_REDIRECT_OPS) + (r() < 0.7 ? pick<string>(r, TARGETS) : '');
  const op = pick<string>(r, REDIRECT_OPS);
  if (op.includes('&')) return op;
  return op + (r() < 0.5 ? blank(r) : '') + (r() < 0.8 ? pick<string>(r, TARGETS) : word(r));
}

function command(r: () => number): string {
  const n = 1 + Math.floor(r() * 5);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const first = r();
    words.push(i > 0 || first >= 0.9 ? word(r) : first < 0.6 ? pick<string>(r, PROGRAMS) : pick<string>(r, VOCABULARY));
  }
  // Now and then redirections: mostly after the words, sometimes between them (tree-sitter reads those otherwise).
  if (r() < 0.3) {
    const k = 1 + Math.floor(r() * 2);
    for (let j = 0; j < k; j++) {
      const at = r() < 0.85 ? words.length : 1 + Math.floor(r() * words.length);
      words.splice(at, 0, redirection(r));
    }
  }
  return words.map((w, i) => (i === 0 ? w : blank(r) + w)).join('');
}

/**
 * One generated line: one to six commands joined by operators, with blanks or none around them; with `extended` false,
 * none of the constructs of ADR 0087 but for what a near-miss character or a target brings.
 */
export function simpleishLine(r: () => number, extended = true): string {
  extendedOn = extended;
  try {
    return oneLine(r);
  } finally {
    extendedOn = true;
  }
}

function oneLine(r: () => number): string {
  const n = 1 + Math.floor(r() * 6);
  let line = r() < 0.1 ? blank(r) : '';
  for (let i = 0; i < n; i++) {
    if (i > 0) line += (r() < 0.7 ? blank(r) : '') + (r() < 0.015 && extendedOn ? '&' : pick<string>(r, SEPARATORS)) + (r() < 0.7 ? blank(r) : '');
    line += command(r);
  }
  if (r() < 0.05) line += (r() < 0.5 ? blank(r) : '') + ';';
  // A trailing `&` (ADR 0087), and now and then `&` where the reader does not take it.
  else if (r() < 0.08 && extendedOn) line += (r() < 0.7 ? blank(r) : '') + (r() < 0.85 ? '&' : pick<string>(r, ['& ls', '&;', '& &', '&|', '&>x', '& #', '&&', '& ;']));
  if (r() < 0.1) line += blank(r);
  if (r() < 0.1) {
    const at = Math.floor(r() * (line.length + 1));
    line = line.slice(0, at) + pick<string>(r, NEAR_CHARS) + line.slice(at);
  }
  return line;
}

const config = defaultConfig();

function analyse(line: string): LineAnalysis {
  return analyzeLine(line, config, '/work/project', { home: '/home/person' });
}

/**
 * Generates `count` lines from `seed`; for each the simple-line reader takes, the parse and the analysis must equal the
 * tree-sitter-only ones. Returns how many lines the reader took, so a caller can check the test is not vacuous.
 */
export function simpleLinesAgree(count: number, seed: number): { simple: number; total: number } {
  const r = prng(seed);
  let simple = 0;
  const differences: Array<{ line: string; fast: unknown; slow: unknown }> = [];
  for (let i = 0; i < count; i++) {
    const line = simpleishLine(r);
    if (!isSimpleLine(line)) continue;
    simple++;
    const fast = { parsed: parseLine(line), analysis: analyse(line) };
    const slow = treeSitterOnly(() => ({ parsed: parseLine(line), analysis: analyse(line) }));
    if (!isDeepStrictEqual(fast, slow)) differences.push({ line, fast: fast.parsed, slow: slow.parsed });
    if (differences.length >= 5) break;
  }
  expect(differences).toEqual([]);
  return { simple, total: count };
}
