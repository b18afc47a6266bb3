// The differential check of the heredoc-header reader (ADR 0084): generated lines of a command (from the simple-line
// generator, and commands that end in a lone `-`), a heredoc operator, a delimiter and a tail, each from the reader's
// closed set and from just outside it. For each line the reader takes, the parse and the analysis must equal the
// tree-sitter-only ones. A few thousand lines in `npm test` (heredoc-headers.fuzz.test.ts), more in test:stress.
import { expect } from 'vitest';
import { isHeredocHeader } from '../../src/gate/parse.js';
import { prng } from '../helpers/prng.js';
import { pick } from './plain-words.js';
import { simpleishLine } from './simple-lines.js';
import { sameAsTreeSitter } from './same-reading.js';

/** Commands around the lone-dash rule and the blanks before the operator. */
const COMMANDS = [
  'python3 -', 'cat -', 'cat - x', 'cat - -', 'cat -- -', 'cat > o -', 'a - b -', "cat '-'", 'cat "-"', 'python3  -', 'cat\t-',
  'cat -\t', 'cat  ', 'cat', 'sh', 'bash -s', 'bash', 'sh -c', 'ssh host', 'sudo tee /etc/x', 'eval', 'tee out', 'cat > config.json',
  'cat >> o 2>&1', 'cat 2>&1', 'cat < in', 'cat 2> err', 'echo done', 'echo fi then', 'cat 1', 'cat 2', 'cat 0', 'FOO=1 cat', 'cat {}',
  'x', '-', 'cat a=b', 'python3 - x',
];
const OPERATORS = ['<<', '<<-', '<< ', '<<- ', '<<<', '<<\t', '<<<<'];
/** Delimiters of the reader's set, and ones just outside it. */
const DELIMITERS = ['EOF', "'EOF'", '"EOF"', 'PY', "'PY'", 'E_1', '1', 'x', 'EOF2', 'END', '"exit"', "'x_2'", '0', '2', '10', '_', 'A1', '1a', '"0"'];
const NEAR_DELIMITERS = [
  'if', 'done', "'fi'", '"esac"', 'export', '-EOF', "''", '""', "'E O'", '"a b"', "'x'y", 'x"y"', '\\EOF', 'a.b', 'E-F', '$X', '"$X"', '`x`', '$(x)', 'EOF;', 'EOF&', 'é',
  'E\u00a0F', "'EOF", '"EOF', '',
];
/** Tail tokens of the reader's set (reserved words among them), and ones just outside it. */
const TAIL_TOKENS = [
  'x', 'a.txt', '>', '>>', '|', '&&', '2>&1', '-v', '--', 'sh', 'bash', 'rm', '-rf', '/', 'EOF', '=x', 'a=b', '%', ':', '.', 'eval',
  'exit', 'return', 'source', 'exec', 'command', 'builtin', 'test', 'true', 'x=1', 'a+=b', '@', ',', '+', '-', '1a', '0x',
  '-1', '+1', '=', '==', '=~', '..', './x', '--x', 'a-', '_', 'A', 'a.b.c', '%x', ':x', 'a:b', 'x,y', '@x', 'a@b', '1.5', 'PY',
];
const NEAR_TAIL_TOKENS = [
  'if', 'then', 'fi', 'do', 'done', 'in', 'esac', 'case', 'for', 'while', 'until', 'select', 'function', 'time', 'coproc',
  'export', 'declare', 'local', 'readonly', 'typeset', 'unset', '0', '2', '10',
  '{', '}', '!', '~', ';', '&', '||', '<', '<<B', '<<<x', "'a'", '"a"', '$x', '$(x)', '`x`', '#', '>(sh)', '<(x)', '(', ')',
  '>&2', '1>&2', '&>', 'a;b', 'é', '\\', '\n', 'EOF\nrm', '[[', ']]',
];

/** Targets of the one redirection the set takes, and ones just outside it. */
const TARGETS = ['script.sh', 'out.txt', 'a', '/tmp/x', './x', '.env', '_x', 'a-b', 'a.b.c', 'EOF', 'x1', 'sh', 'exit'];
const NEAR_TARGETS = ['2', '-1', '0x', '1a', 'fi', 'done', 'export', '-', '~/x', 'a b', "'x'", '"x"', '$x', '>(sh)', 'a=b', ''];

function tail(r: () => number): string {
  const roll = r();
  if (roll < 0.35) return '';
  if (roll < 0.7) {
    const target = r() < 0.85 ? pick<string>(r, TARGETS) : pick<string>(r, NEAR_TARGETS);
    return ' ' + pick<string>(r, ['>', '>>', '> ', '>> ', '>|', '2>', '<', '&>']).trim() + pick<string>(r, [' ', ' ', ' ', '', '  ']) + target;
  }
  const n = 1 + Math.floor(r() * 4);
  let out = '';
  for (let i = 0; i < n; i++) {
    out += r() < 0.95 ? ' ' : pick<string>(r, ['', '  ', '\t']);
    out += r() < 0.8 ? pick<string>(r, TAIL_TOKENS) : pick<string>(r, NEAR_TAIL_TOKENS);
  }
  return out;
}

/** One generated line: a command, a blank (or not), an operator, a delimiter and a tail. */
export function heredocHeaderLine(r: () => number): string {
  // Lines with the constructs of ADR 0087 (left to tree-sitter before `<<`) only now and then.
  const command = r() < 0.5 ? simpleishLine(r, r() < 0.1) : pick<string>(r, COMMANDS);
  const before = r() < 0.93 ? ' ' : pick<string>(r, ['', '  ', '\t']);
  const operator = r() < 0.85 ? pick<string>(r, ['<<', '<<-']) : pick<string>(r, OPERATORS);
  const delimiter = r() < 0.85 ? pick<string>(r, DELIMITERS) : pick<string>(r, NEAR_DELIMITERS);
  return command + before + operator + delimiter + tail(r);
}

export { sameAsTreeSitter };

/**
 * Generates `count` lines from `seed`; for each the reader takes, the parse and the analysis must equal the
 * tree-sitter-only ones. Returns how many it took, so a caller can check the test is not vacuous.
 */
export function heredocHeadersAgree(count: number, seed: number): { taken: number; total: number } {
  const r = prng(seed);
  let taken = 0;
  const differences: string[] = [];
  for (let i = 0; i < count; i++) {
    const line = heredocHeaderLine(r);
    if (!isHeredocHeader(line)) continue;
    taken++;
    if (!sameAsTreeSitter(line)) differences.push(line);
    if (differences.length >= 5) break;
  }
  expect(differences).toEqual([]);
  return { taken, total: count };
}
