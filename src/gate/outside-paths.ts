// Places an asked command names outside the project (ADR 0099). The write rules know where some programs write
// (`cp`'s destination, `curl -o`); most programs' options are not in any table (`openssl -out`, `gpg -o`, `scp`'s
// local target, `dd of=`, `git -C ..`). So every asked command gets a reason for each word that is a path outside the
// project: the person sees the place, and an answer given for one command line never covers the same command
// pointed elsewhere (an answer covers only lines whose reasons it was shown: ADR 0015).
import { type CmdView, type Finding, moderate, resolvePath } from './rules-common.js';
import { insideByPrefix } from './rules-files.js';

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

/** A URL (`s3://bucket/key`, `https://host/x`, `git@host:r`): a place outside the project by its nature. */
const URL_WORD = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/]/;

function mayLeave(w: string): boolean {
  const c = w.charCodeAt(0);
  return c === 0x2f /* / */ || c === 0x7e /* ~ */ || w.includes('..') || w.startsWith('$HOME') || w.startsWith('${HOME}');
}

/** Devices are not places (`/dev/null`); the redirect rules and the disk-write entry handle the others. */
function isDevicePath(p: string): boolean {
  return p === '/dev' || p.startsWith('/dev/');
}

/**
 * Adds `names a place outside the project (WORD)` for each argument of `c` that resolves outside the project and the
 * temp folders, or is a URL (`s3://bucket/`, for a command that names no host it reaches), unless a reason already
 * names that word (`writes outside the project (~/x)`). Call only for a command
 * that is asked anyway (not read-only): a reason here never makes a command asked that was not.
 */
export function outsidePathFindings(c: CmdView, findings: Finding[]): void {
  // Run elsewhere (a `cd` earlier in the line, ADR 0100), every relative word is a place there: the folder is named, as
  // the table names it for a read (locations.ts cwdReason).
  if (c.cwd !== c.project && !insideByPrefix(c.cwd, c.project)) {
    const reason = `runs in a directory outside the project (${c.cwd})`;
    if (!findings.some((f) => f.reason === reason)) findings.push(moderate(reason));
  }
  // A network tool already names the hosts it reaches: its URLs would only repeat them.
  const reaches = findings.some((f) => f.reason.startsWith('reaches '));
  for (const w of c.args) {
    if (!reaches && w.includes('://') && URL_WORD.test(w)) {
      addPlace(w, findings);
      continue;
    }
    const path = leavingPath(w);
    if (path === undefined) continue;
    const p = resolvePath(path, c);
    // A path known only when it runs (`$DIR/x`) is the business of the rules that look for computed values.
    if (p === undefined || isDevicePath(p) || insideByPrefix(p, c.project)) continue;
    addPlace(path, findings);
  }
}

function addPlace(place: string, findings: Finding[]): void {
  // A reason that already shows the word (`writes outside the project (~/x)`, `installs https://…`) says enough.
  if (findings.some((f) => f.reason.includes(place))) return;
  findings.push(moderate(`names a place outside the project (${place})`));
}
