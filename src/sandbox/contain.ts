// What a contained (unasked) run may see: the host read-only, the home directories and /tmp replaced by empty
// tmpfs, the project bound back read-only with its secret files covered, $WISP_HOME hidden. See docs/trust.md.
import { lstatSync, readdirSync, realpathSync, statSync, writeFileSync, type Dirent } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join, relative, sep } from 'node:path';
import { containedGitConfig } from './git-config.js';
import { gitDirectories } from './git-dirs.js';
import { ownerOnlyEntries } from './owner-only.js';
import { HOME_SECRET_DIRS, isSecretFileName, isSecretFolderName } from './secrets.js';

/** Directories not walked for secret names: large, tool-owned, and rebuilt by tools rather than written by people. */
const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn', 'target', '.venv', 'venv', '__pycache__', '.cache']);

/** At most this many directory entries are looked at; a larger tree cannot be checked and is refused (fail closed). */
export const SCAN_LIMIT = 200_000;

export interface SecretCover {
  /** Files to cover with /dev/null (real paths). */
  readonly files: string[];
  /** Directories to cover with an empty tmpfs (real paths). */
  readonly dirs: string[];
  /** Directories holding a `.git` (folder, file or link): the project's repositories, nested ones included. */
  readonly repos: string[];
}

export class ContainmentError extends Error {}

export function isInside(child: string, parent: string): boolean {
  if (parent === '/') return child.startsWith('/');
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

function real(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/**
 * The secret files and directories under `root`, by name. A link named like a secret is followed and its target
 * covered instead (a mount lands on the target anyway), as long as the target is a file or directory we can see.
 */
export function findSecrets(root: string, limit = SCAN_LIMIT): SecretCover {
  const files: string[] = [];
  const dirs: string[] = [];
  const repos: string[] = [];
  let seen = 0;
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable to us: unreadable to the command as well (same uid, and it cannot gain rights)
    }
    seen += entries.length;
    if (seen > limit) {
      throw new ContainmentError(
        `the project has more than ${limit} entries to check for secret files, so a command cannot run unasked here; ` +
          'launch wisp in a smaller directory, or approve the command',
      );
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.name === '.git') repos.push(dir);
      if (e.isDirectory()) {
        if (isSecretFolderName(e.name)) dirs.push(path);
        else if (!SKIP_DIRS.has(e.name)) stack.push(path);
      } else if (e.isSymbolicLink()) {
        if (!isSecretFolderName(e.name)) continue;
        const target = real(path);
        if (!target) continue; // dangling: nothing to read
        try {
          if (statSync(target).isDirectory()) dirs.push(target);
          else files.push(target);
        } catch {
          // vanished between the two calls
        }
      } else if (isSecretFileName(e.name)) {
        files.push(path);
      }
    }
  }
  return { files, dirs, repos };
}

/**
 * The home directories to hide: $HOME, the account's home from the password database, and the places where other
 * accounts live (/home, /root), which root — and often anyone — may read.
 */
export function homeDirectories(env: NodeJS.ProcessEnv = process.env): string[] {
  const found = new Set<string>();
  const candidates = [env.HOME, homedir(), '/home', '/root'];
  try {
    candidates.push(userInfo().homedir);
  } catch {
    // no passwd entry (a container with an arbitrary uid)
  }
  for (const c of candidates) {
    if (!c) continue;
    const r = real(c);
    if (r && r !== '/' && isDir(r)) found.add(r);
  }
  return [...found];
}

/** Host files that hold secrets readable by root without any capability (mode 0600/0640 owned by root). */
function hostSecretFiles(): string[] {
  const files = ['/etc/shadow', '/etc/shadow-', '/etc/gshadow', '/etc/gshadow-', '/etc/sudoers'];
  try {
    for (const name of readdirSync('/etc/ssh')) if (/_key$/.test(name)) files.push(join('/etc/ssh', name));
  } catch {
    // no ssh server keys here
  }
  return files.filter((f) => real(f) === f && !isDir(f));
}

/** Host directories of mounted secrets (Docker and Kubernetes put service credentials there). */
const HOST_SECRET_DIRS = ['/run/secrets', '/var/run/secrets'];

