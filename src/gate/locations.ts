// Where a read-only part may read unasked (ADR 0063): a location allow-list, the rule read_file applies. A word that
// names a file must lie in the project or in a system location that holds no user secrets, outside every location
// listed as never readable, and must not carry a secret's name (the containment's list, src/sandbox/secrets.ts).
// Pure: it compares strings and never looks at the disk (a link inside the project is the containment's business).
import { posix } from 'node:path';
import { SECRET_DIRS, SECRET_NAME_EXAMPLES, isSecretFileName, isSecretPath } from '../sandbox/secrets.js';
import { componentMatches, globMatcher, hasWildcard, tooIntricate } from './glob.js';
import { shortcuts } from './shortcuts.js';
import type { WordShape } from './types.js';

/** The directories a check needs: where the command runs, the project (launch directory), the home folder. */
export interface Places {
  readonly cwd: string;
  readonly project: string;
  readonly home: string;
}

/** A component of a location: a name, any name, any hidden name, or any name with this ending (`*-release`). */
type Step = string | typeof ANY | typeof HIDDEN | { readonly endsWith: string };
const ANY = Symbol('any name');
const HIDDEN = Symbol('any hidden name');

const steps = (path: string): Step[] => components(path).map((c) => (c.startsWith('*') ? { endsWith: c.slice(1) } : c));

/**
 * System locations a read-only command may read: installed programs, libraries and their data, and the files of /etc
 * that describe the machine and hold nothing secret by purpose. /etc as a whole is not here: administrators keep
 * passwords in files of every name there (a unit's `Environment=`, a cifs line of fstab, a cron line).
 */
const SYSTEM_ROOTS: readonly (readonly Step[])[] = [
  ...['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt', '/nix/store', '/snap', '/System', '/Applications'],
  ...[
    'os-release', '*-release', '*_version', 'issue', 'issue.net', 'motd', 'hostname', 'hosts', 'host.conf', 'resolv.conf',
    'nsswitch.conf', 'gai.conf', 'networks', 'protocols', 'services', 'ethertypes', 'rpc', 'group', 'shells', 'timezone',
    'localtime', 'locale.conf', 'locale.gen', 'locale.alias', 'default/locale', 'default/keyboard', 'vconsole.conf',
    'machine-info', 'ld.so.conf', 'ld.so.conf.d', 'mime.types', 'mailcap', 'magic', 'inputrc', 'skel', 'login.defs',
    'adduser.conf', 'manpath.config', 'updatedb.conf', 'nanorc', 'vimrc', 'vim', 'papersize', 'subuid', 'subgid',
    'apt/sources.list', 'apt/sources.list.d', 'apt/preferences', 'apt/preferences.d', 'apk/repositories', 'apk/world',
    'pacman.conf', 'pacman.d/mirrorlist', 'ssl/certs', 'ca-certificates', 'ca-certificates.conf', 'alternatives', 'fonts',
    'sysctl.conf', 'sysctl.d', 'modprobe.d', 'modules', 'modules-load.d', 'paths', 'paths.d', 'shells',
  ].map((e) => `/etc/${e}`),
].map(steps);

/** Single files outside those roots that hold nothing of anyone's: devices that read as nothing or noise, machine facts. */
const SYSTEM_FILES: ReadonlySet<string> = new Set([
  '/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/stdin',
  '/proc/cpuinfo', '/proc/meminfo', '/proc/version', '/proc/loadavg', '/proc/uptime',
]);

interface Never {
  readonly steps: readonly Step[];
  /** The steps with every name lower-cased once, for the comparisons that ignore case. */
  readonly lower: readonly Step[];
  /** What lies there, for the reason the person reads. */
  readonly why: string;
}

const at = (path: string, why: string, ...more: Step[]): Never => {
  const steps = [...components(path), ...more];
  return { steps, lower: steps.map((s) => (typeof s === 'string' ? s.toLowerCase() : s)), why };
};

