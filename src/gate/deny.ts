// The built-in deny list: a few things a model's command must never do, whatever the spelling, even with a person's
// approval. Each entry has a name and a sentence (what refusals, `wisp check --json`, the audit log and dialogs show)
// and a check on the parsed parts, not on raw text: quotes and escapes are already removed by the parser, wrappers and
// launchers (`env`, `nohup`, `strace -f`, `busybox`, `script -qc '…'`, `npx`, …) are peeled, program names are reduced
// to their basename and also read with expansions dropped (`sudo$IFS`) and braces expanded (`{sudo,}`), and paths are
// normalised (`/tmp/..` is `/`). Over-reading only adds refusals, so every reading is generous (ADR 0018).
import { posix } from 'node:path';
import { canParse, isSubstitutionLine, parsedAsWritten, parseLine, ParserNotReady } from './parse.js';
import { BOUNDED_LENGTH } from './parse/runtime.js';
import type { Part } from './types.js';
import { basename, dropExpansions, isAssignment, requote, roughlyOneList, roughlyPlain, roughSegments, stripEnclosingQuotes, trimTrailingSlashes } from './words.js';
import { MULTI_CALL, SHELLS as SHELL_PROGRAMS } from '../core/shells.js';
import { isWrapper, resolveCommand } from './wrappers.js';
import { mayHoldName } from './name-tokens.js';
import { ListIndex } from './word-lists.js';
import { type InlineCode, inlineCodeOf, inlineCodeTexts, sedMayRun, shellCommandsIn } from './foreign-code.js';
import { GIT_COMMAND_SETTINGS } from './stored-code.js';

export interface DenyEntry {
  /** Stable name, used in `policyRule`, the audit log and the docs. */
  readonly name: string;
  /** What the command would do, as a sentence fragment: "downloads and runs a script". */
  readonly sentence: string;
}

export interface DenyHit extends DenyEntry {
  /** The part's text where the entry matched. */
  readonly part: string;
}

/** One command to look at: the words from its program on, and where it came from. */
interface Cmd {
  readonly words: readonly string[];
  readonly part: Part;
  /** The program word's candidate names (lower-case basenames): as written, expansions dropped, braces expanded. */
  readonly names: ReadonlySet<string>;
}

const PRIVILEGE = new Set(['sudo', 'sudoedit', 'doas', 'pkexec', 'run0', 'su', 'ksu', 'please', 'calife', 'super', 'runuser', 'sg', 'newgrp', 'machinectl']);

/** The shells (one list, src/core/shells.ts) and the programs that start one: `busybox sh`, `script`. */
const SHELLS: ReadonlySet<string> = new Set([...SHELL_PROGRAMS, ...MULTI_CALL, 'script']);

/** Interpreters that read their program from stdin when given no script operand (or `-`). */
const INTERPRETERS = /^(python[\d.]*|pypy[\d.]*|perl[\d.]*|ruby[\d.]*|node|nodejs|deno|bun|php[\d.]*|lua[\d.]*|luajit|tclsh[\d.]*|wish[\d.]*|rscript|r|pwsh|powershell|osascript|jshell|groovy|julia|guile|racket|sbcl|ocaml|ghci|irb|jrunscript|expect|gawk|awk|mawk|nawk|busybox|source|\.)$/;

const FETCHERS = new Set([
  'curl', 'wget', 'wget2', 'fetch', 'ftp', 'tftp', 'sftp', 'aria2c', 'axel', 'http', 'https', 'xh', 'xhs', 'curlie', 'httpie',
  'lwp-request', 'lynx', 'links', 'elinks', 'w3m', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'openssl',
  'gnutls-cli', 'ssh', 'rsync', 'scp', 'smbclient', 'gh', 'invoke-webrequest', 'iwr', 'irm', 'invoke-restmethod', 'bitsadmin',
]);

/**
 * Programs that run another program named among their arguments. For these, every word that is not an option is
 * also read as the start of a command (generous: `strace -o log sh` reads `log …` and `sh`).
 */
const LAUNCHERS = new Set([
  'busybox', 'toybox', 'strace', 'ltrace', 'script', 'chroot', 'unshare', 'nsenter', 'flock', 'firejail', 'bwrap', 'systemd-run',
  'setpriv', 'taskset', 'chrt', 'prlimit', 'faketime', 'proxychains', 'proxychains4', 'torsocks', 'tsocks', 'valgrind', 'gdb',
  'rlwrap', 'fakeroot', 'fakechroot', 'dbus-run-session', 'xvfb-run', 'ssh-agent', 'numactl', 'cgexec', 'setarch', 'linux32',
  'linux64', 'catchsegv', 'eatmydata', 'parallel', 'entr', 'tmux', 'screen', 'at', 'batch', 'npx', 'pnpx', 'bunx', 'npm', 'pnpm',
  'yarn', 'bun', 'node', 'nodejs', 'deno', 'tsx', 'ts-node', 'uv', 'uvx', 'pipx', 'poetry', 'pdm', 'hatch', 'conda', 'mamba',
  'nix-shell', 'nix', 'direnv', 'dotenv', 'time', 'nice', 'nohup', 'env', 'exec', 'command', 'builtin', 'xargs', 'timeout', 'stdbuf',
  'ionice', 'setsid', 'watch', 'unbuffer', 'chronic', 'caffeinate', 'sudo', 'doas', 'pkexec', 'run0', 'su', 'runuser', 'sg', 'ksu',
  'please', 'machinectl', 'stdbuf', 'then', 'do', 'else', 'if', 'while', 'until', '!', 'coproc', 'fc', 'tsp', 'sem', 'ssh',
  'mise', 'rtx', 'asdf', 'devbox', 'proot', 'watchexec', 'xterm', 'gnome-terminal', 'konsole', 'alacritty', 'kitty', 'wezterm',
]);

/** Options of launchers whose value is a shell command line (`script -c CMD`, `su -c CMD`, `npx -c CMD`). */
const COMMAND_OPTIONS: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
  script: ['-c', '--command'],
  su: ['-c', '--command', '--session-command'],
  runuser: ['-c', '--command', '--session-command'],
  sg: ['-c'],
  flock: ['-c', '--command'],
  npx: ['-c', '--call'],
  npm: ['-c', '--call'],
  'nix-shell': ['--run', '--command'],
  parallel: [],
  tmux: [],
  screen: [],
} satisfies Record<string, readonly string[]>));
const NO_OPTIONS: readonly string[] = [];

/**
 * bash builtins given code in an option (ADR 0090, 0092): `line` options take a command line the builtin runs
 * (`mapfile -C CMD`, `compgen -C CMD`), `expanded` options a text it expands (`compgen -W '$(cmd)'`), `program`
 * options a program a later name runs (`hash -p PROG NAME`). `arithmetic`: the words are evaluated as arithmetic or
 * as names with subscripts (`let 'a[$(cmd)]=1'`, `declare -i`, `read 'a[$(cmd)]'`), where a `$(…)` runs. Short
 * options only: none of them has long ones; a letter counts anywhere in a cluster (`-tC CMD`, `-CCMD`).
 */
interface BuiltinCode {
  readonly line: string;
  readonly expanded: string;
  readonly program: string;
  readonly arithmetic: boolean;
  /** `alias NAME=VALUE`: each value is a command line. */
  readonly aliases?: boolean;
}
const BUILTIN_CODE: ReadonlyMap<string, BuiltinCode> = new Map(Object.entries({
  mapfile: { line: 'C', expanded: '', program: '', arithmetic: true },
  readarray: { line: 'C', expanded: '', program: '', arithmetic: true },
  compgen: { line: 'C', expanded: 'W', program: '', arithmetic: false },
  complete: { line: 'C', expanded: 'W', program: '', arithmetic: false },
  hash: { line: '', expanded: '', program: 'p', arithmetic: false },
  let: { line: '', expanded: '', program: '', arithmetic: true },
  declare: { line: '', expanded: '', program: '', arithmetic: true },
  typeset: { line: '', expanded: '', program: '', arithmetic: true },
  local: { line: '', expanded: '', program: '', arithmetic: true },
  export: { line: '', expanded: '', program: '', arithmetic: true },
  readonly: { line: '', expanded: '', program: '', arithmetic: true },
  read: { line: '', expanded: '', program: '', arithmetic: true },
  unset: { line: '', expanded: '', program: '', arithmetic: true },
  test: { line: '', expanded: '', program: '', arithmetic: true },
  '[': { line: '', expanded: '', program: '', arithmetic: true },
  '[[': { line: '', expanded: '', program: '', arithmetic: true },
  alias: { line: '', expanded: '', program: '', arithmetic: false, aliases: true },
} satisfies Record<string, BuiltinCode>));

/**
 * Options of other programs whose value is a command the program runs, through a shell or as a program and its words
 * (ADR 0090's code options that take a command, read by the scan since ADR 0092): `tar --to-command=CMD`, `rsync -e
 * CMD`, `ssh -o ProxyCommand=CMD`, `man -P CMD`, `vim -c '!CMD'`, `less +!CMD`, `git -c core.pager=CMD`. A long option
 * is matched whole (`--opt=V`, `--opt V`), a short one also with its value attached (`-eCMD`), `+` as a word's start.
 * The value is read as a command line after `valueOf` takes off what is not the command.
 */
