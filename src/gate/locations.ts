// Where a read-only part may read unasked (ADR 0063): a location allow-list, the rule read_file applies. A word that
// names a file must lie in the project or in a system location that holds no user secrets, outside every location
// listed as never readable, and must not carry a secret's name (the containment's list, src/sandbox/secrets.ts).
// Pure: it compares strings and never looks at the disk (a link inside the project is the containment's business).
import { posix } from 'node:path';
import { SECRET_NAME_EXAMPLES, isSecretFileName, isSecretPath } from '../sandbox/secrets.js';
import { componentMatches, hasWildcard, tooIntricate } from './glob.js';
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
  /** What lies there, for the reason the person reads. */
  readonly why: string;
}

const at = (path: string, why: string, ...more: Step[]): Never => ({ steps: [...components(path), ...more], why });

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

const neverCache = new Map<string, readonly Never[]>();

/** FIXED_NEVER and the home folder the gate was told of (which may lie anywhere, `/tmp/h` in a test). */
function neverFor(home: string): readonly Never[] {
  let list = neverCache.get(home);
  if (list === undefined) {
    const h = posix.resolve(home);
    list = [...FIXED_NEVER, at(h, 'the home folder'), at(h, 'the home folder', HIDDEN), at(h, 'the home folder', 'Library'), at(h, 'the home folder', 'snap')];
    if (neverCache.size > 16) neverCache.clear();
    neverCache.set(home, list);
  }
  return list;
}

function components(path: string): string[] {
  return path.split('/').filter((c) => c !== '');
}

function isInside(child: readonly string[], parent: readonly string[]): boolean {
  return child.length >= parent.length && parent.every((c, i) => child[i] === c);
}

/**
 * Can the path component `word` (a glob when `glob`) name something the step stands for? Without regard to case:
 * macOS file systems ignore it by default, so `/System/VOLUMES` is `/System/Volumes` (the step matches more often,
 * never less: these steps mark what may not be read).
 */
function stepMeets(step: Step, word: string, glob: boolean): boolean {
  if (step === ANY) return true;
  if (step === HIDDEN) return glob ? /^[.\\[]/.test(word) : word.startsWith('.');
  if (typeof step === 'object') return glob || (word.endsWith(step.endsWith) && !word.startsWith('.'));
  return glob ? componentMatches(word.toLowerCase(), step.toLowerCase()) : word.toLowerCase() === step.toLowerCase();
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

/** A path as the checks see it: its components, and which of them are globs. */
interface Target {
  readonly parts: readonly string[];
  readonly globs: readonly boolean[];
}

/**
 * Whether `t` can reach `n`: name a location inside it, or (for a reader that recurses) a folder that holds it. An
 * entry that holds the root `t` lies in does not apply (`root`: that root's components, as `t` spells them).
 */
function reaches(t: Target, n: Never, recursive: boolean, root: readonly string[]): boolean {
  const depth = Math.min(t.parts.length, n.steps.length);
  for (let i = 0; i < depth; i++) if (!stepMeets(n.steps[i]!, t.parts[i]!, t.globs[i]!)) return false;
  if (t.parts.length < n.steps.length && !recursive) return false;
  // The instance of the entry the path is in: exempt when it holds the root.
  return !(n.steps.length <= root.length && isInside(root, t.parts.slice(0, n.steps.length)));
}

/** Where `word` points, or a reason when a `~` form names a directory the gate cannot know (`~-`, `~+`, `~user`). */
function absolute(word: string, places: Places): { path: string } | { reason: string } {
  if (word.startsWith('~')) {
    if (word === '~' || word.startsWith('~/')) return { path: posix.resolve(places.home + word.slice(1)) };
    const prefix = word.split('/')[0]!;
    return { reason: `reads through ${prefix}, a directory the gate cannot see (${word})` };
  }
  return { path: posix.resolve(places.cwd, word) };
}

/** The deepest allowed root (the project or a system location) everything `t` names lies in, as `t` spells it. */
function rootOf(t: Target, project: readonly string[]): readonly string[] | undefined {
  const covered = (root: readonly Step[]) => t.parts.length >= root.length && root.every((step, i) => stepCovers(step, t.parts[i]!, t.globs[i]!));
  let best: readonly string[] | undefined = covered(project) ? project : undefined;
  for (const root of SYSTEM_ROOTS) {
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
  return SECRET_NAME_EXAMPLES.find((name) => componentMatches(component, name));
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
  if (SYSTEM_FILES.has(where.path)) return undefined;
  const parts = components(where.path);
  const glob = shape === 'glob';
  const globs = parts.map((c) => glob && hasWildcard(c));
  let fixed = globs.indexOf(true);
  if (fixed < 0) fixed = parts.length;
  for (let i = fixed; i < parts.length; i++) {
    if (!globs[i]) continue;
    // `.*` and `.?` match `..`: the glob could climb out of the folder it seems to stay in.
    if (/^[.\\[]/.test(parts[i]!)) return `a glob over hidden names, which can reach keys and credentials (${word})`;
    if (tooIntricate(parts[i]!)) return `a glob too intricate to check (${word})`;
  }
  const target: Target = { parts, globs };
  const root = rootOf(target, components(posix.resolve(places.project)));
  if (root === undefined) return `reads outside the project (${word})`;
  for (const n of neverFor(places.home)) {
    if (reaches(target, n, recursive, root)) return `${recursive && parts.length < n.steps.length ? 'searches a folder that holds' : 'reads'} ${n.why} (${word})`;
  }
  const below = parts.slice(root.length);
  if (isSecretPath(below.filter((_, i) => !globs[i + root.length]).join('/'))) return `names a file that may hold secrets (${word})`;
  for (let i = fixed; i < parts.length; i++) {
    const hit = globs[i] ? secretGlob(parts[i]!) : undefined;
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
