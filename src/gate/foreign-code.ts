// Shell commands inside code in another language (ADR 0093): `python -c 'import os; os.system("sudo ls")'` runs
// `sudo ls`. The deny scan reads the string a shell-running call is given as a command line. The reading is a scan
// for literal strings next to names in a table, not a parser: it finds the plain spellings and may find a string that
// is only printed. Either way it can only add a refusal (ADR 0018); what it misses is asked, as before.

/** How a language spells a string that runs as a command, beyond a call's string argument. */
interface Language {
  /** `` `cmd` `` runs cmd (perl, ruby, php); in JavaScript it is a template string. */
  readonly backticks: boolean;
  /** `qx{cmd}` (perl), `%x(cmd)` (ruby). */
  readonly quoteCommand?: string;
  /** A call may take its argument without parentheses (`system "cmd"`, Tcl's `exec cmd`). */
  readonly bareCalls: boolean;
  /** Tcl: `exec`/`spawn` take the command as bare words up to the line's end, `;` or `]`. */
  readonly tclWords?: boolean;
  /** awk: `"cmd" | getline` and `print … | "cmd"` run the string. */
  readonly awkPipes?: boolean;
  /** Python's `'''…'''` and `"""…"""`. */
  readonly tripleQuotes?: boolean;
  /** PowerShell: the code is itself a command line (`pwsh -c 'sudo ls'` runs sudo). */
  readonly commandLine?: boolean;
  /** sed: the `e COMMAND` command runs COMMAND. */
  readonly sedScript?: boolean;
}

const PY: Language = { backticks: false, bareCalls: false, tripleQuotes: true };
const PERL: Language = { backticks: true, quoteCommand: 'qx', bareCalls: true };
const RUBY: Language = { backticks: true, quoteCommand: '%x', bareCalls: true };
const JS: Language = { backticks: false, bareCalls: false };
const PHP: Language = { backticks: true, bareCalls: false };
const LUA: Language = { backticks: false, bareCalls: true };
const TCL: Language = { backticks: false, bareCalls: true, tclWords: true };
const AWK: Language = { backticks: false, bareCalls: false, awkPipes: true };
const APPLESCRIPT: Language = { backticks: false, bareCalls: true };
const R: Language = { backticks: false, bareCalls: false };
const POWERSHELL: Language = { backticks: false, bareCalls: true, commandLine: true };
const SED: Language = { backticks: false, bareCalls: false, sedScript: true };

/**
 * Programs that run inline code, by name: the options whose value is the code (a letter counts anywhere in a short
 * cluster, as in `perl -lne`), and the language. awk's program is its first operand (`AWK_NAMES`).
 */
export interface InlineCode {
  readonly letters: string;
  readonly long: readonly string[];
  readonly language: Language;
  /** Its options are matched in any case (PowerShell's `-Command`, `-command`). */
  readonly foldCase?: boolean;
}
/** PowerShell takes any unambiguous prefix of a parameter's name, in any case. */
const PWSH: InlineCode = {
  letters: '',
  long: ['-c', '-co', '-com', '-comm', '-comma', '-comman', '-command', '-cwa', '-commandwithargs', '--command'],
  language: POWERSHELL,
  foldCase: true,
};
const PYTHON: InlineCode = { letters: 'c', long: [], language: PY };
const INLINE: ReadonlyMap<string, InlineCode> = new Map([
  ['perl', { letters: 'eE', long: [], language: PERL }],
  ['ruby', { letters: 'e', long: [], language: RUBY }],
  ['node', { letters: 'ep', long: ['--eval', '--print'], language: JS }],
  ['nodejs', { letters: 'ep', long: ['--eval', '--print'], language: JS }],
  ['bun', { letters: 'e', long: ['--eval', '--print'], language: JS }],
  ['deno', { letters: '', long: ['eval'], language: JS }],
  ['php', { letters: 'rBRE', long: [], language: PHP }],
  ['lua', { letters: 'e', long: [], language: LUA }],
  ['luajit', { letters: 'e', long: [], language: LUA }],
  ['rscript', { letters: 'e', long: [], language: R }],
  ['r', { letters: 'e', long: [], language: R }],
  ['expect', { letters: 'c', long: [], language: TCL }],
  ['osascript', { letters: 'e', long: [], language: APPLESCRIPT }],
  ['tclsh', { letters: '', long: [], language: TCL }],
  ['wish', { letters: '', long: [], language: TCL }],
  ['pwsh', PWSH],
  ['powershell', PWSH],
  ['pwsh-preview', PWSH],
  ['awk', { letters: 'e', long: ['--source'], language: AWK }],
  ['gawk', { letters: 'e', long: ['--source'], language: AWK }],
  ['mawk', { letters: '', long: [], language: AWK }],
  ['sed', { letters: 'e', long: ['--expression'], language: SED }],
  ['gsed', { letters: 'e', long: ['--expression'], language: SED }],
  ['nawk', { letters: '', long: [], language: AWK }],
]);
const AWK_NAMES: ReadonlySet<string> = new Set(['awk', 'gawk', 'mawk', 'nawk', 'sed', 'gsed']);

