// Shared pieces of the classifier's rule families: the view of one command they all read, findings, flag helpers.
import { isAbsolute, relative, resolve } from 'node:path';
import type { Level } from '../core/levels.js';
import type { Part } from './types.js';
import type { ResolvedCommand } from './wrappers.js';

/** One command as the rules see it. */
export interface CmdView {
  readonly part: Part;
  /** The part's text (for unparsed parts, the rough segment's words joined). */
  readonly text: string;
  readonly words: readonly string[];
  readonly r: ResolvedCommand;
  /** Lower-case basename of the program that runs ('' when nothing runs). */
  readonly exe: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The project: what is inside. The launch directory, or `cwd` when not given; a `cd` earlier in the line moves `cwd` only. */
  readonly project: string;
  readonly home: string;
}

export interface Finding {
  readonly level: Level;
  readonly reason: string;
  /** The risk lives in the whole pipeline (`env | grep TOKEN`), so the pipeline text keys the answer. */
  readonly scope?: 'pipeline';
  /**
   * The finding is about a value the words give (a setting that runs a program, `EDITOR=CMD`, `git -c core.pager=CMD`):
   * the part is keyed by its exact text, so an answer for one value never covers another (ADR 0099).
   */
  readonly exact?: boolean;
}

export type RuleFamily = (c: CmdView) => Finding[];

/**
 * A rule family and the commands it can find anything in (ADR 0066): the classifier runs a family only for these,
 * so a family must return no finding for any other command — test/gate/rules-dispatch.test.ts checks that over every
 * name the rule modules mention. Names are resolved executables (`CmdView.exe`: after wrappers, basename,
 * lower-case).
 */
export interface Family {
  readonly rule: RuleFamily;
  /** Executables the family looks at. */
  readonly programs?: Iterable<string>;
  /** Executables too many to list (`mkfs.ext4`, `python3.12`): a test on the name. */
  readonly matches?: (exe: string) => boolean;
  /** Wrappers (`CmdView.r.wrappers`) that bring the family in whatever program they run (`sudo ls`). */
  readonly wrappers?: Iterable<string>;
  /** The family looks at every command (a program named by path; a later stage of a pipeline). */
  readonly everyCommand?: true;
}

export const dangerous = (reason: string, scope?: 'pipeline'): Finding => ({ level: 'dangerous', reason, ...(scope ? { scope } : {}) });
export const moderate = (reason: string): Finding => ({ level: 'moderate', reason });
/** A moderate finding whose part is keyed by its exact text (Finding.exact). */
export const moderateExact = (reason: string): Finding => ({ level: 'moderate', reason, exact: true });

/** Short option clusters (`-rf`) and long options before `--`. */
export function optionWords(args: readonly string[]): string[] {
  const out: string[] = [];
  for (const a of args) {
    if (a === '--') break;
    if (a.startsWith('-') && a.length > 1) out.push(a);
  }
  return out;
}

/** True when a short letter appears in any `-abc` cluster, or one of the long options is present (also `--x=v`). */
export function hasFlag(args: readonly string[], letters: string, longs: readonly string[] = []): boolean {
  for (const o of args) {
    if (o === '--') break;
    if (!o.startsWith('-') || o.length < 2) continue; // the words optionWords lists, without building the list
    if (o.startsWith('--')) {
      const name = o.split('=')[0]!;
      if (longs.includes(name)) return true;
    } else if (/^-[A-Za-z0-9]+$/.test(o)) {
      for (const l of letters) if (o.includes(l)) return true;
    }
  }
  return false;
}

/** Whether any word equals, or starts with `name=` for, one of the given long options. */
export function hasLong(args: readonly string[], names: readonly string[]): boolean {
  return args.some((a) => names.some((n) => a === n || a.startsWith(n + '=')));
}

/**
 * Fail-closed form of {@link hasFlag}/{@link hasLong}, for "this option makes it unsafe" checks: a short letter
 * anywhere in the leading letters of a cluster, also when a value is attached (`-Hfirefox`, `-O'touch m'`), and a
 * long option also by a GNU-style abbreviation (`--out=m` is `--output`; getopt_long and git accept any unambiguous
 * prefix). Never use it where finding the option makes a command *safer*: a prefix may be ambiguous to the program.
 */
export function mentionsOption(args: readonly string[], letters: string, longs: readonly string[] = []): boolean {
  for (const o of args) {
    if (o === '--') break;
    if (!o.startsWith('-') || o.length < 2) continue; // the words optionWords lists, without building the list
    if (o.startsWith('--')) {
      const name = o.split('=')[0]!;
      if (name.length > 2 && longs.some((l) => l === name || l.startsWith(name))) return true;
    } else {
      const cluster = /^-([A-Za-z0-9]+)/.exec(o)?.[1] ?? '';
      for (const l of letters) if (cluster.includes(l)) return true;
    }
  }
  return false;
}

/** Arguments that are not options (everything after `--` counts). */
export function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') {
      ended = true;
      continue;
    }
    if (ended || !a.startsWith('-') || a === '-') out.push(a);
  }
  return out;
}

/** The first operand (a subcommand), skipping options and the values of the listed value options. */
export function firstOperand(args: readonly string[], valueOptions: readonly string[] = []): { word: string | undefined; index: number } {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return { word: args[i + 1], index: i + 1 };
    if (a.startsWith('-') && a.length > 1) {
      if (!a.includes('=') && valueOptions.includes(a)) i++;
      continue;
    }
    return { word: a, index: i };
  }
  return { word: undefined, index: args.length };
}

const HOME_WORD = /^(~|\$HOME|\$\{HOME\})(\/|$)/;

/** Resolves a path argument against cwd and home; undefined when it depends on other variables. */
export function resolvePath(arg: string, c: CmdView): string | undefined {
  let p = arg;
  const home = HOME_WORD.exec(p);
  if (home) p = c.home + p.slice(home[1]!.length);
  else if (/^~[A-Za-z_]/.test(p)) return '/'; // another user's home: outside the project by definition
  if (p.includes('$') || p.includes('`')) return undefined;
  return isAbsolute(p) ? resolve(p) : resolve(c.cwd, p);
}

export function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  // `...` is a name, not the parent: only `..` itself or `../…` leaves.
  return rel === '' || (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel));
}

export const TEMP_ROOTS = ['/tmp', '/private/tmp', '/var/tmp', '/private/var/folders', '/var/folders'];

/** Inside the project or a temp directory. */
export function insideProject(path: string, c: CmdView): boolean {
  if (isInside(path, c.project)) return true;
  const tmp = process.env.TMPDIR;
  return TEMP_ROOTS.some((t) => isInside(path, t)) || (tmp !== undefined && tmp !== '' && isInside(path, resolve(tmp)));
}

/** The whole text a rule may look at: part text, unquoted words and redirections. */
export function fullText(c: CmdView): string {
  let text = c.text + '\n' + c.words.join(' ');
  for (const r of c.part.redirects) text += '\n' + r;
  return text;
}

export function isPython(exe: string): boolean {
  return /^(python[0-9.]*|pypy[0-9.]*)$/.test(exe);
}
