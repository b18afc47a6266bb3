// Safe by construction (docs/decisions/0014-safe-by-construction.md): a part is safe only when it is a simple
// command of literal words, with no redirection but to or from /dev/null and between descriptors, whose program has
// a row in the read-only table and whose every option that row lists. This module answers that question and
// nothing else; the rule families may still raise the level of a part it calls safe.
import { existsSync, realpathSync } from 'node:fs';
import { posix } from 'node:path';
import { globMatcher, tooIntricate } from '../glob.js';
import { cwdReason, fileWordReason, type Places } from '../locations.js';
import type { Part, WordShape } from '../types.js';
import { shortcuts } from '../shortcuts.js';
import { isAssignment } from '../words.js';
import { type ArgsResult, checkValue, parseArgs } from './options.js';
import { programRow, WRAPPER_ROWS } from './programs.js';
import type { FileWord, ParsedArgs, ProgramSpec, TableEnv } from './spec.js';

export type TableVerdict = { readonly safe: true } | { readonly safe: false; readonly reason: string };

const SAFE: TableVerdict = { safe: true };
const no = (reason: string): TableVerdict => ({ safe: false, reason });

/** The only redirections a safe part may have: to or from /dev/null, and between descriptors (`2>&1`). */
const HARMLESS_REDIRECT = /^\s*(?:\d{0,2}(?:>>?|>\||<)|&>>?)\s*\/dev\/null\s*$|^\s*\d{0,2}>&\d{1,2}\s*$/;

/** Display and locale settings a safe part may carry as `NAME=value` prefixes (values without `/`). */
const DISPLAY_ENV = /^(LC_[A-Z]+|LANG|LANGUAGE|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLUMNS|LINES|TERM)=[A-Za-z0-9_.@:+-]*$/;

/** Names a glob must not be able to reach: keys, credentials, environment files. */
const SECRET_NAMES = [
  '.ssh', '.aws', '.gnupg', '.netrc', '.env', '.env.local', '.npmrc', '.pypirc', '.docker', '.kube', '.config', '.git-credentials',
  'id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519', 'credentials', 'config.json', 'environ', 'secrets', 'secret', 'token',
  'private.pem', 'server.key', 'known_hosts', 'authorized_keys', 'hosts.yml', '.pgpass', '.vault-token', 'shadow', 'passwd',
];

/** Folders that hold nothing but keys and credentials: any path through them is not safe to read unasked. */
const SECRET_DIRS: ReadonlySet<string> = new Set(['.ssh', '.aws', '.gnupg', '.kube', '.docker', '.password-store', '.azure', '.vault-token', '.netrc', '.git-credentials']);

/**
 * Every folder of SECRET_DIRS is hidden (starts with `.`), so only a word that starts with `.` or holds `/.` can have
 * one as a component; checked at load, so a later entry without a dot turns the shortcut off (ADR 0074).
 */
const SECRET_DIRS_HIDDEN = [...SECRET_DIRS].every((d) => d.startsWith('.'));
const mayNameSecretDir = (word: string): boolean => !shortcuts.on || !SECRET_DIRS_HIDDEN || word.startsWith('.') || word.includes('/.');