/** The inline-code row of a program name (lower-case basename): `python3.12` is python, `perl5.36` perl. */
export function inlineCodeOf(name: string): InlineCode | undefined {
  const row = INLINE.get(name);
  if (row !== undefined) return row;
  let end = name.length;
  while (end > 0 && (name[end - 1] === '.' || (name[end - 1]! >= '0' && name[end - 1]! <= '9'))) end--;
  const base = name.slice(0, end);
  if (base === 'python' || base === 'pypy') return PYTHON;
  return base === name ? undefined : INLINE.get(base);
}

/** The code texts given to a program in its words (`program[0]` is its name). */
export function inlineCodeTexts(name: string, row: InlineCode, program: readonly string[]): string[] {
  const out: string[] = [];
  let fromFile = false;
  let operandSeen = false;
  for (let i = 1; i < program.length; i++) {
    const w = row.foldCase === true ? program[i]!.toLowerCase() : program[i]!;
    if (w === '--') {
      if (AWK_NAMES.has(name) && !fromFile && out.length === 0 && program[i + 1] !== undefined) out.push(program[i + 1]!);
      break;
    }
    if (row.long.includes(w)) {
      if (program[i + 1] !== undefined) out.push(program[++i]!);
      continue;
    }
    const eq = w.indexOf('=');
    if (w.startsWith('--') && eq > 0 && row.long.includes(w.slice(0, eq))) {
      out.push(w.slice(eq + 1));
      continue;
    }
    if (w.length > 1 && w.startsWith('-') && !w.startsWith('--')) {
      if (AWK_NAMES.has(name) && (w === '-f' || w.startsWith('-f'))) fromFile = true;
      // awk's -v, -F take a value in the next word when not attached.
      if (AWK_NAMES.has(name) && (w === '-v' || w === '-F' || w === '-f')) i++;
      for (let j = 1; j < w.length; j++) {
        if (!row.letters.includes(w[j]!)) continue;
        out.push(j + 1 < w.length ? w.slice(j + 1) : (program[++i] ?? ''));
        break;
      }
      continue;
    }
    // awk's program is its first operand unless a file or --source gives it.
    if (AWK_NAMES.has(name) && !operandSeen && !fromFile && out.length === 0) out.push(w);
    operandSeen = true;
  }
  return out;
}

/**
 * Calls that run a command line or a program given as a string (by the last segment of the called name): Python's
 * `os.system`, `os.popen`, `subprocess.run|call|check_output|Popen`, `os.exec*`; perl's and ruby's `system`, `exec`,
 * `IO.popen`, `Open3.capture*`; node's `child_process.exec|execSync|spawn|execFile*`; PHP's `shell_exec`,
 * `passthru`, `proc_open`; Lua's `os.execute`, `io.popen`; R's `system`, `system2`; awk's `system`; Tcl's `exec` and
 * expect's `spawn`; AppleScript's `do shell script`.
 */
const SHELL_CALLS: ReadonlySet<string> = new Set([
  'system', 'system2', 'popen', 'popen2', 'popen3', 'exec', 'execsync', 'execfile', 'execfilesync', 'spawn', 'spawnsync',
  'run', 'call', 'check_call', 'check_output', 'getoutput', 'getstatusoutput', 'execv', 'execve', 'execvp', 'execvpe',
  'execl', 'execle', 'execlp', 'execlpe', 'spawnv', 'spawnve', 'spawnvp', 'spawnvpe', 'spawnl', 'spawnlp', 'posix_spawn',
  'posix_spawnp', 'shell_exec', 'passthru', 'proc_open', 'pcntl_exec', 'execute', 'capture2', 'capture2e', 'capture3',
]);

/** What the scan found: command lines (a string run by a shell) and word lists (a program and its arguments). */
export interface ForeignCommands {
  readonly lines: string[];
  readonly lists: string[][];
}

const MAX_CODE = 16_384;

