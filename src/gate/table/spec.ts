import type { WordShape } from '../types.js';

// The shape of one row of the read-only table (docs/decisions/0014-safe-by-construction.md). A row lists every
// option a program may be given and still only read; anything it does not list makes the command "not safe".

/**
 * What an option's value (or an operand) may be:
 * - `text`: any literal word (a pattern, a format, a name);
 * - `num`: digits, optionally signed or with a size suffix (`-n 5`, `-c +10`, `-B 1K`);
 * - `path`: a file to read (checked like any other word for secrets; never a glob);
 * - `inside`: a directory that must lie inside the project (`git -C sub`);
 * - `pair`: two following words (`jq --arg NAME VALUE`), never attached;
 * - a list: one of these words;
 * - a function: a custom check returning a reason when the value is not acceptable.
 */
export type ValueKind = 'text' | 'num' | 'path' | 'inside' | 'pair' | readonly string[] | ValueCheck;
export type ValueCheck = (value: string, env: TableEnv) => string | undefined;

export interface TableEnv {
  /** The directory the command runs in. */
  readonly cwd: string;
  readonly home: string;
  /** The project (launch directory) files may be read in unasked; the directory the command runs in when absent. */
  readonly project?: string;
  /**
   * Whether a run allowed unasked is contained (sandbox on: secret files shown empty, ADR 0093). Absent or false:
   * nothing hides them, so a read whose files the words do not name is not safe.
   */
  readonly contained?: boolean;
}

export interface ProgramSpec {
  /** Short options that take no value (`'laR1'`). */
  readonly flags?: string;
  /** Short options that take a value, attached (`-n5`) or in the next word (`-n 5`). */
  readonly values?: Readonly<Record<string, ValueKind>>;
  /** Long options: `null` takes no value; a kind takes a value as `--opt=v` or `--opt v`. */
  readonly long?: Readonly<Record<string, ValueKind | null>>;
  /** Long options whose value is optional and can only be attached (`--color`, `--color=never`). */
  readonly optionalLong?: Readonly<Record<string, ValueKind>>;
  /**
   * Long options may be abbreviated (getopt_long). Only set for programs none of whose real long options is
   * harmful, so an abbreviation the real program resolves differently can only pick another harmless option.
   */
  readonly abbreviations?: boolean;
  /** `-5` means a count (head, tail, grep context, git log). */
  readonly numericOption?: boolean;
  /** Options may follow operands (GNU permutation). False: the first operand ends the options. */
  readonly permute?: boolean;
  /** Everything is an operand; no option is recognised (echo, printf: they print their words). */
  readonly noOptions?: boolean;
  readonly operands?: { readonly min?: number; readonly max?: number };
  /**
   * Every option the real program has is harmless, so a glob that expands to a file name shaped like an option
   * (`--hide=x`) cannot do harm: leading globs (`ls *.ts`, `du -sh *`) are accepted as operands.
   */
  readonly globSafe?: boolean;
  /** The first operand names a sub-command; each has its own row. Options before it belong to this row. */
  readonly subcommands?: Readonly<Record<string, ProgramSpec>>;
  /** Without a sub-command: allowed only when these options are present alone (`git --version`). */
  readonly bareAllowed?: boolean;
  /** A grammar the parsed arguments must also satisfy (sed scripts, awk programs, jq filters, find expressions). */
  readonly check?: (parsed: ParsedArgs, env: TableEnv) => string | undefined;
  /**
   * Content readers that recurse into directories when these options are set (or always, for `true`); `NAME=VALUE`
   * when the option recurses only with that value.
   */
  readonly recursive?: true | readonly string[];
  /**
   * The program prints names, sizes, types or sums of the files it is given, never their content (ls, du, stat, wc,
   * find): a glob or a folder given to it reads no secret even when nothing contains the run (ADR 0093).
   */
  readonly namesOnly?: true;
  /**
   * The program shows other processes' command lines (ps, pgrep), which can hold passwords and tokens (`mysql -p…`,
   * `--token …`). A contained run on Linux sees only its own processes; with nothing containing it, it is asked.
   */
  readonly seesProcesses?: true;
  /**
   * git reads that run what a repository's own settings name: diff, textconv and filter drivers (`git diff`, `git log
   * -p`, `git status`). With nothing containing the run, one in a repository other than the project's is asked
   * (ADR 0100).
   */
  readonly repositoryPrograms?: true;
  /**
   * Which operands name files the program reads, for the location allow-list (src/gate/locations.ts, ADR 0063).
   * Absent: every operand. `none`: no operand (echo, test: they print or compare words). `skipFirstUnless`: the first
   * operand is a pattern, script or filter unless one of these options is given. A function: the words that do, for
   * rows with a grammar of their own (find's starting points, tar's archive). Option values of kind `path` or
   * `inside` always name files.
   */
  readonly files?: 'none' | { readonly skipFirstUnless: readonly string[] } | ((parsed: ParsedArgs) => readonly FileWord[]);
}

/** A word that names a file the program reads, with how it was written. */
export interface FileWord {
  readonly word: string;
  readonly shape: WordShape;
}

export interface ParsedOption {
  /** Canonical name: `-n` or `--lines` (abbreviations expanded). */
  readonly name: string;
  readonly value?: string;
  /** Set when the value names a file (kind `path` or `inside`): how the value was written. */
  readonly file?: WordShape;
}

export interface ParsedArgs {
  readonly options: readonly ParsedOption[];
  readonly operands: readonly string[];
  /** How each operand was written (for grammars where a glob must not become an expression word). */
  readonly operandShapes?: readonly WordShape[];
}
