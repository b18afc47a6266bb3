// The differential check of the plain-word path (ADR 0040): lines made of plain-looking words, decided with the
// plain-word path and with tree-sitter alone, must give identical analyses (parts, words, shapes, levels, reasons,
// patterns, policy). Run with a few thousand lines by plain-words.fuzz.test.ts and with hundreds of thousands by
// test/stress/fuzz.stress.test.ts.
import { isDeepStrictEqual } from 'node:util';
import { prng } from '../helpers/prng.js';
import { expect } from 'vitest';
import { analyzeLine, type LineAnalysis } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { isPlainLine, parseLine, treeSitterOnly } from '../../src/gate/parse.js';


/**
 * Words a plain line may start with or hold: programs the rules know (wrappers and launchers that run their operands,
 * shells and `eval` whose bodies are parsed again, `find -exec`), reserved words and declarations (which tree-sitter
 * reads as syntax), options with values, paths, and the characters of the quirks tree-sitter-bash has.
 */
export const VOCABULARY = [
  'ls', 'git', 'status', 'log', '--oneline', '-5', 'diff', 'HEAD~1', 'cat', 'README.md', 'grep', '-rn', 'TODO', 'src', 'rg',
  'find', '.', '-name', '-exec', '-delete', 'wc', '-l', 'head', 'tail', '-n', 'jq', 'npm', 'node', '--version', 'echo', 'rm',
  '-rf', '/', '/tmp/..', '/./', 'sudo', 'env', 'nice', 'timeout', '10', 'xargs', 'watch', 'nohup', 'exec', 'command', 'builtin',
  'time', 'eval', 'trap', 'ssh', 'host', 'sh', '-c', 'bash', '-s', 'zsh', 'busybox', 'script', '-qc', 'strace', '-f', 'curl',
  'wget', 'wisp', 'approvals', 'approve', 'deny', 'npx', 'wisp@latest', 'dist/bin/wisp.js', 'chat', 'respond', 'mcp', 'dd',
  'of=/dev/sda', 'if=/dev/zero', 'tee', '/dev/sda', 'mkfs.ext4', 'chmod', '-R', '777', 'git', 'push', '--force', 'origin',
  'main', 'clean', '-fdx', '-n', '--no-dry-run', 'branch', '--list', '--no-list', 'sed', '-i', '1e', 's/a/b/', 'awk', '-W',
  'tar', '--index-file=F', 'pip', '--log', 'F', '--registry=https://x.example', '--index-url', 'docker', '--config', 'cargo',
  'apt', '-o', 'Dir::Bin::x=./x', 'set', '-k', '-a', '-x', 'if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do',
  'done', 'case', 'esac', 'in', 'function', 'select', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset',
  'unsetenv', 'source', 'alias', 'cd', 'pwd', 'true', 'false', 'test', 'let', 'shift', 'return', 'exit', 'break', 'continue',
  'read', 'printf', 'kill', '-9', 'wait', 'jobs', 'fg', 'bg', '%1', '@', '%', '=', '+', ':', '+:', ':+', '=x', 'a=b', 'A=1',
  'x+=1', '--', '-', 'a.b', '..', '...', '-e', '--exec=sh', '--command=ls', 'user@host', 'a,b', '1', '0', '123', '-1', '+x',
  'python3', '-m', 'http.server', 'perl', 'ruby', 'php', 'nc', '-lvp', '4444', 'crontab', 'at', 'now', 'su', 'doas', 'pkexec',
];

const NAME_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-';
const ARG_CHARS = NAME_CHARS + ',:@%+=';
/** Characters just outside the plain set, so that the pre-scan's refusals are exercised too. */
const NEAR_CHARS = '~!#$^&*()[]{}\\|;\'"<>?`\n\r\u00a0é';

export function pick<T>(r: () => number, xs: readonly T[] | string): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

export function randomWord(r: () => number): string {
  const n = 1 + Math.floor(r() * 8);
  let w = '';
  for (let i = 0; i < n; i++) w += pick<string>(r, r() < 0.5 ? NAME_CHARS : ARG_CHARS);
  return w;
}

export function blank(r: () => number): string {
  const n = 1 + Math.floor(r() * (r() < 0.8 ? 1 : 3));
  let s = '';
  for (let i = 0; i < n; i++) s += r() < 0.85 ? ' ' : '\t';
  return s;
}

/** One generated line: mostly plain, sometimes with one character from just outside the plain set. */
export function plainishLine(r: () => number): string {
  const n = 1 + Math.floor(r() * 7);
  const words: string[] = [];
  for (let i = 0; i < n; i++) {
    const roll = r();
    let w = roll < 0.6 ? pick<string>(r, VOCABULARY) : roll < 0.9 ? randomWord(r) : pick<string>(r, VOCABULARY) + randomWord(r);
    if (r() < 0.03) {
      const at = Math.floor(r() * (w.length + 1));
      w = w.slice(0, at) + pick<string>(r, NEAR_CHARS) + w.slice(at);
    }
    words.push(w);
  }
  let line = words.map((w, i) => (i === 0 ? w : blank(r) + w)).join('');
  if (r() < 0.1) line = blank(r) + line;
  if (r() < 0.1) line += blank(r);
  return line;
}

const config = defaultConfig();
const CWD = '/work/project';
const HOME = '/home/person';

function analyse(line: string): LineAnalysis {
  return analyzeLine(line, config, CWD, { home: HOME });
}

/**
 * Generates `count` lines from `seed`; for each the plain-word path takes, the analysis (and the parse) must equal the
 * tree-sitter-only one. Returns how many lines the path took, so a caller can check the test is not vacuous.
 */
export function plainPathAgrees(count: number, seed: number): { plain: number; total: number } {
  const r = prng(seed);
  let plain = 0;
  const differences: Array<{ line: string; fast: unknown; slow: unknown }> = [];
  for (let i = 0; i < count; i++) {
    const line = plainishLine(r);
    if (!isPlainLine(line)) continue;
    plain++;
    const fast = { parsed: parseLine(line), analysis: analyse(line) };
    const slow = treeSitterOnly(() => ({ parsed: parseLine(line), analysis: analyse(line) }));
    if (!isDeepStrictEqual(fast, slow)) differences.push({ line, fast, slow });
    if (differences.length >= 5) break;
  }
  expect(differences).toEqual([]);
  return { plain, total: count };
}