/** The commands a code text in `language` gives to a shell or runs as a program, as far as its literal strings show. */
export function shellCommandsIn(code: string, row: InlineCode): ForeignCommands {
  const found: ForeignCommands = { lines: [], lists: [] };
  const lang = row.language;
  if (lang.commandLine === true) {
    found.lines.push(code);
    return found;
  }
  if (lang.sedScript === true) {
    for (const command of sedCommands(code)) found.lines.push(command);
    return found;
  }
  const text = code.length > MAX_CODE ? code.slice(0, MAX_CODE) : code;
  const tokens = tokenize(text, lang);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'command') {
      found.lines.push(t.text);
      continue;
    }
    if (t.kind === 'string' && lang.awkPipes) {
      // `"cmd" | getline`, `print x | "cmd"`, `|&` for a coprocess.
      const next = tokens[i + 1];
      const prev = tokens[i - 1];
      if ((next?.kind === 'punct' && next.text === '|') || (prev?.kind === 'punct' && prev.text === '|')) found.lines.push(t.text);
      continue;
    }
    if (t.kind !== 'name') continue;
    const name = t.text.toLowerCase();
    // AppleScript: `do shell script "cmd"`.
    if (name === 'shell' && tokens[i + 1]?.kind === 'name' && tokens[i + 1]!.text.toLowerCase() === 'script') {
      const s = tokens[i + 2];
      if (s?.kind === 'string') found.lines.push(s.text);
      continue;
    }
    if (!SHELL_CALLS.has(name)) continue;
    if (lang.tclWords && (name === 'exec' || name === 'spawn')) {
      // Tcl's words are read as a shell's: the rest of the line, to its end, `;` or `]`.
      const line = tclLine(text, t.end);
      if (line.trim() !== '') found.lines.push(line);
      continue;
    }
    let k = i + 1;
    const open = tokens[k]?.kind === 'punct' && tokens[k]!.text === '(';
    if (!open && !lang.bareCalls) continue;
    if (open) k++;
    // The arguments: strings, and strings inside `[…]` (an argument list), up to the call's end. Strings written
    // next to each other or joined by `+`, `.` or `..` (`"su" "do ls"`, `"su" + "do ls"`) are one string.
    const strings: string[] = [];
    let joins = false;
    for (; k < tokens.length && strings.length < 64; k++) {
      const a = tokens[k]!;
      if (a.kind === 'string') {
        if (joins || (strings.length > 0 && tokens[k - 1]?.kind === 'string')) strings[strings.length - 1] += a.text;
        else strings.push(a.text);
        joins = false;
        continue;
      }
      const joiner = a.kind === 'punct' && (a.text === '+' || a.text === '.');
      // `..` (Lua) is two dots: the second keeps the join the first began.
      if (joiner && ((strings.length > 0 && tokens[k - 1]?.kind === 'string') || (a.text === '.' && joins))) {
        joins = true;
        continue;
      }
      joins = false;
      if (a.kind === 'punct' && (a.text === ',' || a.text === '[' || a.text === ']' || a.text === '(')) continue;
      break;
    }
    if (strings.length === 0) continue;
    found.lines.push(strings[0]!);
    if (strings.length > 1) found.lists.push(strings);
  }
  return found;
}

interface Token {
  readonly kind: 'name' | 'string' | 'command' | 'punct' | 'newline';
  readonly text: string;
  /** The index after the token in the code. */
  readonly end: number;
}

const NAME_START = /[A-Za-z_$]/;
const NAME_CHAR = /[\w$]/;

/** The code as names (with `.`, `::` and `->` parts dropped to the last), strings, commands and punctuation. */
function tokenize(code: string, lang: Language): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < code.length) {
    const c = code[i]!;
    if (c === '\n' || c === ';') {
      out.push({ kind: 'newline', text: c, end: i + 1 });
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '"' || c === "'" || (c === '`' && !lang.backticks)) {
      const triple = lang.tripleQuotes === true && code.startsWith(c.repeat(3), i);
      const [value, end] = readQuoted(code, triple ? i + 3 : i + 1, triple ? c.repeat(3) : c);
      out.push({ kind: 'string', text: value, end });
      i = end;
      continue;
    }
    if (c === '`') {
      const [value, end] = readQuoted(code, i + 1, '`');
      out.push({ kind: 'command', text: value, end });
      i = end;
      continue;
    }
    if (lang.quoteCommand !== undefined && code.startsWith(lang.quoteCommand, i) && !NAME_CHAR.test(code[i - 1] ?? ' ')) {
      const open = code[i + lang.quoteCommand.length];
      if (open !== undefined && !NAME_CHAR.test(open) && open !== ' ') {
        const close = CLOSERS.get(open) ?? open;
        const [value, end] = readQuoted(code, i + lang.quoteCommand.length + 1, close);
        out.push({ kind: 'command', text: value, end });
        i = end;
        continue;
      }
    }
    if (NAME_START.test(c)) {
      let j = i + 1;
      while (j < code.length && NAME_CHAR.test(code[j]!)) j++;
      out.push({ kind: 'name', text: code.slice(i, j).replace(/^\$/, ''), end: j });
      i = j;
      continue;
    }
    if ((c === '.' || c === ':' || c === '-' || c === '>') && out.length > 0 && out[out.length - 1]!.kind === 'name') {
      // `os.system`, `Open3::capture2`, `$x->exec`: the called name is the segment that follows.
      const sep = code.startsWith('::', i) || code.startsWith('->', i) ? 2 : c === '.' ? 1 : 0;
      if (sep > 0 && NAME_START.test(code[i + sep] ?? '')) {
        out.pop();
        i += sep;
        continue;
      }
    }
    const width = c === '|' && code[i + 1] === '&' ? 2 : 1;
    out.push({ kind: 'punct', text: c, end: i + width });
    i += width;
  }
  return out;
}