const VIM_CODE = ['-c', '--cmd', '+'];
const SSH_CODE = ['-o', '-S'];
const FD_CODE = ['-x', '--exec', '-X', '--exec-batch'];
const CODE_VALUES: ReadonlyMap<string, readonly string[]> = new Map(Object.entries({
  tar: ['--to-command', '--checkpoint-action', '--use-compress-program', '-I', '--rsh-command', '--info-script', '-F', '--new-volume-script'],
  rsync: ['-e', '--rsh', '--rsync-path'],
  zip: ['-TT', '--unzip-command'],
  sort: ['--compress-program'],
  git: ['-c', '--upload-pack', '--receive-pack', '--exec', '--sendmail-cmd', '--extcmd', '--open-files-in-pager', '--to-cmd', '--cc-cmd', '--header-cmd'],
  ssh: SSH_CODE, scp: SSH_CODE, sftp: SSH_CODE,
  man: ['-P', '--pager', '-H', '--html'],
  nodemon: ['--exec', '-x'],
  fd: FD_CODE, fdfind: FD_CODE,
  rg: ['--pre'],
  vim: VIM_CODE, vi: VIM_CODE, nvim: VIM_CODE, view: VIM_CODE, ex: VIM_CODE, vimdiff: VIM_CODE,
  less: ['+'], more: ['+'],
} satisfies Record<string, readonly string[]>));

/** ssh settings whose value is a command (`-o ProxyCommand=CMD`), lower-case. */
const SSH_COMMAND_SETTINGS = /^(proxycommand|localcommand|knownhostscommand|remotecommand)[=\s]/i;

/** The command in a code option's value (CODE_VALUES), or undefined when the value holds none. */
function valueOf(program: string, option: string, value: string): string | undefined {
  if (program === 'git' && option === '-c') {
    if (/^alias\./i.test(value)) return value.slice(value.indexOf('=') + 1).replace(/^!/, '');
    if (/^submodule\.[^=]*\.update=!/i.test(value)) return value.slice(value.indexOf('=') + 2);
    return GIT_COMMAND_SETTINGS.test(value) ? value.slice(value.indexOf('=') + 1) : undefined;
  }
  if (option === '-o') return SSH_COMMAND_SETTINGS.test(value) ? value.replace(/^[A-Za-z]+[=\s]\s*/, '') : undefined;
  if (option === '--checkpoint-action') return value.startsWith('exec=') ? value.slice(5) : undefined;
  // vim's `-c ':!CMD'`, `+!CMD`; less's `+!CMD` (other ex commands run no program).
  if (option === '+' || (option === '-c' && VIM_CODE === CODE_VALUES.get(program)) || option === '--cmd') {
    const bang = value.replace(/^[:\s]*/, '');
    return bang.startsWith('!') ? bang.slice(1) : undefined;
  }
  return value;
}

/** The commands a program's word at `i` gives in its code options (CODE_VALUES): none for most words. */
function commandsInOption(name: string, options: readonly string[], program: readonly string[], i: number): string[] {
  const w = program[i]!;
  const out: string[] = [];
  if (w.charCodeAt(0) !== 0x2d && w.charCodeAt(0) !== 0x2b) return out; // `-` or `+`
  for (const o of options) {
    let value: string | undefined;
    if (o === '+') value = w.startsWith('+') ? w.slice(1) : undefined;
    else if (w === o) value = program[i + 1];
    else if (o.startsWith('--')) value = w.startsWith(o + '=') ? w.slice(o.length + 1) : undefined;
    else if (w.startsWith(o) && w.length > o.length) value = w.slice(o.length);
    const command = value === undefined ? undefined : valueOf(name, o, value);
    if (command !== undefined && command.trim() !== '') out.push(command);
  }
  return out;
}

/**
 * Environment names whose value a program runs as a command (`GIT_SSH_COMMAND='CMD' git fetch`, `PAGER`,
 * `LESSOPEN='|CMD'`), or whose file bash runs (`BASH_ENV=<(echo CMD)`): an assignment to one is read as that command.
 */
const CODE_ENV: ReadonlySet<string> = new Set([
  'GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_PAGER', 'PAGER', 'MANPAGER', 'SYSTEMD_PAGER', 'GIT_EDITOR', 'EDITOR', 'VISUAL',
  'GIT_SEQUENCE_EDITOR', 'LESSOPEN', 'LESSCLOSE', 'BROWSER', 'GIT_EXTERNAL_DIFF', 'GIT_PROXY_COMMAND', 'RSYNC_RSH',
  'PROMPT_COMMAND', 'SUDO_ASKPASS', 'SSH_ASKPASS', 'GIT_ASKPASS', 'FCEDIT', 'BASH_ENV', 'ENV',
]);

/** Programs that launch their operands only through some verbs (`npm exec`, `mise x`): others install or list. */
const LAUNCH_VERBS: ReadonlyMap<string, RegExp> = new Map([
  ['npm', /^(exec|x|dlx)$/], ['pnpm', /^(exec|x|dlx)$/], ['yarn', /^(exec|x|dlx)$/], ['bun', /^(exec|x|dlx)$/],
  ['mise', /^(exec|x|run|r)$/], ['rtx', /^(exec|x|run|r)$/], ['asdf', /^exec$/], ['devbox', /^run$/],
]);

