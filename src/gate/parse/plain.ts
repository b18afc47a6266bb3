// The plain-word path (ADR 0040). A text of nothing but plain words — a small character set, no quotes, escapes,
// expansions, globs, operators, comments or newlines — is one simple command whose words are its blank-separated
// pieces, as tree-sitter reads it. A differential fuzz test (test/fuzz/plain-words.fuzz.test.ts, and many more lines
// in test:stress) keeps the two paths identical. Where tree-sitter-bash reads such text otherwise (a reserved word or
// declaration first, a program name starting with `-` or holding `@`/`%`/`=`/`+`/`:`, a word starting with `=`, `+:`), the text takes the
// tree-sitter path.
import { BOUNDED_LENGTH } from './runtime.js';

/** Tests switch the plain-word path off to compare it with tree-sitter (test/fuzz/plain-words.fuzz.test.ts). */
let plainPathOn = true;

/** Whether the fast paths (plain words, ADR 0040; simple lines, ADR 0052) are on: tests switch them off. */
export function fastPathsOn(): boolean {
  return plainPathOn;
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

const PLAIN_TEXT = /^[ \t]*[A-Za-z0-9_./][A-Za-z0-9_./-]*(?:[ \t]+[A-Za-z0-9_./,:@%+=-]+)*[ \t]*$/;
/** First words tree-sitter reads as syntax (reserved words, declarations): such texts take the tree-sitter path. */
export const NOT_PLAIN_NAME: ReadonlySet<string> = new Set([
  'if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'in', 'function', 'select',
  'time', 'coproc', 'declare', 'typeset', 'export', 'readonly', 'local', 'unset', 'unsetenv',
]);

/** Whether the plain-word path reads `line` itself (what it runs may still need the parser). */
export function isPlainLine(line: string): boolean {
  return plainWords(line) !== undefined;
}


/** The words of `src` when the plain-word path can read it, else undefined. */
export function plainWords(src: string): string[] | undefined {
  if (!plainPathOn || src.length > BOUNDED_LENGTH || !PLAIN_TEXT.test(src)) return undefined;
  const words = blankSeparated(src);
  if (NOT_PLAIN_NAME.has(words[0]!)) return undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w.charCodeAt(0) === 0x3d || w.includes('+:')) return undefined;
  }
  return words;
}

/** The pieces between spaces and tabs (by hand: splitting on an expression and dropping empties cost half as much again). */
function blankSeparated(src: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c === 0x20 || c === 0x09) {
      if (start >= 0) words.push(src.slice(start, i));
      start = -1;
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) words.push(src.slice(start));
  return words;
}