const CLOSERS: ReadonlyMap<string, string> = new Map([['(', ')'], ['{', '}'], ['[', ']'], ['<', '>']]);

/** A quoted string's value from `from` to its closing `close`, with the usual backslash escapes, and the index after. */
function readQuoted(code: string, from: number, close: string): [string, number] {
  let value = '';
  let i = from;
  while (i < code.length) {
    if (code.startsWith(close, i)) return [value, i + close.length];
    const c = code[i]!;
    if (c === '\\' && i + 1 < code.length) {
      const [ch, used] = unescape(code, i + 1);
      value += ch;
      i += 1 + used;
      continue;
    }
    value += c;
    i++;
  }
  return [value, i];
}

const SIMPLE_ESCAPES: ReadonlyMap<string, string> = new Map([['n', '\n'], ['t', '\t'], ['r', '\r'], ['0', '\0']]);
const HEX = /^[0-9A-Fa-f]+$/;

/** One escape after a backslash: `\x73`, `\u0073`, `\163`, `\n`, or the character itself; and how many it used. */
function unescape(code: string, at: number): [string, number] {
  const c = code[at]!;
  if (c === 'x' && HEX.test(code.slice(at + 1, at + 3)) && code.slice(at + 1, at + 3).length === 2) return [String.fromCharCode(parseInt(code.slice(at + 1, at + 3), 16)), 3];
  if (c === 'u' && HEX.test(code.slice(at + 1, at + 5)) && code.slice(at + 1, at + 5).length === 4) return [String.fromCharCode(parseInt(code.slice(at + 1, at + 5), 16)), 5];
  if (c >= '1' && c <= '7' && /^[0-7]{3}$/.test(code.slice(at, at + 3))) return [String.fromCharCode(parseInt(code.slice(at, at + 3), 8)), 3];
  return [SIMPLE_ESCAPES.get(c) ?? c, 1];
}

/** Tcl's command after `exec`/`spawn`: the code from `from` to the line's end, `;` or `]`. */
function tclLine(code: string, from: number): string {
  let end = from;
  while (end < code.length && code[end] !== '\n' && code[end] !== ';' && code[end] !== ']') end++;
  return code.slice(from, end);
}

/**
 * The commands of sed's `e COMMAND` (GNU): each line and `;`-separated piece of the script, its address (line
 * numbers, `$`, `/re/`, `,`, `!`) skipped, that starts with `e` and a blank; the rest of that line is the command.
 * Splitting at every `;` over-reads (a `;` inside a regular expression), which can only add a refusal.
 */
function sedCommands(script: string): string[] {
  const out: string[] = [];
  for (const line of script.split('\n')) {
    for (let start = 0; start <= line.length; ) {
      let i = start;
      while (i < line.length && ' \t0123456789$,!~{'.includes(line[i]!)) i++;
      if (line[i] === '/') {
        const close = line.indexOf('/', i + 1);
        i = close < 0 ? line.length : close + 1;
        while (i < line.length && ' \t0123456789$,!~{'.includes(line[i]!)) i++;
      }
      if (line[i] === 'e' && (line[i + 1] === ' ' || line[i + 1] === '\t')) {
        out.push(line.slice(i + 2));
        break; // the command takes the rest of the line
      }
      const semi = line.indexOf(';', i);
      if (semi < 0) break;
      start = semi + 1;
    }
  }
  return out;
}

/** Whether a sed line may give an `e COMMAND` (any word after the program holds one): the deny scan's fast path leaves it. */
export function sedMayRun(words: readonly string[]): boolean {
  for (let i = 1; i < words.length; i++) if (sedCommands(words[i]!).length > 0) return true;
  return false;
}
