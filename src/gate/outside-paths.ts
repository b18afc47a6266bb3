// Places an asked command names outside the project (ADR 0099). The write rules know where some programs write
// (`cp`'s destination, `curl -o`); most programs' options are not in any table (`openssl -out`, `gpg -o`, `scp`'s
// local target, `dd of=`, `git -C ..`). So every asked command gets a reason for each word that is a path outside the
// project: the person sees the place, and an answer given for one command line never covers the same command
// pointed elsewhere (an answer covers only lines whose reasons it was shown: ADR 0015).
import { type CmdView, type Finding, insideProject, moderate, resolvePath } from './rules-common.js';

/** The path a word names, when it may lead out of the project: `/…`, `~…`, `..`, or such a value after `--opt=`. */
function leavingPath(word: string): string | undefined {
  if (mayLeave(word)) return word;
  // `--output=/etc/x`, `of=~/x`: the value after the first `=`.
  const eq = word.indexOf('=');
  if (eq > 0 && eq < word.length - 1) {
    const value = word.slice(eq + 1);
    if (mayLeave(value)) return value;
  }
  return undefined;
}

function mayLeave(w: string): boolean {
  const c = w.charCodeAt(0);
  return c === 0x2f /* / */ || c === 0x7e /* ~ */ || w.includes('..') || w.startsWith('$HOME') || w.startsWith('${HOME}');
}

/** Devices are not places (`/dev/null`); the redirect rules and the disk-write entry handle the others. */
function isDevicePath(p: string): boolean {
  return p === '/dev' || p.startsWith('/dev/');
}

/**
 * Adds `names a path outside the project (WORD)` for each argument of `c` that resolves outside the project and the
 * temp folders, unless a reason already names that word (`writes outside the project (~/x)`). Call only for a command
 * that is asked anyway (not read-only): a reason here never makes a command asked that was not.
 */
export function outsidePathFindings(c: CmdView, findings: Finding[]): void {
  for (const w of c.args) {
    const path = leavingPath(w);
    if (path === undefined) continue;
    const p = resolvePath(path, c);
    // A path known only when it runs (`$DIR/x`) is the business of the rules that look for computed values.
    if (p === undefined || isDevicePath(p) || insideProject(p, c)) continue;
    const named = `(${path})`;
    if (findings.some((f) => f.reason.endsWith(named))) continue;
    findings.push(moderate(`names a path outside the project ${named}`));
  }
}