/** A command substitution in a word the parser left as text (quoted): what arithmetic or an expanded list would run. */
const HOLDS_SUBSTITUTION = /\$\(|`|<\(/;

/** Programs whose output, as the script of `bash <(…)` or `. <(…)`, is their operands: `echo CODE`, `printf CODE`. */
const PRINTERS: ReadonlySet<string> = new Set(['echo', 'printf']);

/** Programs that run commands read from their stdin later or elsewhere (`curl … | at now`, `curl … | crontab -`). */
const STDIN_RUNNERS = new Set(['at', 'batch', 'crontab']);

const JS_RUNNERS = new Set(['node', 'nodejs', 'npx', 'pnpx', 'bunx', 'npm', 'pnpm', 'yarn', 'bun', 'deno', 'tsx', 'ts-node']);

const MAX_NESTING = 4;
/**
 * Words the deny scan may look at for one line (issue 12.4). Launchers are read at every operand and wrappers at every
 * layer, so a chain like `script -qc ls script -qc ls …` or `env env env … ls` costs the square of its length; past
 * this budget the line is refused as too intricate (fail closed) instead. Ordinary lines use a few hundred.
 */
const MAX_DENY_WORK = 50_000;

/** Thrown when a line needs more than MAX_DENY_WORK words of scanning: refused, never run unchecked. */
class DenyWorkLimit extends Error {
  constructor() {
    super('too intricate');
  }
}
const MAX_BRACE_EXPANSIONS = 16;

// ---------------------------------------------------------------------------------------------------------------
// Reading commands generously.

/** How many nested texts the scan has left unparsed (ADR 0073): the differential test checks it took that path. */
let unparsedTexts = 0;
export function textsLeftUnparsed(): number {
  return unparsedTexts;
}

/** How many lines were found clear of every entry without a scan (ADR 0082): the differential test checks it. */
let clearedAtOnce = 0;
export function linesClearedAtOnce(): number {
  return clearedAtOnce;
}

/** Off while a test scans a line with `everyCommand`: every shortcut of ADR 0073 is then skipped. */
let shortcuts = true;

const PLAIN_NAME = /^[a-z0-9_,:=%+-]+$/;
const NO_NAMES: ReadonlySet<string> = new Set();
const FIRST_LAYER: readonly number[] = [0];

/** Expansions (`$x`, `${…}`, `$(…)`, backticks, `$'…'`/`$"…"` markers) and brace lists in a program word. */
function nameCandidates(word: string, text: string): Set<string> {
  // No `/`, `@`, `.`, capitals, expansions or braces: the word is its only name (what `add` below would find).
  if (shortcuts && PLAIN_NAME.test(word)) return new Set([word]);
  const out = new Set<string>();
  const add = (w: string): void => {
    const b = basename(w).toLowerCase();
    if (b === '') return;
    out.add(b);
    // `wisp@latest`, `@scope/wisp@1` (npx package specs): the name without the version.
    const at = b.indexOf('@', 1);
    if (at > 0) out.add(b.slice(0, at));
    // `wisp.js`, `sudo.exe` (the expression needs a `.`: most names have none, and skip it)
    const dot = !shortcuts || b.includes('.') ? b.search(/\.(?:[cm]?[jt]s|exe|sh|bat|cmd)$/) : -1;
    if (dot > 0) out.add(b.slice(0, dot));
  };
  add(word);
  if (/[$`{]/.test(word)) {
    const dropped = dropExpansions(word).replace(/\$(['"])/g, '$1').replace(/['"]/g, '');
    add(dropped);
    for (const split of nameSplits(word, text)) add(split.replace(/['"]/g, ''));
    // bash expands braces before variables: `${X}{su,}do` is `sudo` with X unset, a name only the dropped word shows.
    if (dropped.includes('{')) for (const expanded of braceExpand(dropped)) add(expanded);
    const prefix = word.split(/[$`]/, 1)[0] ?? '';
    add(prefix);
    // Without a `{` the expansion is the word itself, whose names and prefix's are added above.
    if (!shortcuts || word.includes('{')) {
      for (const expanded of braceExpand(word)) {
        add(expanded);
        add(expanded.split(/[$`]/, 1)[0] ?? '');
      }
    }
  }
  return out;
}

/** How many `$NAME`s of a word are split, and how many of a name's last characters may start the literal. */
const MAX_SPLIT_EXPANSIONS = 8;
const MAX_SPLIT_TAIL = 64;

/**
 * The word read with each `$NAME` ended early, other expansions dropped. The parser's value of `"$X"sudo` and
 * `$X"sudo"` is `$Xsudo`: the quote that ended the name is gone, and bash runs `sudo` when X is unset. So the word
 * also gives `sudo` wherever the source `text` shows `$X` ended by a character no name has (an unquoted `$Xsudo`,
 * one name, gives no split, nor does `$'cat'` read roughly as `$cat`). Only the last MAX_SPLIT_TAIL characters of a
 * name may start the literal: no name an entry looks for is that long.
 */
function nameSplits(word: string, text: string): string[] {
  const out: string[] = [];
  const re = /\$([A-Za-z_][A-Za-z0-9_]+)/g;
  for (let m = re.exec(word), n = 0; m !== null && n < MAX_SPLIT_EXPANSIONS; m = re.exec(word), n++) {
    const name = m[1]!;
    // Each side without its own expansions: joined first, `$X` + `sudo` would make the one name `Xsudo` again.
    const before = dropExpansions(word.slice(0, m.index));
    const after = dropExpansions(word.slice(m.index + 1 + name.length));
    for (let k = Math.max(1, name.length - MAX_SPLIT_TAIL); k < name.length; k++) {
      if (endsAName(text, name.slice(0, k))) out.push(before + name.slice(k) + after);
    }
  }
  return out;
}

/** Whether the source text holds `$NAME` followed by a character no name has (a quote, `\\`, `$` …) or its end. */
function endsAName(text: string, name: string): boolean {
  const needle = '$' + name;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const next = text.charCodeAt(at + needle.length);
    if (!(next === 95 || (next >= 48 && next <= 57) || (next >= 65 && next <= 90) || (next >= 97 && next <= 122))) return true;
  }
  return false;
}

/** Bash brace expansion of the first `{a,b,…}` group, recursively, bounded. */
function braceExpand(word: string, budget = { n: MAX_BRACE_EXPANSIONS }): string[] {
  const m = /\{([^{},]*,[^{}]*)\}/.exec(word);
  if (!m || budget.n <= 0) return [word];
  const out: string[] = [];
  for (const alt of m[1]!.split(',')) {
    if (--budget.n < 0) break;
    out.push(...braceExpand(word.slice(0, m.index) + alt + word.slice(m.index + m[0].length), budget));
  }
  return out;
}

function isOption(w: string): boolean {
  return w.startsWith('-') && w !== '-';
}

/** What one line's deny scan has spent, and the texts it has parsed (each once per line). */
interface ScanBudget {
  work: number;
  /**
   * The most work the nested texts left unparsed (`skipTexts`) could have cost: the line is scanned again parsing
   * them when it and `work` together could pass MAX_DENY_WORK, so the bound refuses the lines it refused (ADR 0073).
   */
  deferred: number;
  /** Whether a nested text that can hold no name of interest is left unparsed (ADR 0073). */
  readonly skipTexts: boolean;
  /** Whether the line may fetch (lineMayFetch), found when first needed. */
  mayFetch: boolean | undefined;
  readonly line: string;
  readonly parts: readonly Part[];
  /** Nested texts parsed on this line, each once (made when the first is). */
  parsed: Map<string, readonly Part[]> | undefined;
  /**
   * A parsed part's word list (found as its NUL-joined key was) and the work its whole scan cost (and the bound of
   * what it left unparsed): the line's rough reading skips it.
   */
  scanned: ListIndex<PartCost> | undefined;
  /** Each parsed part's words and cost, in order (all of them are scanned before the rough line): see `scanned`. */
  readonly partCosts: PartCost[];
  /** The line's plain assignments (`a=sudo`, `export b='rm -rf'`), found when a computed program first needs them. */
  assigned?: ReadonlyMap<string, readonly string[]>;
}

interface PartCost {
  readonly words: readonly string[];
  readonly work: number;
  readonly deferred: number;
}

/**
 * All commands a part may run: each wrapper layer, then launchers' operands and their command strings, recursively.
 * `lineReading`: the part is the line read roughly (builtinDeny), whose commands carry nothing of a parsed part's
 * (no pipeline stage, redirection or computed name). A command of it whose words equal a parsed part's, scanned
 * earlier, is not scanned again: that scan found the same commands, earlier in the list, on a part every entry
 * rates at least as high (ADR 0066). Its cost is charged again, so the work bound still counts it. Appends to `out`.
 */
function commandsOf(part: Part, budget: ScanBudget, lineReading: boolean, out: Cmd[]): void {
  const scan = new PartScan(part, budget, out);
  if (!part.unparsed) {
    // One list, scanned from an empty `seen`: what a rough reading of the same words would find, or more.
    const before = budget.work;
    const deferredBefore = budget.deferred;
    scan.visit(part.words, 0, true);
    budget.partCosts.push({ words: part.words, work: budget.work - before, deferred: budget.deferred - deferredBefore });
    return;
  }
  if (lineReading && shortcuts) {
    // The line is one parsed command's words and nothing else (most lines): its rough reading is that one list, whose
    // scan is charged again without splitting the line or joining a key (ADR 0082). The first part with these words
    // is the one `scannedByKey` would give (no NUL: a joined key is the list).
    const parts = budget.parts;
    if (budget.partCosts.length === parts.length && roughlyPlain(part.text) && !part.text.includes('\u0000')) {
      for (let i = 0; i < parts.length; i++) {
        if (!roughlyOneList(part.text, parts[i]!.words)) continue;
        const cost = budget.partCosts[i]!;
        scan.charge(cost.work);
        budget.deferred += cost.deferred;
        return;
      }
    }
  }
  const scanned = lineReading ? scannedByKey(budget) : undefined;
  const known = lineReading && lineSegments !== undefined && lineSegments.line === part.text ? lineSegments.segments : undefined;
  for (const words of known ?? roughSegments(part.text)) {
    const seen = scan.seenLists();
    const cost = scanned !== undefined && !seen.has(words) ? scanned.get(words) : undefined;
    if (cost !== undefined) {
      scan.charge(cost.work);
      budget.deferred += cost.deferred;
      seen.add(words, true);
    } else scan.visit(words, 0);
  }
}

/** Each parsed part's cost by its word list (NUL-joined key), the first part's where several have the same words. */
function scannedByKey(budget: ScanBudget): ListIndex<PartCost> {
  if (budget.scanned === undefined) {
    const byKey = new ListIndex<PartCost>(!shortcuts);
    for (const c of budget.partCosts) byKey.add(c.words, c);
    budget.scanned = byKey;
  }
  return budget.scanned;
}

/** One part's scan (commandsOf): the word lists it has visited, and where its commands go. */
class PartScan {
  /** The word lists visited (by their NUL-joined key: ADR 0085), made when a second list is visited (most parts have one). */
  private seen: ListIndex<true> | undefined;
  /** The part's own list, visited first, not yet added to `seen`. */
  private top: readonly string[] | undefined;

  constructor(
    private readonly part: Part,
    private readonly budget: ScanBudget,
    private readonly out: Cmd[],
  ) {}

  seenLists(): ListIndex<true> {
    // Without the shortcuts, keyed by the joined words from the first list, as before (the differential test).
    this.seen ??= new ListIndex<true>(!shortcuts);
    if (this.top !== undefined) {
      this.seen.add(this.top, true);
      this.top = undefined;
    }
    return this.seen;
  }

  charge(n: number): void {
    this.budget.work += n;
    if (this.budget.work > MAX_DENY_WORK) throw new DenyWorkLimit();
  }

  /** `first`: the part's own list, visited before any other (nothing is seen yet). */
  visit(words: readonly string[], depth: number, first = false): void {
    if (words.length === 0 || depth > MAX_NESTING) return;
    this.charge(words.length);
    if (first) this.top = words;
    else {
      if (!this.seenLists().add(words, true)) return;
    }
    // `{ sudo ls; }` read roughly: braces and `!` are syntax, not the program.
    if (words[0] === '{' || words[0] === '!' || words[0] === '}') {
      this.visit(words.slice(1), depth);
      return;
    }
    // `GIT_SSH_COMMAND='CMD' git fetch`, `PAGER=CMD`: a value some program runs (ADR 0092).
    for (let i = 0; i < words.length && isAssignment(words[i]!); i++) this.codeAssignment(words[i]!, depth);
    // No assignment or wrapper first: resolveCommand would find the words themselves, one layer (ADR 0073).
    const direct = shortcuts && !isAssignment(words[0]!) && !isWrapper(basename(words[0]!).toLowerCase());
    const resolved = direct ? undefined : resolveCommand(words);
    const all = resolved?.words ?? words;
    const starts = resolved === undefined ? FIRST_LAYER : resolved.layers.length > 0 ? resolved.layers : FIRST_LAYER;
    let program: readonly string[] = [];
    let programNames: ReadonlySet<string> = NO_NAMES;
    for (const at of starts) {
      const rest = at === 0 ? all : all.slice(at);
      if (rest.length === 0) continue;
      this.charge(rest.length);
      const names = nameCandidates(rest[0]!, this.part.text);
      this.out.push({ words: rest, part: this.part, names });
      program = rest;
      programNames = names;
      // `$unset sudo ls`, `$(true) sudo ls`: an unquoted word that expands to nothing is dropped, and the next word
      // is the program bash runs (ADR 0092). The parser's words have no quotes left: `"$x" sudo` is read so too.
      if (rest.length > 1 && vanishes(rest[0]!)) this.visit(rest.slice(1), depth);
      this.dynamicProgram(rest, depth);
    }
    // The last layer is the program; one past the end leaves none (layers only grow, so `program` is that layer's).
    if (starts[starts.length - 1]! >= all.length || program.length === 0) return;
    for (const name of programNames) {
      const code = BUILTIN_CODE.get(name);
      if (code !== undefined) this.builtinCode(code, program, depth);
      const options = CODE_VALUES.get(name);
      if (options !== undefined) this.codeValues(name, options, program, depth);
      // `bash <(echo CODE)`, `. <(printf CODE)`: what the substitution prints is the script (ADR 0092).
      if (SHELLS.has(name) || name === 'source' || name === '.') {
        for (let i = 1; i < program.length; i++) if (program[i]!.startsWith('<(') && program[i]!.endsWith(')')) this.printed(program[i]!.slice(2, -1), depth);
      }
      // `python -c 'os.system("CMD")'`, `awk 'BEGIN{system("CMD")}'`: a shell-running call's string (ADR 0093).
      const inline = inlineCodeOf(name);
      if (inline !== undefined) this.foreign(name, inline, program, depth);
    }
    for (const name of programNames) {
      if (!LAUNCHERS.has(name) && !SHELLS.has(name) && !PRIVILEGE.has(name)) continue;
      // Package managers launch a program only through exec/dlx (`npm install sudo` installs a package).
      const verbs = LAUNCH_VERBS.get(name);
      if (verbs !== undefined && !verbs.test(program[1] ?? '')) continue;
      const cmdOpts = COMMAND_OPTIONS.get(name) ?? NO_OPTIONS; // a Map: the name is a fresh string (ADR 0074)
      this.charge(program.length);
      for (let i = 1; i < program.length; i++) {
        const w = program[i]!;
        // A command-string option: `script -qc CMD`, `--command=CMD`.
        const eq = w.indexOf('=');
        if (w.startsWith('--') && eq > 0 && cmdOpts.includes(w.slice(0, eq))) this.nested(w.slice(eq + 1), depth);
        else if (cmdOpts.includes(w) && i + 1 < program.length) this.nested(program[i + 1]!, depth);
        else if (/^-[A-Za-z]+$/.test(w) && cmdOpts.some((o) => o.length === 2 && w.includes(o[1]!))) {
          const letter = cmdOpts.find((o) => o.length === 2 && w.includes(o[1]!))![1]!;
          const attached = w.slice(w.indexOf(letter) + 1);
          this.nested(attached.length > 0 ? attached : (program[i + 1] ?? ''), depth);
        }
        if (!isOption(w)) {
          this.visit(program.slice(i), depth + 1);
          // A word holding a whole command line (`tmux new 'sudo ls'`, `parallel ::: …`): read it as one too.
          if (/\s/.test(w)) this.nested(w, depth);
        }
      }
    }
  }

  /**
   * Code in another language, given in an option (`-c`, `-e`), as awk's program, or on the input of the line's own
   * command (`python3 <<< CODE`): the commands its shell-running calls are given (foreign-code.ts, ADR 0093).
   */
  private foreign(name: string, row: InlineCode, program: readonly string[], depth: number): void {
    if (depth >= MAX_NESTING) return;
    const texts = inlineCodeTexts(name, row, program);
    // The part's input is the program's when the program is the part's command, after any wrappers (`env python3`).
    const words = this.part.words;
    const own = program.length <= words.length && program.every((w, k) => w === words[words.length - program.length + k]);
    if (own) for (const r of this.part.redirects) texts.push(...inputText(r));
    for (const code of texts) {
      this.charge(Math.ceil(code.length / 8));
      const found = shellCommandsIn(code, row);
      for (const line of found.lines) this.nested(line, depth);
      for (const list of found.lists) this.visit(list, depth + 1);
    }
  }

  /** The code a builtin is given in its words (BUILTIN_CODE): read as a command line, or as a program's name. */
  private builtinCode(code: BuiltinCode, program: readonly string[], depth: number): void {
    this.charge(program.length);
    for (let i = 1; i < program.length; i++) {
      const w = program[i]!;
      // Only a subscript runs what a value holds (`a[$(cmd)]`): `let '$(cmd)'` is a syntax error to bash.
      if (code.arithmetic && w.includes('[') && HOLDS_SUBSTITUTION.test(w)) this.nested(w, depth);
      // `export PAGER=CMD`; `alias ll='CMD'` (an alias's value is code wherever it is used).
      if (isAssignment(w)) {
        if (code.aliases) this.nested(w.slice(w.indexOf('=') + 1), depth);
        else this.codeAssignment(w, depth);
      }
      if (w.length < 2 || w.charCodeAt(0) !== 0x2d || w.startsWith('--')) continue;
      // The option's value: the rest of the cluster after the letter, or the next word.
      for (let j = 1; j < w.length; j++) {
        const letter = w[j]!;
        const kind = code.line.includes(letter) ? 'line' : code.expanded.includes(letter) ? 'expanded' : code.program.includes(letter) ? 'program' : undefined;
        if (kind === undefined) continue;
        const value = j + 1 < w.length ? w.slice(j + 1) : (program[i + 1] ?? '');
        if (kind === 'line') this.nested(value, depth);
        else if (kind === 'program') this.visit([value], depth + 1);
        else if (HOLDS_SUBSTITUTION.test(value)) this.nested(value, depth);
        break;
      }
    }
  }

  /** The commands in a program's code options (CODE_VALUES). */
  private codeValues(name: string, options: readonly string[], program: readonly string[], depth: number): void {
    this.charge(program.length);
    if (name === 'git') this.gitCommands(program, depth);
    for (let i = 1; i < program.length; i++) for (const command of commandsInOption(name, options, program, i)) this.nested(command, depth);
  }

  /** git's verbs that run a command: `rebase -x CMD` (`--exec`), `submodule foreach CMD…`, `bisect run CMD…`. */
  private gitCommands(program: readonly string[], depth: number): void {
    for (let i = 1; i < program.length; i++) {
      const w = program[i]!;
      if (w === 'foreach' && program.includes('submodule')) this.nested(program.slice(i + 1).join(' '), depth);
      else if (w === 'run' && program.includes('bisect')) this.visit(program.slice(i + 1), depth + 1);
      else if (program.includes('rebase') && (w === '-x' || w === '--exec')) this.nested(program[i + 1] ?? '', depth);
      else if (program.includes('rebase') && (w.startsWith('--exec=') || (w.startsWith('-x') && w.length > 2))) this.nested(w.slice(w.startsWith('-x') ? 2 : 7), depth);
    }
  }

  /** An assignment whose value a program runs (CODE_ENV): `LESSOPEN='|CMD'`, `BASH_ENV=<(echo CMD)`. */
  private codeAssignment(word: string, depth: number): void {
    const eq = word.indexOf('=');
    const name = word.slice(0, word[eq - 1] === '+' ? eq - 1 : eq);
    if (!CODE_ENV.has(name)) return;
    const value = word.slice(eq + 1);
    if (value.startsWith('<(') && value.endsWith(')')) this.printed(value.slice(2, -1), depth);
    else this.nested(value.replace(/^\|/, ''), depth);
  }

  /**
   * A program word computed at run time: `$(echo CMD)` runs what echo prints, and `$SHELL -c CMD` (any computed
   * program given `-c`) is read as a shell given CMD (ADR 0092).
   */
  private dynamicProgram(words: readonly string[], depth: number): void {
    const first = words[0]!;
    if (!first.includes('$') && !first.includes('`')) return;
    // What echo prints is the program, and the words after it its arguments (`$(printf wisp) approvals approve x`).
    const tail = words.slice(1);
    if (first.startsWith('$(') && first.endsWith(')')) this.printed(first.slice(2, -1), depth, tail);
    else if (first.length > 2 && first.startsWith('`') && first.endsWith('`')) this.printed(first.slice(1, -1), depth, tail);
    // `a=sudo; $a ls`: a variable the line itself set, read with each value it was given (ADR 0092).
    const name = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/.exec(first)?.[1];
    const values = name === undefined ? undefined : lineAssignments(this.budget).get(name);
    for (const v of values ?? []) this.nested([v, ...tail.map(requote)].join(' '), depth);
    for (let i = 1; i + 1 < words.length; i++) {
      const w = words[i]!;
      if (w.includes('c') && /^-[A-Za-z]+$/.test(w)) this.nested(words[i + 1]!, depth);
      if (!w.startsWith('-')) break;
    }
  }

  /** The script a process substitution prints when it echoes its operands (`echo CODE`, `printf CODE`). */
  private printed(source: string, depth: number, tail: readonly string[] = []): void {
    if (source.trim() === '' || depth >= MAX_NESTING) return;
    for (const words of roughSegments(source)) {
      this.charge(words.length);
      const first = words[0];
      if (first === undefined || !PRINTERS.has(basename(first).toLowerCase())) continue;
      let k = 1;
      while (k < words.length && /^-[neE]+$/.test(words[k]!)) k++; // echo's own options
      // printf's `\n` and echo -e's are line ends in the script.
      const text = words.slice(k).join(' ').replace(/\\n/g, '\n');
      this.nested(tail.length === 0 ? text : [text, ...tail.map(requote)].join(' '), depth);
    }
  }

  nested(source: string, depth: number): void {
    if (source.trim() === '' || depth >= MAX_NESTING) return;
    // Long strings are read roughly: a full parse of each could multiply the line's parse budget (ADR 0019).
    const parse = canParse() && source.length <= 1024;
    this.charge(parse ? source.length : Math.ceil(source.length / 8)); // a parse costs about a word's scan per character
    if (parse) {
      // A text is parsed once per line however often the scan reaches it (the part's words, the rough line), and as
      // written: such texts are often not shell at all (`node -e 'js'`), and tree-sitter's error recovery on them
      // is the slow case (ADR 0052).
      if (this.budget.skipTexts && this.part.dynamicName !== true && !textMayMatter(source) && !lineMayFetch(this.budget)) {
        // No name taken from this text could make an entry apply, peel a wrapper or launch more (ADR 0073): its
        // commands would only be shown to no entry. What scanning them could have cost is kept as a bound.
        this.budget.deferred += 2 * (source.length + 2) ** 2;
        unparsedTexts++;
        return;
      }
      this.budget.parsed ??= new Map();
      let parts = this.budget.parsed.get(source);
      if (parts === undefined) {
        // Shell text is parsed ended with a newline, as the line is (about twice as fast: ADR 0052); text with a call
        // (`require('x')`, `print(1)`), most likely a script in another language, as written: tree-sitter recovers
        // from an error there, and a newline-ended text with an error is parsed a second time as written. Both give
        // the same parts (test/gate/parse-newline.test.ts); only the cost differs (ADR 0082).
        // A text the newline would take past BOUNDED_LENGTH stays as written too: ended, it would be a bounded parse that
        // comes back unparsed and is read roughly (no `$'\x73udo'`, no comments), where as written it is parsed.
        const asWritten = !shortcuts || CALL.test(source) || source.length + 1 > BOUNDED_LENGTH;
        parts = (shortcuts ? processSubstitutionParts(source) : undefined) ?? (asWritten ? parsedAsWritten(() => parseLine(source).parts) : parseLine(source).parts);
        this.budget.parsed.set(source, parts);
      }
      for (const p of parts) {
        for (const list of p.unparsed ? roughSegments(p.text) : [[...p.words]]) this.visit(list, depth + 1);
      }
    } else {
      for (const list of roughSegments(source)) this.visit(list, depth + 1);
    }
  }
}

/**
 * The parts of a text that is one process substitution of a simple line, `<(curl -s …)` (the operand of `bash <(…)`),
 * read without tree-sitter (ADR 0089): tree-sitter-bash reads such a text as one command named by the substitution,
 * so its parts are the inner line's statements and then that command (`[text]`), exactly as it reads `$(…)` of the same
 * line — which the substitution-line reader (ADR 0084) reads. So the `$(…)` text is parsed instead (the reader takes it,
 * or the call returns undefined), and its last part, the `$(…)` command, is given the text's own word. The scan reads
 * only the parts' words, texts and `unparsed`. undefined: parse the text itself. Exported for the differential test.
 */
export function processSubstitutionParts(source: string): readonly Part[] | undefined {
  const c0 = source.charCodeAt(0);
  if ((c0 !== 0x3c && c0 !== 0x3e) || source.charCodeAt(1) !== 0x28) return undefined; // `<(` or `>(`
  const asCommand = '$' + source.slice(1);
  if (!isSubstitutionLine(asCommand)) return undefined;
  const parts = parseLine(asCommand).parts;
  const last = parts[parts.length - 1];
  if (last === undefined || last.text !== asCommand || last.words.length !== 1 || last.unparsed === true) return undefined;
  return [...parts.slice(0, -1), { ...last, text: source, words: [source] }];
}

/**
 * The text a here-string or heredoc gives as input (`<<< 'CODE'`, `<<EOF` … `EOF`), read roughly: one pair of
 * enclosing quotes taken off. Over-reading only adds refusals (ADR 0018).
 */
function inputText(redirect: string): string[] {
  const r = redirect.trimStart();
  if (r.startsWith('<<<')) return [stripEnclosingQuotes(r.slice(3).trim())];
  if (!r.startsWith('<<')) return [];
  const nl = r.indexOf('\n');
  return nl < 0 ? [] : [r.slice(nl + 1)];
}

/**
 * Whether a builtin's words may give it code (what `PartScan.builtinCode` reads): an option with a code letter, a
 * subscript with a substitution, or an assignment (an alias's value, a CODE_ENV name's). Most uses give none
 * (`[ -f x ]`, `export X=1`), and their lines stay on the fast path of ADR 0082.
 */
function builtinMayGiveCode(code: BuiltinCode, words: readonly string[]): boolean {
  const letters = code.line + code.expanded + code.program;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (letters !== '' && w.length > 1 && w.charCodeAt(0) === 0x2d && !w.startsWith('--')) {
      for (let j = 1; j < w.length; j++) if (letters.includes(w[j]!)) return true;
    }
    if (code.arithmetic && w.includes('[') && HOLDS_SUBSTITUTION.test(w)) return true;
    if (isAssignment(w) && (code.aliases === true || CODE_ENV.has(w.slice(0, w.indexOf('=')).replace(/\+$/, '')))) {
      // The value leads anywhere only with a name of interest, or a computed word, in it (ADR 0073).
      const value = w.slice(w.indexOf('=') + 1);
      if (value.includes('$') || value.includes('`') || textMayMatter(value)) return true;
    }
  }
  return false;
}

/** Builtins whose operands may be assignments (`export a=sudo`). */
const DECLARING: ReadonlySet<string> = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

/** The values each name is given by an assignment in the line's parts (ScanBudget.assigned), made on first use. */
function lineAssignments(budget: ScanBudget): ReadonlyMap<string, readonly string[]> {
  if (budget.assigned !== undefined) return budget.assigned;
  const out = new Map<string, string[]>();
  for (const p of budget.parts) {
    const ws = p.words;
    for (let i = DECLARING.has(ws[0] ?? '') ? 1 : 0; i < ws.length; i++) {
      const w = ws[i]!;
      if (!isAssignment(w)) {
        if (w.startsWith('-') && i > 0) continue; // `declare -x a=…`
        break;
      }
      const eq = w.indexOf('=');
      const name = w.slice(0, w[eq - 1] === '+' ? eq - 1 : eq);
      const list = out.get(name) ?? [];
      if (list.length < 8) list.push(w.slice(eq + 1));
      out.set(name, list);
    }
  }
  return (budget.assigned = out);
}

/** A word made only of expansions (`$x`, `${x}`, `$(…)`, backticks): unquoted and empty, bash drops it. */
function vanishes(word: string): boolean {
  return (word.includes('$') || word.includes('`')) && dropExpansions(word) === '';
}

/** A name or closing bracket or quote right before `(`: a function call in most languages, a syntax error in shell. */
const CALL = /[\w\])'"]\(/;