export interface ContainPlanInput {
  /** The project (launch directory), bound back read-only. */
  readonly project: string;
  /** Where the command starts; must be visible (inside the project or outside every hidden directory). */
  readonly cwd: string;
  readonly wispHome: string;
  /** Directories replaced by an empty tmpfs: home directories. */
  readonly homes: readonly string[];
  /** Temp directories replaced by one private, writable tmpfs each (/tmp, $TMPDIR). */
  readonly tmpDirs: readonly string[];
  /** The command's PATH: absolute entries under a hidden home are bound back, so home-installed tools still run. */
  readonly path?: string;
  /**
   * A directory of this run's own, outside what the command sees, made on first call; the caller removes it after
   * the run. Without it, git config files are covered empty rather than cleaned.
   */
  readonly scratch?: () => string;
  /** Bytes of each private temp dir's tmpfs (ADR 0101); the kernel's default (half the memory) when absent. */
  readonly tmpBytes?: number;
  /**
   * Cover the system's files and folders that others may not read (ADR 0101): the run keeps wisp's uid, and as
   * root it would read root's owner-only files. @default true when wisp runs as root
   */
  readonly ownerOnly?: boolean;
}

function cleanedCopy(scratch: (() => string) | undefined, file: string, n: number): string | undefined {
  if (scratch === undefined) return undefined;
  try {
    const copy = join(scratch(), `git-config-${n}`);
    writeFileSync(copy, containedGitConfig(file), { mode: 0o600, flag: 'wx' });
    return copy;
  } catch {
    return undefined;
  }
}

/** Whether the command sees `path` at all: in the project, or outside every hidden area. */
function isVisible(path: string, project: string, hidden: readonly string[]): boolean {
  return isInside(path, project) || !hidden.some((h) => isInside(path, h));
}

/**
 * bwrap arguments, to follow the read-only root: an empty read-only tmpfs over the homes, the project bound back
 * read-only, tool directories from PATH bound back, secrets covered, $WISP_HOME hidden, private writable temp
 * dirs. Order matters: a later mount covers an earlier one.
 */
