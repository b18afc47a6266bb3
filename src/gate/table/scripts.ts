// Strict allow-grammars for the little languages of table programs: a sed script, an awk program, a jq/yq filter,
// a find expression, a tar listing, ps selectors. Each accepts a small, known-harmless subset and returns a reason
// for anything else — there is no list of dangerous forms to keep complete. Every scan here is a single pass.
import type { FileWord, ParsedArgs } from './spec.js';

// ---------------------------------------------------------------- sed

/** sed commands that take no argument and only print, move text between buffers, or stop. */
const SED_SIMPLE = 'pPdDnNgGhHx=zF';

/** Scans a delimited section starting after its opening delimiter; returns the index after the closing one. */
function sedSection(s: string, from: number, delim: string, bracketAware: boolean): number {
  let i = from;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (bracketAware && ch === '[') {
      // POSIX: the delimiter is literal inside a bracket expression (BSD sed honours this, GNU does not).
      let j = i + 1;
      if (s[j] === '^') j++;
      if (s[j] === ']') j++;
      while (j < s.length && s[j] !== ']') j++;
      i = j + 1;
      continue;
    }
    if (ch === delim) return i + 1;
    if (ch === '\n' && delim !== '\n') return -1;
    i++;
  }
  return -1;
}

function sedDelimited(s: string, from: number, delim: string, parts: number): number {
  let a = from;
  let b = from;
  for (let k = 0; k < parts; k++) {
    a = a < 0 ? -1 : sedSection(s, a, delim, false);
    b = b < 0 ? -1 : sedSection(s, b, delim, k === 0);
  }
  // GNU and BSD sed must agree where the command ends, or a flag could hide in the difference.
  return a === b ? a : -2;
}

function sedAddress(s: string, i: number): number {
  if (s[i] === '$') return i + 1;
  if (/\d/.test(s[i] ?? '')) {
    while (/\d/.test(s[i] ?? '')) i++;
    if (s[i] === '~') {
      i++;
      while (/\d/.test(s[i] ?? '')) i++;
    }
    return i;
  }
  if (s[i] === '/' || s[i] === '\\') {
    const delim = s[i] === '\\' ? s[i + 1] : '/';
    if (delim === undefined || delim === '\n' || delim === '\\') return -1;
    const end = sedDelimited(s, i + (s[i] === '\\' ? 2 : 1), delim, 1);
    if (end < 0) return -1;
    i = end;
    while (s[i] === 'I' || s[i] === 'M') i++;
    return i;
  }
  return i;
}

/** Why a sed script is not a plain print/substitute/delete script, or undefined when it is. */
export function sedScriptReason(s: string): string | undefined {
  let i = 0;
  const bad = (what: string) => `the sed script uses ${what}, which can run commands, read or write files`;
  while (i < s.length) {
    const ch = s[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === ';' || ch === '}') {
      i++;
      continue;
    }
    if (ch === '#') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    const start = i;
    i = sedAddress(s, i);
    if (i < 0) return 'the sed script has an address wisp cannot read';
    if (i > start && s[i] === ',') {
      i++;
      if (s[i] === '+' || s[i] === '~') {
        i++;
        while (/\d/.test(s[i] ?? '')) i++;
      } else {
        const at = i;
        i = sedAddress(s, i);
        if (i < 0 || i === at) return 'the sed script has an address wisp cannot read';
      }
    }
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (s[i] === '!') i++;
    while (s[i] === ' ' || s[i] === '\t') i++;
    const cmd = s[i];
    if (cmd === undefined) return 'the sed script ends after an address';
    if (cmd === '{') {
      i++;
      continue;
    }
    if (SED_SIMPLE.includes(cmd) || cmd === 'q' || cmd === 'Q' || cmd === 'l') {
      i++;
      if (cmd === 'q' || cmd === 'Q' || cmd === 'l') while (/[\d ]/.test(s[i] ?? '') && s[i] !== undefined) i++;
    } else if (cmd === ':' || cmd === 'b' || cmd === 't' || cmd === 'T') {
      i++;
      while (i < s.length && s[i] !== '\n' && s[i] !== ';' && s[i] !== '}') i++;
    } else if (cmd === 's' || cmd === 'y') {
      const delim = s[i + 1];
      if (delim === undefined || delim === '\n' || delim === '\\') return 'the sed script has an s or y command wisp cannot read';
      const end = sedDelimited(s, i + 2, delim, 2);
      if (end < 0) return 'the sed script has an s or y command wisp cannot read';
      i = end;
      if (cmd === 's') {
        while (i < s.length && /[gpiImM0-9]/.test(s[i]!)) i++;
      }
    } else {
      return bad(`the command ${cmd}`);
    }
    while (s[i] === ' ' || s[i] === '\t') i++;
    if (i < s.length && s[i] !== ';' && s[i] !== '\n' && s[i] !== '}' && s[i] !== '#') {
      return bad(`${s[i]} after a command (an s flag such as e or w, or a command argument)`);
    }
  }
  return undefined;
}

