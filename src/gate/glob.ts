// One component of a shell glob (`*.ts`, `g?`, `[ab]*`) as a regular expression, and the limits that keep matching
// it fast: the gate matches globs against fixed lists of names (secret names, locations), never against a disk.

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
  return globRegex(g).test(name);
}