export function containedMounts(input: ContainPlanInput): string[] {
  const project = real(input.project);
  if (!project) throw new ContainmentError(`the project directory ${input.project} does not exist`);
  if (project === '/') throw new ContainmentError('a command cannot run unasked when wisp was launched in /');
  const homes = realDirs(input.homes);
  const tmps = realDirs(input.tmpDirs);
  const wisp = real(input.wispHome);

  const cwd = real(input.cwd);
  const hiddenAreas = [...homes, ...(wisp && wisp !== '/' ? [wisp] : [])];
  const visible = cwd !== undefined && (isInside(cwd, project) || !hiddenAreas.some((h) => isInside(cwd, h)));
  if (!visible) {
    throw new ContainmentError(
      `the working directory ${input.cwd} is hidden from commands that run unasked (only the project and system ` +
        'directories are visible); run it in the project, or ask for approval',
    );
  }

  // Each mount covers whatever an earlier one put at or above its path, so they go outermost first; at the same
  // path the order of the ranks below decides (the project wins over a home it equals, a secret over the project).
  const ops: Array<{ path: string; rank: number; args: string[] }> = [];
  const readOnly: string[] = [];
  const hide = (d: string, rank: number): void => {
    ops.push({ path: d, rank, args: ['--tmpfs', d] });
    readOnly.push(d);
  };
  for (const d of homes) hide(d, 0);
  const size = input.tmpBytes !== undefined ? ['--size', String(input.tmpBytes)] : [];
  for (const d of tmps) ops.push({ path: d, rank: 1, args: [...size, '--tmpfs', d] });
  ops.push({ path: project, rank: 2, args: ['--ro-bind', project, project] });
  for (const bin of toolDirs(input.path ?? '', homes)) ops.push({ path: bin, rank: 3, args: ['--ro-bind', bin, bin] });

  const secrets = findSecrets(project);
  for (const home of homes) {
    if (!isInside(home, project)) continue;
    for (const name of HOME_SECRET_DIRS) {
      const d = real(join(home, name));
      if (d && isDir(d)) secrets.dirs.push(d);
    }
  }
  for (const d of HOST_SECRET_DIRS) {
    const r = real(d);
    if (r && isDir(r)) secrets.dirs.push(r);
  }
  if (input.ownerOnly ?? process.getuid?.() === 0) {
    const pathDirs = (input.path ?? '').split(':').filter((d) => d.startsWith('/')).map(real).filter((d): d is string => !!d);
    const skip = [project, ...homes, ...tmps, ...(wisp ? [wisp] : [])];
    // The working directory only when outside the project: it would make each call's walk a new one to reuse.
    const cacheFile = wisp && wisp !== '/' ? join(wisp, 'sandbox', 'owner-only.json') : undefined;
    const found = ownerOnlyEntries(skip, [project, ...(cwd && !isInside(cwd, project) ? [cwd] : []), ...pathDirs], cacheFile);
    // The walk is reused for minutes, and bwrap fails on a path that is gone (another program's private temp
    // folder): only what is still there is covered, or every unasked run would fail until the next walk.
    secrets.dirs.push(...found.dirs.filter(present));
    secrets.files.push(...found.files.filter(present));
  }
  for (const d of new Set(secrets.dirs)) hide(d, 4);
  for (const f of new Set([...secrets.files, ...hostSecretFiles()])) {
    ops.push({ path: f, rank: 4, args: ['--dev-bind', '/dev/null', f] });
  }
  // Each git directory's config, in place: what git needs, without credentials (ADR 0098). The copies go to a
  // directory of the caller's, outside what the command sees, and are bound in read-only.
  let copies = 0;
  const gitDirs = new Set([project, ...secrets.repos].flatMap((r) => gitDirectories(r)));
  for (const g of gitDirs) {
    for (const name of ['config', 'config.worktree']) {
      const file = real(join(g, name));
      if (!file || isDir(file) || !isVisible(file, project, hiddenAreas)) continue;
      const copy = cleanedCopy(input.scratch, file, copies++);
      // No copy (no scratch directory, an unwritable temp dir): the config reads as empty, which hides everything.
      // /dev/null needs --dev-bind (a device on a nodev mount cannot be opened), as for the secrets above.
      ops.push({ path: file, rank: 4, args: copy !== undefined ? ['--ro-bind', copy, file] : ['--dev-bind', '/dev/null', file] });
    }
  }
  if (wisp && wisp !== '/') hide(wisp, 5);

  ops.sort((a, b) => depth(a.path) - depth(b.path) || a.rank - b.rank);
  const args = ops.flatMap((o) => o.args);
  // Read-only only once everything inside is mounted: bwrap creates mount points in these directories first.
  for (const d of readOnly.sort((a, b) => depth(b) - depth(a))) args.push('--remount-ro', d);
  return args;
}

function depth(path: string): number {
  return path.split('/').filter(Boolean).length;
}

function realDirs(dirs: readonly string[]): string[] {
  return [...new Set(dirs.map(real).filter((d): d is string => !!d && d !== '/' && isDir(d)))];
}

/** The directories not inside another one of the list, shortest first. */
function outermost(dirs: readonly string[]): string[] {
  const sorted = [...dirs].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const d of sorted) if (!kept.some((k) => isInside(d, k))) kept.push(d);
  return kept;
}

/**
 * PATH entries under a hidden home (`~/.nvm/versions/node/v20/bin`, `~/.local/bin`): bound back read-only so the
 * tools the person installed there still run. An entry deep in a tool's own tree brings its prefix (npm's `bin`
 * links point into `../lib`); one directly in the home brings only itself (`~/.local` also holds keyrings).
 */
export function toolDirs(path: string, homes: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of path.split(':')) {
    if (!entry.startsWith('/')) continue;
    const dir = real(entry);
    if (!dir || !isDir(dir)) continue;
    const home = homes.find((h) => isInside(dir, h) && dir !== h);
    if (!home) continue;
    const rel = relative(home, dir).split(sep);
    if (rel.some((p) => isSecretFolderName(p) || p === '.config')) continue;
    const prefix = rel.length >= 3 && rel[rel.length - 1] === 'bin' ? join(dir, '..') : dir;
    if (!out.some((o) => isInside(prefix, o))) out.push(prefix);
  }
  return out;
}

function isDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether `path` exists (itself, not what a link names). */
function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