function has(cmd: Cmd, set: ReadonlySet<string>): boolean {
  for (const n of cmd.names) if (set.has(n)) return true;
  return false;
}

/** A path with quotes gone, `//`, `/./` and `..` resolved: `/tmp/..` → `/`. Relative paths stay relative. */
function normalisePath(p: string): string {
  if (!p.startsWith('/')) return p;
  const n = posix.normalize(p);
  return n.length > 1 ? trimTrailingSlashes(n) : n;
}

/** Paths whose removal is removing the system: `/`, its contents, and the top-level system directories. */
const ROOT_DIRS = new Set([
  '/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/proc', '/root', '/run', '/sbin', '/srv',
  '/sys', '/usr', '/var', '/System', '/Users', '/Applications', '/Library', '/private', '/Volumes', '/nix',
]);

function isRootTarget(word: string): boolean {
  // `"$DIR"/` with DIR unset is `/`: read the word with expansions dropped too.
  const forms = new Set([word, dropExpansions(word)]);
  for (const f of forms) {
    if (!f.startsWith('/')) continue;
    const n = normalisePath(f);
    if (ROOT_DIRS.has(n)) return true;
    // `/*`, `/.*`, `/u*`: a glob over the root's entries.
    const dir = posix.dirname(n);
    if (dir === '/' && /[*?[]/.test(posix.basename(n))) return true;
  }
  return false;
}

/** Block devices and raw memory: writing to these destroys a file system or the running system. */
const DEVICE =
  /^\/dev\/(?:sd[a-z]|nvme\d|r?disk\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|loop\d|md\d|md\/|dm-\d|mapper\/|disk\/|sr\d|nbd\d|zd\d|ram\d|mtdblock\d|mtd\d|ubi|fd\d|bcache|rbd|zram|block\/|dasd|cciss\/|mem$|kmem$|port$|root$)/;

function isDevice(word: string): boolean {
  if (!word.startsWith('/')) return false;
  return DEVICE.test(normalisePath(word));
}

/** Redirection targets that are written: `> t`, `>| t`, `>> t`, `&> t`, `2> t`, `<> t`. */
function writtenTargets(part: Part): string[] {
  const out: string[] = [];
  for (const r of part.redirects) {
    const m = /^\s*(?:\d+|\{[A-Za-z_]\w*\})?(?:&>>?|>>|>\||>&?|<>)\s*(.*)$/s.exec(r);
    if (m) out.push(unquote(m[1]!.trim()));
  }
  return out;
}

function readTargets(part: Part): string[] {
  const out: string[] = [];
  for (const r of part.redirects) {
    const m = /^\s*\d*(<<<|<[<>&]?)\s*([\s\S]*)$/.exec(r);
    if (m && (m[1] === '<' || m[1] === '<<<')) out.push(m[2]!.trim());
  }
  return out;
}

function unquote(w: string): string {
  return stripEnclosingQuotes(w).replace(/\\(.)/g, '$1');
}

// ---------------------------------------------------------------------------------------------------------------
// The entries.

interface LineView {
  readonly line: string;
  readonly parts: readonly Part[];
  readonly cmds: readonly Cmd[];
}

interface Entry extends DenyEntry {
  /** The part where the entry applies, or undefined. */
  readonly find: (v: LineView) => Part | undefined;
}

function recursiveRm(words: readonly string[]): boolean {
  for (const w of words.slice(1)) {
    if (w === '--') break;
    if (/^-[A-Za-z]*[rR]/.test(w) && !w.startsWith('--')) return true;
    if (w.startsWith('--r') && '--recursive'.startsWith(w.split('=')[0]!)) return true;
  }
  return false;
}

const deleteRoot: Entry = {
  name: 'delete-root',
  sentence: 'deletes the root directory or a top-level system directory',
  find: ({ cmds }) => {
    for (const c of cmds) {
      // Every check below starts from one of these names (ADR 0089: no copy of the words for the others).
      if (shortcuts && !c.names.has('rm') && !c.names.has('find') && !c.names.has('rsync')) continue;
      const args = c.words.slice(1);
      if (c.names.has('rm')) {
        if (args.some((w) => w === '--no-preserve-root')) return c.part;
        if (recursiveRm(c.words) && args.some((w) => isRootTarget(w))) return c.part;
      }
      // `find / -delete`, `find / -exec rm …` (the -exec body is its own part and handled above)
      if (c.names.has('find')) {
        const starts: string[] = [];
        for (const w of args) {
          if (w.startsWith('-') || w === '(' || w === '!') break;
          starts.push(w);
        }
        if (starts.some((w) => isRootTarget(w)) && args.includes('-delete')) return c.part;
      }
      // `shred -r`, `rsync -a --delete empty/ /`
      if (c.names.has('rsync') && args.some((w) => w.startsWith('--delete')) && args.some((w) => isRootTarget(w))) return c.part;
    }
    return undefined;
  },
};

const privilege: Entry = {
  name: 'privilege',
  sentence: 'runs a command as root or as another user',
  find: ({ cmds }) => {
    for (const c of cmds) {
      if (has(c, PRIVILEGE)) {
        // `machinectl shell` and `sg`/`newgrp` switch identity; `machinectl list` does not.
        if (c.names.has('machinectl') && c.names.size === 1 && !/^(shell|login)$/.test(c.words[1] ?? '')) continue;
        return c.part;
      }
    }
    return undefined;
  },
};

const FORMATTER_NAMES = new Set([
  'mkfs', 'mke2fs', 'mkswap', 'mkdosfs', 'mkntfs', 'mkexfatfs', 'mkexfat', 'mkudffs', 'mkreiserfs', 'mkjfs', 'mkxfs', 'mkhfs', 'mformat',
  'wipefs', 'fdisk', 'sfdisk', 'gdisk', 'sgdisk', 'cfdisk', 'parted', 'blkdiscard', 'newfs', 'sg_format', 'sg_sanitize', 'zerofree', 'flashrom',
]);
/** `mkfs.ext4`, `newfs_apfs` and the named tools. */
const FORMATTERS = { test: (n: string): boolean => FORMATTER_NAMES.has(n) || /^(?:mkfs\.|newfs_)[\s\S]/.test(n) };

/** The first part that redirects output into a disk device (`> /dev/sda`): the one check of an entry not on a command. */
function deviceRedirect(parts: readonly Part[]): Part | undefined {
  for (const p of parts) if (p.redirects.length > 0 && writtenTargets(p).some(isDevice)) return p;
  return undefined;
}

/** The names disk-write's checks on a command look for, besides the formatters (FORMATTERS). */
const DISK_TOOLS: ReadonlySet<string> = new Set([
  'nvme', 'badblocks', 'hdparm', 'cryptsetup', 'zpool', 'mdadm', 'diskutil', 'dd', 'dcfldd', 'dc3dd', 'sg_dd', 'ddpt', 'tee', 'sponge',
  'shred', 'truncate', 'ddrescue', 'pv', 'scrub', 'wipe', 'cp', 'mv', 'install', 'rsync', 'ln', 'gcp', 'gmv',
]);

function diskToolNamed(c: Cmd): boolean {
  for (const n of c.names) if (DISK_TOOLS.has(n) || FORMATTERS.test(n)) return true;
  return false;
}

const diskWrite: Entry = {
  name: 'disk-write',
  sentence: 'formats, wipes or writes directly to a disk device',
  find: ({ cmds, parts }) => {
    const redirected = deviceRedirect(parts);
    if (redirected !== undefined) return redirected;
    for (const c of cmds) {
      // Every check below starts from a name of DISK_TOOLS or a formatter's (ADR 0089: nothing copied for the others).
      if (shortcuts && !diskToolNamed(c)) continue;
      const args = c.words.slice(1);
      const names = [...c.names];
      if (names.some((n) => FORMATTERS.test(n))) return c.part;
      if (c.names.has('nvme') && /^(format|sanitize|write-zeroes|write-uncor)$/.test(args[0] ?? '')) return c.part;
      if (c.names.has('badblocks') && args.some((w) => /^-[A-Za-z]*[wn]/.test(w))) return c.part;
      if (c.names.has('hdparm') && args.some((w) => /^--(security-erase|trim-sector|write-sector|make-bad-sector|dco-restore)/.test(w))) return c.part;
      if (c.names.has('cryptsetup') && args.some((w) => /^(luksformat|erase|luksErase|reencrypt)$/i.test(w))) return c.part;
      if (c.names.has('zpool') && /^(create|labelclear|destroy)$/.test(args[0] ?? '')) return c.part;
      if (c.names.has('mdadm') && args.some((w) => /^--(zero-superblock|create)$|^-C$/.test(w))) return c.part;
      if (c.names.has('diskutil') && /^(erase|zerodisk|randomdisk|securerase|secureerase|partitiondisk|reformat)/i.test(args[0] ?? '')) return c.part;
      if (c.names.has('diskutil') && args[0] === 'apfs' && /^(delete|erase)/i.test(args[1] ?? '')) return c.part;
      // dd-like: `of=/dev/sda`
      if (names.some((n) => /^(dd|dcfldd|dc3dd|sg_dd|ddpt)$/.test(n)) && args.some((w) => /^of=/.test(w) && isDevice(w.slice(3)))) return c.part;
      // Tools that write to every file operand.
      if (names.some((n) => /^(tee|sponge|shred|truncate|ddrescue|pv|scrub|wipe)$/.test(n)) && args.some((w) => isDevice(w) || isDevice(w.replace(/^--?[a-z-]+=/, '')))) return c.part;
      // cp/mv/install/rsync/cat-like tools: the destination (last operand, or -t DIR / --target-directory=DIR).
      if (names.some((n) => /^(cp|mv|install|rsync|ln|gcp|gmv)$/.test(n))) {
        const operands = args.filter((w) => !isOption(w));
        const last = operands[operands.length - 1];
        const target = args.find((w, i) => (args[i - 1] === '-t' || args[i - 1] === '--target-directory') && isDevice(w)) ?? args.find((w) => /^--target-directory=/.test(w) && isDevice(w.split('=')[1]!));
        if ((last !== undefined && isDevice(last)) || target !== undefined) return c.part;
      }
    }
    return undefined;
  },
};

/** Where a shell or interpreter's program comes from: stdin, a substitution, or a file/string we cannot see. */
function readsProgramFromInput(c: Cmd): boolean {
  const args = c.words.slice(1);
  const stdinNames = (w: string): boolean => w === '-' || /^\/dev\/(stdin|fd\/0)$|^\/proc\/(self|thread-self|\d+)\/fd\/0$/.test(w);
  if (args.some((w) => /^<\(|^\$\(|`/.test(w) || stdinNames(w))) return true;
  const name = [...c.names];
  if (name.some((n) => SHELLS.has(n))) {
    // A shell reads its program from stdin unless it is given -c or a script operand; `-s` forces stdin.
    if (args.some((w) => /^-[A-Za-z]*s/.test(w) && !w.startsWith('--'))) return true;
    const operands = args.filter((w) => !isOption(w) && !/^[+-]o$/.test(w));
    const hasC = args.some((w) => /^-[A-Za-z]*c/.test(w) && !w.startsWith('--'));
    // No operands: stdin, or with `-c` and no string the command arrives as appended words (`… | xargs sh -c`).
    if (operands.length === 0) return true;
    // `script` without -c runs $SHELL on its stdin; `busybox sh`/`toybox sh` are launchers and handled by their operand.
    if (name.includes('script') && !hasC) return true;
    return false;
  }
  if (name.some((n) => INTERPRETERS.test(n))) {
    if (name.includes('source') || name.includes('.')) return false; // only with a substitution or /dev/stdin (above)
    // python -c / -m, node -e / -p, perl -e/-E, ruby -e: the program is an argument, not the input.
    if (args.some((w) => /^-(c|m|e|E|p|r|-eval|-print|-command|-file|f)$/.test(w) || /^-[A-Za-z]*[ce]$/.test(w))) return false;
    return args.filter((w) => !isOption(w)).length === 0;
  }
  return false;
}

const NET_REDIRECT = /\/dev\/(tcp|udp)\//;

/** Parts that fetch: a fetcher program among their commands, or a /dev/tcp|udp redirect. One pass over each list. */
function fetcherParts(parts: readonly Part[], cmds: readonly Cmd[]): Part[] {
  const byCommand = new Set<Part>();
  for (const c of cmds) if (has(c, FETCHERS)) byCommand.add(c.part);
  return parts.filter((p) => byCommand.has(p) || p.redirects.some((r) => NET_REDIRECT.test(r)));
}

const downloadAndRun: Entry = {
  name: 'download-and-run',
  sentence: 'downloads and runs a script',
  find: ({ line, parts, cmds }) => {
    const fetchers = fetcherParts(parts, cmds);
    if (fetchers.length === 0) return undefined;
    const piped = /\|/.test(line.replace(/\|\|/g, ''));
    for (const c of cmds) {
      const runner = has(c, SHELLS) || [...c.names].some((n) => INTERPRETERS.test(n)) || c.names.has('eval');
      const dynamic = c.part.dynamicName === true && c.words[0] === c.part.words[0];
      // `$(curl …)` as the program, or `… | $SHELL`: downloaded text, or an unknown shell reading it, runs.
      if (dynamic && (piped || /\$\(|`|<\(/.test(c.words[0] ?? ''))) return c.part;
      if (has(c, STDIN_RUNNERS) && piped && !c.words.slice(1).some((w) => w === '-f' || w === '-l' || w === '-r')) return c.part;
      if (!runner) continue;
      if (c.names.has('eval') && c.words.slice(1).some((w) => /\$\(|`/.test(w))) return c.part;
      if (!readsProgramFromInput(c)) continue;
      const viaSubstitution = c.words.slice(1).some((w) => /^<\(|\$\(|`/.test(w));
      const viaRedirect = readTargets(c.part).length > 0;
      if (viaSubstitution || viaRedirect || piped) return c.part;
    }
    return undefined;
  },
};

const pipeToShell: Entry = {
  name: 'pipe-to-shell',
  sentence: 'runs piped text as a shell script',
  find: ({ line, cmds }) => {
    const piped = /\|/.test(line.replace(/\|\|/g, ''));
    if (!piped) return undefined;
    for (const c of cmds) {
      const stage = (c.part.pipeStage ?? 0) > 0 || c.part.origin === 'subshell';
      if (!stage) continue;
      if ((has(c, SHELLS) || c.names.has('source') || c.names.has('.')) && readsProgramFromInput(c)) return c.part;
      // `echo CMD | at now`: at and batch run their input as a shell script, later (ADR 0092).
      if ((c.names.has('at') || c.names.has('batch')) && !c.words.slice(1).some((w) => /^-[A-Za-z]*[flrc]/.test(w))) return c.part;
    }
    return undefined;
  },
};

const WISP_SUB_ANSWER: ReadonlyArray<readonly [string, RegExp]> = [
  ['approvals', /^(approve|deny)$/],
  ['inquiries', /^(answer|decline)$/],
  ['config', /^(set|unset|edit)$/],
];

function isWispName(names: ReadonlySet<string>): boolean {
  for (const n of names) if (n === 'wisp' || WISP_NAME.test(n)) return true;
  return false;
}

const answerEscalation: Entry = {
  name: 'answer-escalation',
  sentence: 'answers wisp’s own approval requests or questions, or changes its config',
  find: ({ cmds }) => {
    for (const c of cmds) {
      const ws = c.words;
      // A hit needs one of the answering subcommands among the words (ADR 0089: no per-word test for the others).
      if (shortcuts && !holdsAnsweringSubcommand(ws)) continue;
      const launchedByJs = has(c, JS_RUNNERS);
      for (let i = 0; i + 1 < ws.length; i++) {
        const hit = WISP_SUB_ANSWER.some(([sub, verb]) => ws[i] === sub && verb.test(ws[i + 1]!));
        if (!hit) continue;
        const before = ws.slice(0, i);
        // A JS runner's own `npm config set` is not wisp's: a script or package word must come between.
        const viaJs = launchedByJs && before.slice(1).some((w) => !isOption(w));
        if (viaJs || isWispName(c.names) || before.some((w) => isWispName(nameCandidates(w, c.part.text)))) return c.part;
      }
    }
    return undefined;
  },
};

/** wisp subcommands a nested process may use: read-only, or harmless. */
const WISP_SAFE_SUB = /^(check|approvals|inquiries|config|logs|tools|doctor|help|-V|--version|-h|--help)$/;

const nestedAgent: Entry = {
  name: 'nested-agent',
  sentence: 'starts another wisp agent: respond, chat, mcp or a prompt',
  find: ({ cmds }) => {
    for (const c of cmds) {
      if (!isWispName(c.names)) continue;
      const first = c.words[1];
      if (first === undefined || !WISP_SAFE_SUB.test(first)) return c.part;
    }
    return undefined;
  },
};

/**
 * Every program name some entry's check on a command looks for (ADR 0073). Each entry applies to a command only
 * through one of these names, a name matching INTERPRETERS, FORMATTERS or the wisp names, a dynamic program name, or
 * one of wisp's answering subcommands among its words; any other command cannot make an entry apply, so the entries
 * are shown only the commands that pass `mayMatter` (in the same order). Kept in step with the entries by the
 * differential test in test/gate/deny-fast-paths.test.ts.
 */
const ENTRY_NAMES: ReadonlySet<string> = new Set([
  ...PRIVILEGE, ...SHELLS, ...FETCHERS, ...STDIN_RUNNERS, ...JS_RUNNERS, ...FORMATTER_NAMES, 'eval',
  'rm', 'find', 'rsync', // delete-root
  ...DISK_TOOLS, // disk-write
]);
const WISP_NAME = /^wisp[-_]?(cli|agent|harness)?$/;
const ANSWERING_SUBCOMMANDS: ReadonlySet<string> = new Set(WISP_SUB_ANSWER.map(([sub]) => sub));

/** The first run of letters, digits and `_` of every name an entry, a launcher or a wrapper looks for. */
// The names of BUILTIN_CODE, CODE_VALUES and CODE_ENV are not needed here: the code they lead to can make an entry
// apply only through a name of interest, which the same text then holds (ADR 0092).
const PIECES: ReadonlySet<string> = new Set([...ENTRY_NAMES, ...LAUNCHERS].map(firstPiece).filter((p) => p !== ''));
const FETCHER_PIECES: ReadonlySet<string> = new Set([...FETCHERS].map(firstPiece).filter((p) => p !== ''));

function firstPiece(name: string): string {
  return /^[a-z0-9_]*/.exec(name)![0];
}

/**
 * Whether a run of letters, digits and `_` could be the start of a name that makes an entry apply or the scan go
 * further (wrappers peeled, launchers' operands read): for `mayHoldName`, which tries every run a name could start with.
 * The names not starting with such a run are `!`, `{`, `}` (mayHoldName answers yes for a text with them) and `.`.
 * Interpreters (`python`, `.`, `r` …) are not here: an entry looks at them only as what runs a download, so a text
 * is left unparsed only on a line that cannot fetch (no fetcher's name can be read in it, no `/dev/tcp` redirect).
 */
function isPiece(piece: string): boolean {
  return PIECES.has(piece) || isWrapper(piece) || FORMATTERS.test(piece) || WISP_NAME.test(piece);
}

/**
 * Names every entry's check on which needs some word of the command to start with `/` (a root target, a device), or
 * the word `--no-preserve-root`: delete-root's `rm`, `find`, `rsync` and disk-write's dd-like, tee-like and cp-like
 * tools. None of them is a launcher, a shell, a wrapper or a privilege program, so a command named so leads the scan
 * nowhere further. (`rsync` also fetches: a text is left unparsed only on a line that cannot fetch.) ADR 0082.
 */
const PATH_ONLY_NAMES: ReadonlySet<string> = new Set([
  'rm', 'find', 'rsync',
  'dd', 'dcfldd', 'dc3dd', 'sg_dd', 'ddpt', 'tee', 'sponge', 'shred', 'truncate', 'ddrescue', 'pv', 'scrub', 'wipe',
  'cp', 'mv', 'install', 'ln', 'gcp', 'gmv',
]);

/**
 * The pieces (`isPiece`) that can start only a PATH_ONLY_NAMES name: no other name an entry, launcher or wrapper looks
 * for starts with the same run, and no expression (formatters, wisp's names) accepts the piece itself. Made on first
 * use, in one pass over the names: made at module load, name by name, it cost `wisp check -- ls` about 8 ms of its
 * start-up (docs/performance.md, session 7).
 */
function pathOnlyPieces(): ReadonlySet<string> {
  if (pathOnly !== undefined) return pathOnly;
  const shared = new Set<string>();
  for (const names of [ENTRY_NAMES, LAUNCHERS]) for (const n of names) if (!PATH_ONLY_NAMES.has(n)) shared.add(firstPiece(n));
  const pieces = [...PATH_ONLY_NAMES].map(firstPiece);
  return (pathOnly = new Set(pieces.filter((p) => !shared.has(p) && !isWrapper(p) && !FORMATTERS.test(p) && !WISP_NAME.test(p))));
}
let pathOnly: ReadonlySet<string> | undefined;

/** Set by `isLeadingPiece` when it passed over a piece of pathOnlyPieces() (one text at a time). */
let pathOnlySeen = false;

/** `isPiece` less the pieces that only start a PATH_ONLY_NAMES name, which are noted instead. */
function isLeadingPiece(piece: string): boolean {
  if (!isPiece(piece)) return false;
  if (pathOnlyPieces().has(piece)) {
    pathOnlySeen = true;
    return false;
  }
  return true;
}

/**
 * Whether a nested text's commands could make an entry apply or the scan go further (ADR 0073, 0082): a name of
 * interest may be read from it (`mayHoldName`), or only a PATH_ONLY_NAMES name may, and the text also has a `/` or
 * the characters of `--no-preserve-root` once quotes and backslashes are taken out (every word the parser or the
 * rough reading gives is the text's characters in order less those: `mayHoldName` answers "may" to any other text).
 */
function textMayMatter(source: string): boolean {
  pathOnlySeen = false;
  if (mayHoldName(source, isLeadingPiece)) return true;
  if (!pathOnlySeen) return false;
  return source.includes('/') || source.replace(/['"\\]/g, '').includes('--no-preserve-root');
}

function isFetcherPiece(piece: string): boolean {
  return FETCHER_PIECES.has(piece);
}

/**
 * Whether the line may fetch: a part redirects to `/dev/tcp|udp`, or a fetcher's name could be read in the line
 * (every command the scan finds has its words from the line's text). Where it cannot, no entry looks at an
 * interpreter's name (download-and-run needs a fetching part first).
 */
function lineMayFetch(budget: ScanBudget): boolean {
  budget.mayFetch ??= budget.parts.some((p) => p.redirects.some((r) => NET_REDIRECT.test(r))) || mayHoldName(budget.line, isFetcherPiece);
  return budget.mayFetch;
}

/** Whether an entry looks at a command by this name (see ENTRY_NAMES). */
function nameMayMatter(n: string): boolean {
  return ENTRY_NAMES.has(n) || INTERPRETERS.test(n) || FORMATTERS.test(n) || WISP_NAME.test(n);
}

function holdsAnsweringSubcommand(words: readonly string[]): boolean {
  for (const w of words) if (ANSWERING_SUBCOMMANDS.has(w)) return true;
  return false;
}

/** Whether any entry could apply to `c` (see ENTRY_NAMES). */
function mayMatter(c: Cmd): boolean {
  if (c.part.dynamicName === true) return true;
  for (const n of c.names) if (nameMayMatter(n)) return true;
  return holdsAnsweringSubcommand(c.words);
}

/** The built-in entries, in the order they are checked (the first that applies names the refusal). */
const ENTRIES: readonly Entry[] = [privilege, deleteRoot, diskWrite, downloadAndRun, pipeToShell, answerEscalation, nestedAgent];

export const BUILTIN_DENY: readonly DenyEntry[] = ENTRIES.map(({ name, sentence }) => ({ name, sentence }));

export interface DenyScanOptions {
  /** Scan the rough reading of the line whole, even where a parsed part already scanned its words (tests). */
  readonly rescanLine?: boolean;
  /** No shortcut of ADR 0073: every command shown to every entry, every nested text parsed (the differential test). */
  readonly everyCommand?: boolean;
}

/** The first built-in entry the line falls under, or undefined. Never throws: a failure is a refusal. */
export function builtinDeny(line: string, parts: readonly Part[], opts: DenyScanOptions = {}): DenyHit | undefined {
  if (opts.everyCommand !== true) return scanLine(line, parts, opts);
  shortcuts = false;
  try {
    return scanLine(line, parts, opts);
  } finally {
    shortcuts = true;
  }
}

/**
 * Whether the line is plain commands that no entry can apply to (ADR 0082): parsed parts with no computed program
 * name and no redirection into a device, and the line's rough reading, each a word list whose program word is plain
 * (its only name, no assignment) and neither a wrapper, launcher, shell or privilege program nor a name any entry
 * looks at, with none of wisp's answering subcommands among its words. The full scan would find each list as its one
 * command (nothing to peel, no operand read), show no entry a command (`mayMatter` says no to each), so only look for
 * a redirection into a device, find none, and charge at most twice the words of the lists: under MAX_DENY_WORK, as
 * at most 20,000 words are taken. So it answers undefined, as this does.
 */
/** The line's rough reading as plainAndClear built it, for the scan that follows on the same line (never changed). */
let lineSegments: { readonly line: string; readonly segments: string[][] } | undefined;

function plainAndClear(line: string, parts: readonly Part[]): boolean {
  if (parts.length === 0) return false;
  let words = 0;
  for (const p of parts) {
    if (p.unparsed === true || p.dynamicName === true || !clearList(p.words)) return false;
    // A redirection matters only when it writes to a device (no command is left for any other entry's check).
    if (p.redirects.length > 0 && writtenTargets(p).some(isDevice)) return false;
    words += p.words.length;
  }
  // Most often the rough reading is the one part's own list: no need to build it.
  if (parts.length === 1 && roughlyPlain(line) && !line.includes('\u0000') && roughlyOneList(line, parts[0]!.words)) return words <= 10_000;
  const segments = roughSegments(line);
  lineSegments = { line, segments };
  for (const list of segments) {
    if (!clearList(list)) return false;
    words += list.length;
  }
  return words <= 20_000;
}

/** A word list that is one command no entry looks at and that leads the scan nowhere (see plainAndClear). */
function clearList(words: readonly string[]): boolean {
  const program = words[0];
  if (program === undefined || !PLAIN_NAME.test(program) || isAssignment(program)) return false;
  if (isWrapper(program) || LAUNCHERS.has(program) || SHELLS.has(program) || PRIVILEGE.has(program) || nameMayMatter(program)) return false;
  const builtin = BUILTIN_CODE.get(program);
  if (builtin !== undefined && builtinMayGiveCode(builtin, words)) return false;
  // sed's `e COMMAND` runs COMMAND (ADR 0093).
  if ((program === 'sed' || program === 'gsed') && sedMayRun(words)) return false;
  const codeOptions = CODE_VALUES.get(program);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (ANSWERING_SUBCOMMANDS.has(w)) return false;
    // A command in a code option (CODE_VALUES) to read: `git switch -c x` stays clear, `git -c core.pager=… log` does not.
    if (codeOptions !== undefined && i > 0 && commandsInOption(program, codeOptions, words, i).length > 0) return false;
    if (program === 'git' && (w === 'foreach' || w === 'run' || w === 'rebase')) return false;
  }
  return true;
}

function scanLine(line: string, parts: readonly Part[], opts: DenyScanOptions): DenyHit | undefined {
  lineSegments = undefined;
  if (shortcuts && opts.rescanLine !== true && plainAndClear(line, parts)) {
    clearedAtOnce++;
    return undefined;
  }
  try {
    // The raw line read roughly too: where the parser and the shell could disagree (`>` then a newline is a syntax
    // error to bash, a redirect to the parser), over-reading is the side to err on (fail closed).
    const all: Part[] = [...parts, { text: line, words: [], redirects: [], origin: 'unparsed', unparsed: true }];
    // A line the parser could not fully read is also read with its quotes removed: the shell may read it otherwise
    // than the parser did (`"; sudo ls` with an unbalanced quote), so over-read (fail closed).
    if (parts.some((p) => p.unparsed === true)) {
      const text = line.replace(/["'`]/g, '');
      all.push({ text, words: [], redirects: [], origin: 'unparsed', unparsed: true });
    }
    let budget: ScanBudget = { work: 0, deferred: 0, skipTexts: shortcuts, mayFetch: undefined, line, parts, parsed: undefined, scanned: undefined, partCosts: [] };
    // `rescanLine`: scan the rough reading whole (the test comparing both readings).
    let cmds: Cmd[] = [];
    for (let i = 0; i < all.length; i++) commandsOf(all[i]!, budget, i >= parts.length && opts.rescanLine !== true, cmds);
    if (budget.work + budget.deferred > MAX_DENY_WORK) {
      // The texts left unparsed might have reached the work bound: scan again, parsing them.
      budget = { work: 0, deferred: 0, skipTexts: false, mayFetch: undefined, line, parts, parsed: undefined, scanned: undefined, partCosts: [] };
      cmds = [];
      for (let i = 0; i < all.length; i++) commandsOf(all[i]!, budget, i >= parts.length && opts.rescanLine !== true, cmds);
    }
    const view: LineView = { line, parts: all, cmds: shortcuts ? cmds.filter(mayMatter) : cmds };
    if (view.cmds.length === 0 && shortcuts) {
      // No command any entry looks at: only disk-write's redirect check can apply (every other check is on a command).
      const part = deviceRedirect(all);
      return part === undefined ? undefined : { name: diskWrite.name, sentence: diskWrite.sentence, part: part.text };
    }
    for (const e of ENTRIES) {
      const part = e.find(view);
      // Code stored to run later (`npm pkg set scripts.x=CMD`) is refused as the line itself would be, and says so.
      if (part !== undefined) return { name: e.name, sentence: part.origin === 'stored' ? `${e.sentence}, in code the line stores to run later` : e.sentence, part: part.text };
    }
    return undefined;
  } catch (err) {
    if (err instanceof ParserNotReady) throw err; // withoutParser loads the parser and asks again (ADR 0040)
    if (err instanceof DenyWorkLimit) {
      return { name: 'too-intricate', sentence: 'nests too many commands to check against the deny list', part: line };
    }
    return { name: 'internal-error', sentence: `could not be checked against the deny list (${err instanceof Error ? err.message : String(err)})`, part: line };
  }
}