/**
 * Locations never read unasked, even inside an allowed root or the project: the kernel's views of processes, runtime
 * and temp folders, every home folder (with the hidden entries in it, where configuration and credentials live), the
 * machine's configuration, and where package managers keep services' configuration and data under /usr/local and
 * /opt. An entry does not apply inside a root it contains (a project under /tmp or in the home folder is still the
 * project; /etc/hosts is readable though /etc is not).
 */
const FIXED_NEVER: readonly Never[] = [
  ...['/proc', '/sys', '/dev', '/run'].map((p) => at(p, "the kernel's view of processes and devices")),
  ...['/tmp', '/var', '/private', '/mnt', '/media', '/srv', '/boot', '/Volumes', '/Library', '/cores', '/lost+found'].map((p) => at(p, 'files of other programs or users')),
  // macOS: /System/Volumes/Data/Users/… is /Users/… by another name.
  at('/System/Volumes', 'other volumes, which hold the home folders'),
  at('/etc', "the machine's configuration, which can hold its secrets"),
  at('/usr/local/etc', 'configuration of installed services'),
  at('/usr/local/var', 'data of installed services'),
  at('/opt', 'configuration of installed services', ANY, 'etc'),
  at('/opt', 'data of installed services', ANY, 'var'),
  at('/home', 'a home folder'),
  at('/root', 'a home folder'),
  at('/Users', 'a home folder'),
  at('/home', 'a home folder', ANY, HIDDEN),
  at('/Users', 'a home folder', ANY, HIDDEN),
  at('/Users', 'a home folder', ANY, 'Library'),
];

/**
 * The never-read list for one home folder, and the same entries grouped by their first name (lower-case, in list
 * order). Every entry starts with a name, and a name can only meet a path's first component that is that name
 * without regard to case (or a glob), so a path whose first component is a plain word needs only its group: the first
 * entry it reaches is the same as when scanning the whole list (ADR 0074).
 */
interface NeverList {
  readonly all: readonly Never[];
  /** Undefined when some entry does not start with a name (a home folder of `/`): then every path scans `all`. */
  readonly byHead: ReadonlyMap<string, readonly Never[]> | undefined;
}

const neverCache = new Map<string, NeverList>();

/** FIXED_NEVER and the home folder the gate was told of (which may lie anywhere, `/tmp/h` in a test). */
function neverFor(home: string): NeverList {
  let list = neverCache.get(home);
  if (list === undefined) {
    const h = posix.resolve(home);
    const all = [...FIXED_NEVER, at(h, 'the home folder'), at(h, 'the home folder', HIDDEN), at(h, 'the home folder', 'Library'), at(h, 'the home folder', 'snap')];
    let byHead: Map<string, Never[]> | undefined = new Map<string, Never[]>();
    for (const n of all) {
      const head = n.lower[0];
      if (typeof head !== 'string') {
        byHead = undefined;
        break;
      }
      const group = byHead.get(head);
      if (group === undefined) byHead.set(head, [n]);
      else group.push(n);
    }
    list = { all, byHead };
    if (neverCache.size > 16) neverCache.clear();
    neverCache.set(home, list);
  }
  return list;
}

function components(path: string): string[] {
  return path.split('/').filter((c) => c !== '');
}

