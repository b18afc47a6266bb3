// What an approved run may not change in a writable root (ADR 0098): the files that make a later program run code
// (core/protected-paths.ts) and, for every git directory a root holds, its hooks and config — the top-level `.git`,
// the one a `.git` file points at, submodules' (`.git/modules/…`) and linked worktrees'. A protected path that
// does not exist yet would otherwise be free to create, so it gets a placeholder for the run: an empty directory
// or file that wisp makes, the sandbox mounts read-only, and wisp removes again when the run ends.
import { closeSync, lstatSync, mkdirSync, openSync, readlinkSync, realpathSync, rmdirSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { PROTECTED_IN_ROOTS } from '../core/protected-paths.js';
import { ContainmentError, findSecrets, isInside } from './contain.js';
import { gitDirectories, lstatKind, realDir } from './git-dirs.js';

/** Names in PROTECTED_IN_ROOTS that programs expect to be directories; the rest are files. */
const DIRECTORY_NAMES = new Set(['.git/hooks', '.ssh', '.vscode', '.idea', '.claude', '.wisp', '.config/git', '.config/hg', '.config/jj']);

/**
 * In each git directory: `hooks` and `config` run code, and `config.worktree` is read as config once a repository
 * turns worktree configs on. `commondir` also redirects where config is read, but an empty one breaks git, so it
 * is held only when it exists (the gate asks about writing one, ADR 0093).
 */
const GIT_HELD: ReadonlyArray<{ name: string; dir: boolean; placeholder: boolean }> = [
  { name: 'hooks', dir: true, placeholder: true },
  { name: 'config', dir: false, placeholder: true },
  { name: 'config.worktree', dir: false, placeholder: true },
  { name: 'commondir', dir: false, placeholder: false },
];

export interface HeldPaths {
  /** Existing paths to mount read-only over themselves. */
  readonly present: string[];
  /** Missing paths that need a placeholder before they can be mounted read-only. */
  readonly absent: Array<{ readonly path: string; readonly dir: boolean }>;
  /** Directories to bind over themselves, writable, so they cannot be renamed away with a held path inside. */
  readonly pinned: string[];
  /**
   * Names no mount can hold: a missing file in the working tree (git would commit a placeholder file) and a link
   * (a mount lands on its target). Their state before the run (`link`: the link's text; none: absent) is put back
   * after it by {@link restoreWatched}.
   */
  readonly watched: Watched[];
}

export interface Watched {
  readonly path: string;
  readonly link?: string;
}

/**
 * Puts each watched name back as it was before the run: removes what the run created where nothing was, and
 * re-makes a link the run replaced. Returns the names it had to change, for the result the model and person read.
 */
export function restoreWatched(watched: readonly Watched[]): string[] {
  const changed: string[] = [];
  for (const w of watched) {
    // wisp acts here outside the sandbox: only where no folder on the way has become a link (the pins should make
    // that impossible; this does not rely on them).
    if (realDir(dirname(w.path)) !== dirname(w.path)) {
      changed.push(w.path);
      continue;
    }
    let now: string | undefined | null = null; // null: nothing there
    try {
      const st = lstatSync(w.path);
      now = st.isSymbolicLink() ? readlinkSync(w.path) : undefined;
    } catch {
      now = null;
    }
    if (w.link === undefined ? now === null : now === w.link) continue;
    try {
      if (now !== null) rmSync(w.path, { recursive: true, force: true });
      if (w.link !== undefined) symlinkSync(w.link, w.path);
      changed.push(w.path);
    } catch {
      changed.push(w.path); // reported even when it could not be undone: the person should look
    }
  }
  return changed;
}

/**
 * The paths an approved run may not change in these writable roots (canonical paths expected). In `project`, the
 * repositories nested deeper than its root are found by the containment's own scan; a project too large for it
 * keeps only its top-level repository held.
 */
export function heldPaths(roots: readonly string[], project?: string): HeldPaths {
  const present = new Set<string>();
  const absent = new Map<string, boolean>();
  const watched = new Map<string, string | undefined>();
  // Only inside a writable root: anywhere else the command cannot create the name, and wisp must not either.
  // The canonical path is returned, so the placeholder and the mount name the same place.
  const fillable = (path: string): string | undefined => {
    const parent = realDir(dirname(path));
    return parent !== undefined && roots.some((r) => isInside(parent, r)) ? join(parent, basename(path)) : undefined;
  };
  /** A missing name: a placeholder where git does not see it, else watched (a placeholder file would be committed). */
  const missing = (path: string | undefined, dir: boolean, placeholder: boolean): void => {
    if (path === undefined) return;
    if (placeholder || dir) absent.set(path, dir);
    else watched.set(path, undefined);
  };
  const consider = (path: string, dir: boolean, inGitDir: boolean, allowPlaceholder = true): void => {
    const kind = lstatKind(path);
    if (kind === undefined) {
      if (allowPlaceholder) missing(fillable(path), dir, inGitDir);
    } else if (kind === 'link') {
      // A mount lands on the link's target, which is held; the link itself is not a mount point, so it is watched
      // and put back if the run replaces it. A dangling link's target is a name the command could fill through it.
      const at = fillable(path);
      if (at !== undefined) watched.set(at, readlinkSync(path));
      const target = realTarget(path);
      if (target) present.add(target);
      else {
        const dangling = linkTarget(path);
        if (dangling && allowPlaceholder) missing(fillable(dangling), dir, inGitDir);
      }
    } else {
      present.add(path);
    }
  };
  const gitDirs = new Set<string>();
  for (const root of roots) {
    for (const rel of PROTECTED_IN_ROOTS) {
      if (rel.startsWith('.git/')) continue; // below, for every git directory
      consider(join(root, rel), DIRECTORY_NAMES.has(rel), false);
    }
    const dotGit = join(root, '.git');
    // The pointer itself: rewritten, it would name a repository the command made.
    if (lstatKind(dotGit) === 'file') present.add(dotGit);
    for (const g of gitDirectories(root)) gitDirs.add(g);
  }
  for (const repo of project !== undefined && roots.includes(project) ? nestedRepos(project) : []) {
    if (lstatKind(join(repo, '.git')) === 'file') present.add(join(repo, '.git'));
    for (const g of gitDirectories(repo)) gitDirs.add(g);
  }
  for (const g of gitDirs) {
    // A linked worktree's git directory takes hooks and config from its common directory: no placeholders there.
    const linked = lstatKind(join(g, 'commondir')) === 'file';
    for (const h of GIT_HELD) consider(join(g, h.name), h.dir, true, h.placeholder && !(linked && h.name !== 'config.worktree'));
  }
  return {
    present: [...present],
    absent: [...absent].map(([path, dir]) => ({ path, dir })),
    watched: [...watched].map(([path, link]) => (link === undefined ? { path } : { path, link })),
    pinned: pinsFor([...present, ...absent.keys(), ...watched.keys()], roots),
  };
}

/**
 * The directories between a writable root and each held path. A mount holds a name, not the directories above it:
 * `mv .git .g; mkdir .git; cp -a .g/. .git/` made a new `.git` whose hooks were writable. Each of these becomes a
 * mount point of its own (bound over itself, still writable inside), and a mount point cannot be renamed or removed.
 */
function nestedRepos(project: string): string[] {
  try {
    return findSecrets(project).repos.filter((r) => r !== project);
  } catch (err) {
    if (err instanceof ContainmentError) return [];
    throw err;
  }
}

function pinsFor(held: readonly string[], roots: readonly string[]): string[] {
  const pins = new Set<string>();
  for (const path of held) {
    const root = roots.filter((r) => isInside(path, r)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) continue;
    for (let d = dirname(path); d !== root && isInside(d, root) && d !== dirname(d); d = dirname(d)) pins.add(d);
  }
  return [...pins];
}

function linkTarget(path: string): string | undefined {
  try {
    return resolve(dirname(path), readlinkSync(path));
  } catch {
    return undefined;
  }
}

function realTarget(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/**
 * Makes each placeholder (mode 0700 directory or 0600 empty file) and returns the ones made. One that appeared
 * meanwhile is not ours: it is returned in `present` to be held as it is. One that cannot be made (a read-only
 * parent) needs none: the command, with no more rights than wisp, cannot make it either.
 */
export function makePlaceholders(absent: HeldPaths['absent']): { made: string[]; present: string[] } {
  const made: string[] = [];
  const present: string[] = [];
  for (const { path, dir } of absent) {
    try {
      // Without `recursive`, mkdir fails with EEXIST when anything is there, as the file's 'wx' does.
      if (dir) mkdirSync(path, { mode: 0o700 });
      else closeSync(openSync(path, 'wx', 0o600));
      made.push(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') present.push(path);
    }
  }
  return { made, present };
}

/** Removes the placeholders that are still empty; anything else was put there by someone else and stays. */
export function removePlaceholders(made: readonly string[]): void {
  for (const p of made) {
    if (realDir(dirname(p)) !== dirname(p)) continue; // a folder on the way became a link: not ours to touch
    try {
      const s = lstatSync(p);
      if (s.isDirectory()) rmdirSync(p);
      else if (s.isFile() && s.size === 0) unlinkSync(p);
    } catch {
      // gone already, or not empty: leave it
    }
  }
}
