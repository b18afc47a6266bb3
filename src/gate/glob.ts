// One component of a shell glob (`*.ts`, `g?`, `[ab]*`) as a regular expression, and the limits that keep matching
// it fast: the gate matches globs against fixed lists of names (secret names, locations), never against a disk.
import { shortcuts } from './shortcuts.js';

/** Whether a word (or one component of it) holds a wildcard the shell expands. */
export function hasWildcard(text: string): boolean {
  return /[*?[]/.test(text);
}

/**
 * A component too intricate to match safely: a backtracking match of many wildcards can take exponential time, so
 * such a glob is simply not safe (the caller refuses it).
 */
export function tooIntricate(component: string): boolean {
  return component.length > 64 || (component.match(/[*?[]/g) ?? []).length > 6;
}

/** The regular expression for one glob component (no `/`). An unreadable class is taken to match anything. */
export function globRegex(glob: string): RegExp {
  let re = '^';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '\\' && i + 1 < glob.length) re += glob[++i]!.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
    else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        re += '[' + glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
        i = end;
      }
    } else re += ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  try {
    return new RegExp(re + '$');
  } catch {
    return /[\s\S]/;
  }
}

/**
 * Whether the glob component `g` can match the name `name`, as bash matches it: a wildcard never matches a leading
 * dot, so only a component written with a leading `.` (or `\.`; `[.]` too, to err on the safe side) reaches hidden
 * names.
 */
export function componentMatches(g: string, name: string): boolean {
  if (!hasWildcard(g)) return g === name;
  if (name.startsWith('.') && !/^[.\\[]/.test(g)) return false;
  return globMatcher(g)(name);
}

/**
 * `globRegex(glob).test`, without compiling an expression when the glob holds no class, no escape and no `/` (`*.ts`,
 * `a?c`): then it is literal characters, `*` (any run without `/`) and `?` (one character but `/`), so a name with a
 * `/` never matches, and any other is matched by the usual scan that goes back only to the last `*` (linear in the
 * name times the glob). Compiling an expression per glob and name was most of what a glob word cost the gate
 * (ADR 0074); a test compares both ways.
 */
export function globMatcher(glob: string): (name: string) => boolean {
  if (!shortcuts.on || glob.includes('[') || glob.includes('\\') || glob.includes('/')) {
    const re = globRegex(glob);
    return (name) => re.test(name);
  }
  return (name) => !name.includes('/') && simpleGlobMatches(glob, name);
}

/** `*` and `?` against a name, code unit by code unit (as an expression without the `u` flag reads them). */
function simpleGlobMatches(glob: string, name: string): boolean {
  let g = 0;
  let n = 0;
  let star = -1; // the glob index after the last `*` seen
  let from = 0; // where in the name that `*` started matching
  while (n < name.length) {
    const gc = g < glob.length ? glob.charCodeAt(g) : -1;
    if (gc === 42) {
      // `*`: match nothing for now.
      star = ++g;
      from = n;
    } else if (gc === 63 || (gc !== -1 && gc === name.charCodeAt(n))) {
      // `?` or the same character.
      g++;
      n++;
    } else if (star >= 0) {
      // Let the last `*` take one more character and try again after it.
      g = star;
      n = ++from;
    } else {
      return false;
    }
  }
  while (g < glob.length && glob.charCodeAt(g) === 42) g++;
  return g === glob.length;
}