/** Whether the first `length` components of `path` are `prefix` (which has `length` components). */
function startsWithParts(path: readonly string[], prefix: readonly string[], length: number): boolean {
  if (path.length < length) return false;
  for (let i = 0; i < length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

/**
 * Can the path component `word` (a glob when `glob`) name something the step stands for? Without regard to case:
 * macOS file systems ignore it by default, so `/System/VOLUMES` is `/System/Volumes` (the step matches more often,
 * never less: these steps mark what may not be read). `step` is a step of `Never.lower` (names lower-cased) and
 * `lowerWord` is `word` lower-cased.
 */
function stepMeets(step: Step, word: string, lowerWord: string, glob: boolean): boolean {
  if (step === ANY) return true;
  if (step === HIDDEN) return glob ? /^[.\\[]/.test(word) : word.startsWith('.');
  if (typeof step === 'object') return glob || (word.endsWith(step.endsWith) && !word.startsWith('.'));
  return glob ? componentMatches(lowerWord, step) : lowerWord === step;
}

/** Does everything the component `word` (a glob when `glob`) can name fall under the step? */
function stepCovers(step: Step, word: string, glob: boolean): boolean {
  if (typeof step === 'object') {
    if (word.startsWith('.')) return false;
    // A glob names only words ending in what follows its last wildcard.
    const tail = glob ? word.slice(Math.max(word.lastIndexOf('*'), word.lastIndexOf('?'), word.lastIndexOf(']')) + 1) : word;
    return tail.endsWith(step.endsWith);
  }
  return !glob && step === word;
}

/** A path as the checks see it: its components (also lower-cased), and which of them are globs. */
interface Target {
  readonly parts: readonly string[];
  readonly lower: readonly string[];
  /** Undefined when no component is a glob. */
  readonly globs: readonly boolean[] | undefined;
}

const isGlobAt = (t: Target, i: number): boolean => t.globs !== undefined && t.globs[i] === true;

/**
 * Whether `t` can reach `n`: name a location inside it, or (for a reader that recurses) a folder that holds it. An
 * entry that holds the root `t` lies in does not apply (`root`: that root's components, as `t` spells them).
 */
function reaches(t: Target, n: Never, recursive: boolean, root: readonly string[]): boolean {
  const depth = Math.min(t.parts.length, n.lower.length);
  for (let i = 0; i < depth; i++) if (!stepMeets(n.lower[i]!, t.parts[i]!, t.lower[i]!, isGlobAt(t, i))) return false;
  if (t.parts.length < n.lower.length && !recursive) return false;
  // The instance of the entry the path is in: exempt when it holds the root.
  return !(n.lower.length <= root.length && startsWithParts(root, t.parts, n.lower.length));
}

/**
 * The components of an absolute directory as `posix.resolve` gives them, remembered for the last few directories
 * (the gate asks about the same cwd and project for every word). A relative directory is resolved against the
 * process's own, which may change, so it is never remembered.
 */
const dirCache = new Map<string, readonly string[]>();
function dirParts(dir: string): readonly string[] {
  if (!dir.startsWith('/')) return components(posix.resolve(dir));
  let parts = dirCache.get(dir);
  if (parts === undefined) {
    parts = components(posix.resolve(dir));
    if (dirCache.size > 16) dirCache.clear();
    dirCache.set(dir, parts);
  }
  return parts;
}

/**
 * The components of `posix.resolve(dir, word)`, read lexically as it does: empty and `.` components vanish, `..`
 * drops the one before (none at the root), an absolute word starts from the root. A test compares it with
 * `posix.resolve` (ADR 0074).
 */
function resolvedParts(dir: string, word: string): string[] {
  const out = word.startsWith('/') ? [] : [...dirParts(dir)];
  let start = 0;
  while (start <= word.length) {
    let end = word.indexOf('/', start);
    if (end < 0) end = word.length;
    if (end > start) {
      const c = word.slice(start, end);
      if (c === '..') out.pop();
      else if (c !== '.') out.push(c);
    }
    start = end + 1;
  }
  return out;
}

/** Where `word` points, as components, or a reason when a `~` form names a directory the gate cannot know (`~-`, `~+`, `~user`). */
function absolute(word: string, places: Places): { parts: string[] } | { reason: string } {
  if (word.startsWith('~')) {
    if (word === '~' || word.startsWith('~/')) return { parts: components(posix.resolve(places.home + word.slice(1))) };
    const prefix = word.split('/')[0]!;
    return { reason: `reads through ${prefix}, a directory the gate cannot see (${word})` };
  }
  return { parts: shortcuts.on ? resolvedParts(places.cwd, word) : components(posix.resolve(places.cwd, word)) };
}

/**
 * The system roots grouped by their first name (all start with one; a test checks it): only a path whose first
 * component is that very name can be covered by them, since a name covers only itself (never a glob).
 */
const ROOTS_BY_HEAD: ReadonlyMap<string, readonly (readonly Step[])[]> = (() => {
  const byHead = new Map<string, (readonly Step[])[]>();
  for (const root of SYSTEM_ROOTS) {
    const head = root[0];
    if (typeof head !== 'string') throw new Error('a system root must start with a name');
    const group = byHead.get(head);
    if (group === undefined) byHead.set(head, [root]);
    else group.push(root);
  }
  return byHead;
})();

/** The deepest allowed root (the project or a system location) everything `t` names lies in, as `t` spells it. */
function rootOf(t: Target, project: readonly string[]): readonly string[] | undefined {
  const covered = (root: readonly Step[]): boolean => {
    if (t.parts.length < root.length) return false;
    for (let i = 0; i < root.length; i++) if (!stepCovers(root[i]!, t.parts[i]!, isGlobAt(t, i))) return false;
    return true;
  };
  let best: readonly string[] | undefined = covered(project) ? project : undefined;
  // A system root's first name covers only a first component that is that name and no glob.
  const candidates = !shortcuts.on ? SYSTEM_ROOTS : t.parts.length === 0 || isGlobAt(t, 0) ? undefined : ROOTS_BY_HEAD.get(t.parts[0]!);
  for (const root of candidates ?? []) {
    if ((best === undefined || root.length > best.length) && covered(root)) best = t.parts.slice(0, root.length);
  }
  return best;
}

/** A glob component that can match a secret's name (from the containment's list); `*` alone reads a folder. */
function secretGlob(component: string): string | undefined {
  if (component === '*' || component === '**') return undefined;
  // `*.json` is any JSON file, not credentials.json: an ending matters only when the ending itself marks a secret.
  const ending = /^\*{1,2}(\.[A-Za-z0-9]+)$/.exec(component);
  if (ending) return isSecretFileName(`x${ending[1]!}`) ? `x${ending[1]!}` : undefined;
  // componentMatches for each name, the glob read once.
  const matches = globMatcher(component);
  const hidden = /^[.\\[]/.test(component);
  return SECRET_NAME_EXAMPLES.find((name) => (hidden || !name.startsWith('.')) && matches(name));
}

/**
 * git reads the pathspecs `:/x` and `:(top)x` (`:(top,icase)x` …) from the repository's root, which may lie above the
 * project (a repository of dotfiles in the home folder). An unclosed `:(…` is taken whole.
 */
function fromRepositoryRoot(word: string): boolean {
  if (word.startsWith(':/')) return true;
  if (!word.startsWith(':(')) return false;
  const close = word.indexOf(')');
  const magic = word.slice(2, close < 0 ? word.length : close);
  return magic.toLowerCase().split(',').includes('top');
}

/** The first component of every SYSTEM_FILES path: only a path starting with one of these can be such a file. */
const SYSTEM_FILE_HEADS: ReadonlySet<string> = new Set([...SYSTEM_FILES].map((f) => components(f)[0] ?? ''));

/** The path below the root: the components from `from` on that are not globs, joined. */
function belowRoot(t: Target, from: number): string {
  let below = '';
  for (let i = from; i < t.parts.length; i++) if (!isGlobAt(t, i)) below += (below === '' ? '' : '/') + t.parts[i]!;
  return below;
}

/** The containment's secret folders as a set: isSecretDirName looks the lower-cased name up in the list as written. */
const SECRET_DIR_SET: ReadonlySet<string> = new Set(SECRET_DIRS);

/**
 * `isSecretPath(belowRoot(t, from))` read from the components already at hand (ADR 0083): that path's components are
 * exactly the non-glob components from `from` on (none is empty, none holds `/`), so a secret folder among them is
 * one of their lower-cased forms in the set, and its last component (`basename`) is the last of them ('' when none,
 * which names no secret file).
 */
function secretBelow(t: Target, from: number): boolean {
  let last: string | undefined;
  for (let i = from; i < t.parts.length; i++) {
    if (isGlobAt(t, i)) continue;
    if (SECRET_DIR_SET.has(t.lower[i]!)) return true;
    last = t.parts[i]!;
  }
  return isSecretFileName(last ?? '');
}

/**
 * Why reading the file word `word` unasked is not allowed, or undefined when it lies in an allowed location.
 * `recursive`: the program reads every file below a folder it is given (grep -r, rg), so the folder must not hold a
 * location that is never read.
 */
export function fileWordReason(word: string, shape: WordShape, places: Places, recursive: boolean): string | undefined {
  if (SYSTEM_FILES.has(word)) return undefined;
  if (fromRepositoryRoot(word)) return `names a path from the repository's root, which may lie outside the project (${word})`;
  const where = absolute(word, places);
  if ('reason' in where) return where.reason;
  const parts = where.parts;
  if ((!shortcuts.on || (parts.length > 0 && SYSTEM_FILE_HEADS.has(parts[0]!))) && SYSTEM_FILES.has('/' + parts.join('/'))) return undefined;
  let globs: boolean[] | undefined;
  let fixed = parts.length;
  if (shape === 'glob') {
    globs = parts.map(hasWildcard);
    const first = globs.indexOf(true);
    if (first >= 0) fixed = first;
  }
  for (let i = fixed; i < parts.length; i++) {
    if (!globs![i]) continue;
    // `.*` and `.?` match `..`: the glob could climb out of the folder it seems to stay in.
    if (/^[.\\[]/.test(parts[i]!)) return `a glob over hidden names, which can reach keys and credentials (${word})`;
    if (tooIntricate(parts[i]!)) return `a glob too intricate to check (${word})`;
  }
  const target: Target = { parts, lower: parts.map((c) => c.toLowerCase()), globs };
  const root = rootOf(target, shortcuts.on ? dirParts(places.project) : components(posix.resolve(places.project)));
  if (root === undefined) return `reads outside the project (${word})`;
  const never = neverFor(places.home);
  // Only entries whose first name the path's first component can meet (ADR 0074); the whole list otherwise.
  const entries = !shortcuts.on || never.byHead === undefined || parts.length === 0 || isGlobAt(target, 0) ? never.all : (never.byHead.get(target.lower[0]!) ?? []);
  for (const n of entries) {
    if (reaches(target, n, recursive, root)) return `${recursive && parts.length < n.steps.length ? 'searches a folder that holds' : 'reads'} ${n.why} (${word})`;
  }
  if (shortcuts.on ? secretBelow(target, root.length) : isSecretPath(belowRoot(target, root.length))) return `names a file that may hold secrets (${word})`;
  for (let i = fixed; i < parts.length; i++) {
    const hit = globs![i] ? secretGlob(parts[i]!) : undefined;
    if (hit !== undefined) return `a glob that can match a secret's name such as ${hit} (${word})`;
  }
  return undefined;
}

/**
 * The last places asked about and the answer: every part of a line, and every line of a session, runs in the same
 * directory, and the answer depends on nothing else (ADR 0066: it was about 6 % of the gate's time per part).
 */
let lastCwd: (Places & { readonly reason: string | undefined }) | undefined;

/** Why a command may not run unasked in `places.cwd`: outside the project and the system locations. */
export function cwdReason(places: Places): string | undefined {
  const last = lastCwd;
  if (last !== undefined && last.cwd === places.cwd && last.project === places.project && last.home === places.home) return last.reason;
  const found = fileWordReason(places.cwd, 'literal', places, false);
  const reason = found === undefined ? undefined : `runs in a directory outside the project (${places.cwd})`;
  lastCwd = { cwd: places.cwd, project: places.project, home: places.home, reason };
  return reason;
}