export function sedCheck(p: ParsedArgs): string | undefined {
  const scripts = p.options.filter((o) => o.name === '-e' || o.name === '--expression').map((o) => o.value ?? '');
  if (scripts.length === 0) {
    const first = p.operands[0];
    if (first === undefined) return 'sed without a script';
    scripts.push(first);
  }
  for (const s of scripts) {
    const bad = sedScriptReason(s);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

// ---------------------------------------------------------------- awk

/** Words in an awk program that run commands, read other files, see the environment or load code. */
const AWK_FORBIDDEN = /system|getline|ENVIRON|PROCINFO|ARGV|ARGC|SYMTAB|FUNCTAB|@|\||\/inet|\/dev\/|close|fflush|extension/;

export function awkProgramReason(program: string): string | undefined {
  const m = AWK_FORBIDDEN.exec(program);
  if (m) return `the awk program uses ${m[0]}, which can run commands, read other files or the environment`;
  // `print … > "file"` writes; a `>` before any print in a statement is a comparison.
  let printing = false;
  for (let i = 0; i < program.length; i++) {
    const ch = program[i]!;
    if (ch === ';' || ch === '{' || ch === '}' || ch === '\n') printing = false;
    else if (ch === 'p' && program.startsWith('print', i) && !/[A-Za-z0-9_]/.test(program[i - 1] ?? ' ')) printing = true;
    else if (ch === '>' && printing) return 'the awk program prints into a file';
  }
  return undefined;
}

const AWK_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const AWK_SPECIAL_VARS = /^(ENVIRON|PROCINFO|ARGV|ARGC|SYMTAB|FUNCTAB)=/;

export function awkVarValue(v: string): string | undefined {
  if (!AWK_ASSIGNMENT.test(v) || AWK_SPECIAL_VARS.test(v)) return `is not a plain variable assignment (${v})`;
  return undefined;
}

export function awkCheck(p: ParsedArgs): string | undefined {
  const sources = p.options.filter((o) => o.name === '-e' || o.name === '--source').map((o) => o.value ?? '');
  const files = sources.length > 0 ? p.operands : p.operands.slice(1);
  if (sources.length === 0) {
    const first = p.operands[0];
    if (first === undefined) return 'awk without a program';
    sources.push(first);
  }
  for (const s of sources) {
    const bad = awkProgramReason(s);
    if (bad !== undefined) return bad;
  }
  for (const f of files) if (AWK_SPECIAL_VARS.test(f)) return `the awk operand ${f} sets a special variable`;
  return undefined;
}

// ---------------------------------------------------------------- jq / yq

/**
 * Filters that print the environment, load modules or read files by name. yq's `envsubst` replaces `${NAME}` in a
 * string with the environment's value, so `yq envsubst config.yml` prints any secret the file names; yq's readers are
 * all `load…` (`load_str`, `load_xml`, `load_props` …), any of them.
 */
const JQ_FORBIDDEN = /\benv\b|\$ENV|\bENV\b|\bimport\b|\binclude\b|\bmodulemeta\b|\bget_search_list\b|\$__prog|\binput_filename\b|\bstrenv\b|\benvsubst\b|\bload\w*|\beval\b/;

export function jqCheck(p: ParsedArgs): string | undefined {
  if (p.operands.length === 0 && !p.options.some((o) => o.name === '--help' || o.name === '--version' || o.name === '-h' || o.name === '-V')) {
    return 'jq without a filter';
  }
  for (const w of [...p.operands, ...p.options.map((o) => o.value ?? '')]) {
    const m = JQ_FORBIDDEN.exec(w);
    if (m) return `the filter uses ${m[0]}, which reads the environment, modules or other files`;
  }
  return undefined;
}

// ---------------------------------------------------------------- find

const FIND_BARE = new Set([
  '(', ')', '!', ',', '-not', '-a', '-and', '-o', '-or', '-print', '-print0', '-prune', '-empty', '-true', '-false', '-quit',
  '-depth', '-d', '-xdev', '-mount', '-follow', '-noleaf', '-readable', '-writable', '-executable', '-nouser', '-nogroup', '-ls',
  '-daystart', '-ignore_readdir_race', '-noignore_readdir_race',
]);
const FIND_ONE = new Set([
  '-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-regextype', '-type', '-xtype',
  '-maxdepth', '-mindepth', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-newer', '-anewer', '-cnewer', '-size',
  '-perm', '-user', '-group', '-uid', '-gid', '-links', '-inum', '-samefile', '-lname', '-ilname', '-used', '-printf',
  '-fstype', '-context',
]);

/** find: start paths, then an expression of tests and printing actions only (no -exec, -delete, -fprint, -ok). */
export function findCheck(p: ParsedArgs): string | undefined {
  const w = p.operands;
  const shapes = p.operandShapes ?? [];
  let i = 0;
  while (i < w.length && /^-[HLP]$/.test(w[i]!)) i++;
  for (; i < w.length; i++) {
    const x = w[i]!;
    if (x.startsWith('-') || x === '(' || x === '!' || x === ')') break;
    if (shapes[i] === 'glob' && /^[*?[]/.test(x)) return 'a glob that could expand to a find expression';
  }
  for (; i < w.length; i++) {
    const x = w[i]!;
    if (shapes[i] !== 'literal') return 'a glob in a find expression (a file name could become -delete or -exec)';
    if (FIND_BARE.has(x)) continue;
    if (FIND_ONE.has(x) || /^-newer[aBcmt][aBcmt]$/.test(x)) {
      if (i + 1 >= w.length) return `find ${x} needs a value`;
      if (shapes[i + 1] !== 'literal') return `the value of find ${x} is not a literal word`;
      i++;
      continue;
    }
    return `find ${x} is not a test or action wisp knows to be read-only`;
  }
  return undefined;
}

/** The operands find starts from (before its first test or action), the folder it runs in when there are none. */
export function findStarts(p: ParsedArgs): FileWord[] {
  const w = p.operands;
  let i = 0;
  while (i < w.length && /^-[HLP]$/.test(w[i]!)) i++;
  const starts: FileWord[] = [];
  for (; i < w.length; i++) {
    const x = w[i]!;
    if (x.startsWith('-') || x === '(' || x === '!' || x === ')') break;
    starts.push({ word: x, shape: p.operandShapes?.[i] ?? 'dynamic' });
  }
  return starts.length > 0 ? starts : [{ word: '.', shape: 'literal' }];
}

// ---------------------------------------------------------------- tar (listing only)

/**
 * GNU tar reads an archive named `host:file` from another machine (through rsh or ssh), and a glob can expand to such
 * a name; `--force-local` is not in the subset, so any colon or glob character in the name is refused.
 */
function archiveName(name: string): string | undefined {
  if (name.includes(':')) return `tar reads an archive named ${name} from another host`;
  if (/[*?[]/.test(name)) return 'tar with a glob for the archive name';
  return undefined;
}

export function tarCheck(p: ParsedArgs): string | undefined {
  const w = p.operands;
  let listing = false;
  let needFile = 0;
  let members = false;
  for (let i = 0; i < w.length; i++) {
    const x = w[i]!;
    if (needFile > 0) {
      needFile--;
      const bad = archiveName(x);
      if (bad !== undefined) return bad;
      continue;
    }
    if (x === '--list') {
      listing = true;
      continue;
    }
    if (/^--(verbose|gzip|bzip2|xz|zstd|numeric-owner|full-time)$/.test(x)) continue;
    if (x.startsWith('--file=')) {
      const bad = archiveName(x.slice('--file='.length));
      if (bad !== undefined) return bad;
      continue;
    }
    if (x === '--file') {
      needFile = 1;
      continue;
    }
    const cluster = i === 0 ? /^-?([tvzjJf]+)$/.exec(x) : /^-([tvzjJf]+)$/.exec(x);
    if (cluster && !members) {
      if (cluster[1]!.includes('t')) listing = true;
      needFile += (cluster[1]!.match(/f/g) ?? []).length;
      continue;
    }
    if (x.startsWith('-')) return `tar ${x} is not a listing option`;
    members = true;
  }
  if (needFile > 0) return 'tar -f needs an archive';
  return listing ? undefined : 'tar that does not only list an archive';
}

/**
 * The operands that name the archive (after `-f`, `--file`, or in `--file=…`); a listing reads no other file, and
 * the member names are names inside the archive. With no archive named, tar reads standard input.
 */
export function tarArchives(p: ParsedArgs): FileWord[] {
  const w = p.operands;
  const shape = (i: number) => p.operandShapes?.[i] ?? 'dynamic';
  const out: FileWord[] = [];
  let needFile = 0;
  for (let i = 0; i < w.length; i++) {
    const x = w[i]!;
    if (needFile > 0) {
      needFile--;
      out.push({ word: x, shape: shape(i) });
    } else if (x === '--file') needFile = 1;
    else if (x.startsWith('--file=')) out.push({ word: x.slice('--file='.length), shape: shape(i) });
    else if (/^-?[tvzjJf]+$/.test(x) && (i === 0 || x.startsWith('-'))) needFile += (x.match(/f/g) ?? []).length;
  }
  return out;
}

// ---------------------------------------------------------------- ps

/** ps selectors and formats; BSD `e` (which prints every process's environment) is not among them. */
export function psCheck(p: ParsedArgs): string | undefined {
  const w = p.operands;
  for (let i = 0; i < w.length; i++) {
    const x = w[i]!;
    if (/^[auxwfjlrTSMcnhHsv]+$/.test(x)) continue;
    if (/^-[eAadNfFljHwLTyMZ]+$/.test(x)) continue;
    if (/^--(forest|no-headers|headers|cumulative|deselect)$/.test(x)) continue;
    if (/^-[puUCoOtgGq]$/.test(x) || /^--(sort|pid|ppid|format|user|User|cols|columns|width)$/.test(x)) {
      const v = w[i + 1];
      if (v === undefined || /environ/i.test(v)) return `ps ${x} needs a plain value`;
      i++;
      continue;
    }
    if (/^--(sort|pid|ppid|format|user|User|cols|columns|width)=/.test(x) && !/environ/i.test(x)) continue;
    if (/^\d+$/.test(x)) continue;
    return `ps ${x} is not an option wisp knows to be read-only`;
  }
  return undefined;
}