/** Why a word is not safe to hand to a reader: a glob over hidden or secret names, /proc internals, /dev/tcp. */
export function wordReason(word: string, shape: WordShape): string | undefined {
  // A word without `/` (most are: `-la`, `README.md`) is one component and matches neither path expression, which
  // both need a `/` (ADR 0074).
  if (shortcuts.on && !word.includes('/')) {
    if (mayNameSecretDir(word) && SECRET_DIRS.has(word)) return 'reads inside a folder of keys or credentials';
    return shape === 'glob' ? globReason([word]) : undefined;
  }
  if (/\/dev\/(tcp|udp)\//.test(word)) return 'names a network connection (/dev/tcp, /dev/udp)';
  if (/(^|\/)proc\/[^/]*\/?(environ|mem|fd|cwd|root|map_files|auxv)?/.test(word) && (shape === 'glob' || /environ|\/mem\b|\/fd\b|\/cwd\b|\/root\b|map_files|auxv/.test(word))) {
    return "reads a process's environment or memory under /proc";
  }
  if (mayNameSecretDir(word)) {
    const components = word.split('/');
    if (components.some((c) => SECRET_DIRS.has(c))) return 'reads inside a folder of keys or credentials';
    return shape === 'glob' ? globReason(components) : undefined;
  }
  return shape === 'glob' ? globReason(word.split('/')) : undefined;
}

/** Why a glob's components may reach a hidden or secret name. */
function globReason(components: readonly string[]): string | undefined {
  for (const component of components) {
    if (!/[*?[]/.test(component)) continue;
    if (component.startsWith('.')) return 'a glob over hidden files, which may reach keys and credentials';
    // A backtracking match of many wildcards can take exponential time: such a glob is simply not safe.
    if (tooIntricate(component)) return 'a glob too intricate to check for secret names';
    const matches = globMatcher(component);
    // Wildcards never match a leading dot, so only a component that starts with one can reach hidden names.
    const hit = SECRET_NAMES.find((n) => !n.startsWith('.') && matches(n));
    if (hit !== undefined && !/^\*{1,2}(\.[A-Za-z0-9]+)?$/.test(component)) return `a glob that can match ${hit}`;
  }
  return undefined;
}

/** Whether the row reads every file below a folder it is given, with these options. */
function recursiveWith(spec: ProgramSpec, parsed: ParsedArgs): boolean {
  if (spec.recursive === undefined) return false;
  const names = spec.recursive;
  // An entry `NAME=VALUE` is an option that recurses only with that value (grep's `-d recurse`).
  return names === true || parsed.options.some((o) => names.includes(o.name) || (o.value !== undefined && names.includes(`${o.name}=${o.value}`)));
}

/** The operands that name files the program reads (the row's `files`), with how each was written. */
function fileOperands(spec: ProgramSpec, parsed: ParsedArgs): FileWord[] {
  const files = spec.files;
  if (files === 'none') return [];
  if (typeof files === 'function') return [...files(parsed)];
  const shapes = parsed.operandShapes ?? [];
  const skip = files !== undefined && !parsed.options.some((o) => files.skipFirstUnless.includes(o.name));
  const out: FileWord[] = [];
  for (let i = skip ? 1 : 0; i < parsed.operands.length; i++) out.push({ word: parsed.operands[i]!, shape: shapes[i] ?? 'dynamic' });
  return out;
}

/** Option values that name files (kinds `path` and `inside`), at every level of a command with sub-commands. */
function fileValues(levels: readonly ParsedArgs[]): FileWord[] {
  const out: FileWord[] = [];
  for (const p of levels) for (const o of p.options) if (o.file !== undefined && o.value !== undefined) out.push({ word: o.value, shape: o.file });
  return out;
}

/**
 * The location allow-list (ADR 0063): every file the part names lies in the project or a system location that holds
 * no user secrets; a reader that recurses (grep -r, rg) is given no folder that holds one it may not read.
 */
function locationReason(spec: ProgramSpec, levels: readonly ParsedArgs[], places: Places): string | undefined {
  const parsed = levels[levels.length - 1]!;
  const recursive = recursiveWith(spec, parsed);
  const operands = fileOperands(spec, parsed);
  // A recursive reader without a folder searches the one it runs in.
  if (recursive && operands.length === 0) operands.push({ word: '.', shape: 'literal' });
  for (const { word, shape } of operands) {
    const reason = fileWordReason(word, shape, places, recursive);
    if (reason !== undefined) return reason;
  }
  for (const { word, shape } of fileValues(levels)) {
    const reason = fileWordReason(word, shape, places, false);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

/**
 * Why a read is not safe when nothing contains the run (ADR 0093): with the sandbox on, a run allowed unasked sees
 * every secret file of the project empty, so `grep -r x .` or `cat *` may read the whole project. With it off (or
 * not known to be on) they would read `.env` and keys too, and the words do not name which files: a reader that
 * recurses, or a glob given as a file. Programs that print only names and sizes (`namesOnly`) read no content.
 * The reason names the word, so an answer for one folder or glob never covers another.
 */
function uncontainedReason(spec: ProgramSpec, levels: readonly ParsedArgs[], at: Places): string | undefined {
  if (spec.seesProcesses === true) return "shows other processes' command lines, which can hold passwords and tokens, and nothing contains the run (the sandbox is off)";
  if (spec.repositoryPrograms === true) {
    const repo = otherRepository(levels[0]!, at);
    if (repo !== undefined) return `runs git in another repository (${repo}), whose own settings can run programs (diff and filter drivers), and nothing contains the run (the sandbox is off)`;
  }
  if (spec.namesOnly === true) return undefined;
  const parsed = levels[levels.length - 1]!;
  const operands = fileOperands(spec, parsed);
  if (recursiveWith(spec, parsed)) {
    const folder = operands.length === 0 ? '.' : operands.map((o) => o.word).join(' ');
    return `reads every file below ${folder}, and nothing contains the run (the sandbox is off), so it may read secrets`;
  }
  for (const { word, shape } of [...operands, ...fileValues(levels)]) {
    if (shape === 'glob') return `reads the files a glob matches (${word}), and nothing contains the run (the sandbox is off), so it may read secrets`;
    const link = shape === 'literal' ? linkReason(word, at) : undefined;
    if (link !== undefined) return link;
  }
  return undefined;
}

/**
 * The repository a git read uses, when it is not the project's own: a `.git` in the folder git starts from (the run's,
 * then each `-C`) or in one above it below the project. An approved archive extraction can unpack one whose settings
 * name a diff or filter driver; with the sandbox off nothing else would stop it. A look at the disk, with the sandbox
 * off only.
 */
function otherRepository(git: ParsedArgs, at: Places): string | undefined {
  let dir = at.cwd;
  for (const o of git.options) if (o.name === '-C' && o.value !== undefined) dir = posix.resolve(dir, o.value);
  const project = posix.resolve(at.project);
  if (dir === project) return undefined;
  for (let d = dir; d !== project && d.startsWith(project + '/'); d = posix.dirname(d)) {
    if (existsSync(posix.join(d, '.git'))) return posix.relative(project, d);
  }
  return undefined;
}

/** The places with the project and home folder as the disk names them (their links followed), for the last places. */
let realPlaces: { readonly of: Places; readonly real: Places } | undefined;
function onDisk(at: Places): Places {
  if (realPlaces !== undefined && realPlaces.of.cwd === at.cwd && realPlaces.of.project === at.project && realPlaces.of.home === at.home) return realPlaces.real;
  const real = { cwd: at.cwd, project: realOr(at.project), home: realOr(at.home) };
  realPlaces = { of: at, real };
  return real;
}
function realOr(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * Why a file word is not safe to read when nothing contains the run: it is a link, or passes through one, to a place
 * the location check refuses (a repository may hold `notes.txt -> ~/.aws/credentials`). Contained, such a link leads
 * to an empty or hidden place; uncontained, it is followed. So the word is checked where the disk says it leads
 * (ADR 0093). The only look at the disk in the table, and only with the sandbox off.
 */
function linkReason(word: string, at: Places): string | undefined {
  if (word === '-' || word.startsWith('~')) return undefined; // stdin; a home path is checked by its words already
  const lexical = posix.resolve(at.cwd, word);
  let real: string;
  try {
    real = realpathSync.native(lexical);
  } catch {
    return undefined; // nothing there (yet): nothing to follow
  }
  if (real === lexical) return undefined;
  const reason = fileWordReason(real, 'literal', onDisk(at), false);
  return reason === undefined ? undefined : `${word} is a link to ${real}, and nothing contains the run (the sandbox is off): ${reason}`;
}

/** The parsed arguments of each level: the program's, then each sub-command's (`git -C x log …`). */
function levelsOf(r: ArgsResult & { ok: true }): ParsedArgs[] {
  return r.sub !== undefined && r.sub.result.ok ? [r.parsed, ...levelsOf(r.sub.result)] : [r.parsed];
}

/** Checks `words` (a program and its arguments, wrappers included) against the table. */
function checkCommand(words: readonly string[], shapes: readonly WordShape[], env: TableEnv, at: Places, depth: number): TableVerdict {
  if (depth > 4) return no('too many wrappers');
  const program = words[0];
  if (program === undefined) return no('runs nothing wisp can name');
  const name = program.startsWith('/') && /^\/(usr\/)?bin\/[^/]+$/.test(program) ? program.slice(program.lastIndexOf('/') + 1) : program;
  if (name.includes('/')) return no('runs a program by path');
  const args = words.slice(1);
  const argShapes = shapes.slice(1);

  const wrapper = WRAPPER_ROWS.get(name);
  if (wrapper !== undefined && !(name === 'command' && /^-[vV]$/.test(args[0] ?? ''))) {
    // The wrapper's own options end at its first operand; `leading` operands (timeout's duration) come next.
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (!a.startsWith('-') || a === '-') break;
      const letter = a[1];
      const takesNext = a.length === 2 && letter !== undefined && wrapper.values !== undefined && Object.prototype.hasOwnProperty.call(wrapper.values, letter);
      const longNext = a.startsWith('--') && !a.includes('=') && wrapper.long?.[a] !== undefined && wrapper.long[a] !== null;
      if (takesNext || longNext) i++;
    }
    const own = parseArgs(name, wrapper, args.slice(0, i), argShapes.slice(0, i), env);
    if (!own.ok) return no(own.reason);
    const leading = wrapper.leading ?? 0;
    for (let k = 0; k < leading; k++) {
      const d = args[i + k];
      if (d === undefined || checkValue('num', d.replace(/\.\d+/, '').replace(/[smhd]$/, ''), env) !== undefined) return no(`${name} needs a plain duration`);
    }
    const rest = args.slice(i + leading);
    if (rest.length === 0) return no(`${name} without a command`);
    return checkCommand(rest, argShapes.slice(i + leading), env, at, depth + 1);
  }
  if (name === 'command') {
    // `command -v NAME` / `-V`: only says what a name is.
    return args.slice(1).every((a, k) => argShapes[k + 1] === 'literal' && !a.startsWith('-')) ? SAFE : no('command -v with options');
  }

  const spec = programRow(name);
  if (spec === undefined) return no('not a known read-only command');
  const result = parseArgs(name, spec, args, argShapes, env);
  if (!result.ok) return no(result.reason);
  let leaf: ProgramSpec = spec;
  for (let r: ArgsResult = result; r.ok && r.sub !== undefined; r = r.sub.result) leaf = r.sub.spec;
  const levels = levelsOf(result);
  const where = locationReason(leaf, levels, at) ?? (env.contained === true ? undefined : uncontainedReason(leaf, levels, at));
  if (where !== undefined) return no(where);
  return SAFE;
}

const places = (env: TableEnv): Places => ({ cwd: env.cwd, home: env.home, project: env.project ?? env.cwd });

/** Whether `part` is safe by construction; when not, the first reason found. */
export function readOnlyByTable(part: Part, env: TableEnv): TableVerdict {
  if (part.unparsed) return no('could not be parsed');
  const at = places(env);
  const outside = cwdReason(at);
  if (outside !== undefined) return no(outside);
  if (part.dynamicName) return no('the program name is computed at run time');
  if (part.keyword === 'function' || part.shapes === undefined || part.shapes.length !== part.words.length) {
    return no('not a simple command of literal words');
  }
  const shapes = part.shapes;
  if (shapes.some((s) => s === 'dynamic')) return no('uses an expansion, substitution or computed word');
  for (const r of part.redirects) if (!HARMLESS_REDIRECT.test(r)) return no('redirects to or from a file');
  let i = 0;
  while (i < part.words.length && isAssignment(part.words[i]!)) {
    if (!DISPLAY_ENV.test(part.words[i]!)) return no('sets a variable');
    i++;
  }
  for (let k = i; k < part.words.length; k++) {
    const bad = wordReason(part.words[k]!, shapes[k]!);
    if (bad !== undefined) return no(bad);
  }
  if (i < part.words.length && shapes[i] !== 'literal') return no('the program name is a glob');
  const verdict = checkCommand(i === 0 ? part.words : part.words.slice(i), i === 0 ? shapes : shapes.slice(i), env, at, 0);
  if (!verdict.safe) return verdict;
  // The shell expands a glob against the disk whatever the program makes of the names (`echo ~/.m2/*` lists a
  // folder): every glob is a read of the folders it can match (ADR 0063).
  for (let k = i; k < part.words.length; k++) {
    const bad = shapes[k] === 'glob' ? fileWordReason(part.words[k]!, 'glob', at, false) : undefined;
    if (bad !== undefined) return no(bad);
  }
  return SAFE;
}
