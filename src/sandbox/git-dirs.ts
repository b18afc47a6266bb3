// The git directories of a repository (ADR 0098): where its hooks and config live, which may not be the `.git`
// folder at its root (a `.git` file or link names another; submodules and linked worktrees have their own).
import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** At most this many git directories per root are looked at (submodules nest); more is not a real repository. */
const GIT_DIR_LIMIT = 1000;

export function lstatKind(path: string): 'dir' | 'file' | 'link' | 'other' | undefined {
  try {
    const s = lstatSync(path);
    if (s.isDirectory()) return 'dir';
    if (s.isSymbolicLink()) return 'link';
    return s.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

export function realDir(path: string): string | undefined {
  try {
    const r = realpathSync.native(path);
    return statSync(r).isDirectory() ? r : undefined;
  } catch {
    return undefined;
  }
}

/** The directory a `.git` file (`gitdir: PATH`) points at, relative to the file's own directory. */
function gitdirPointer(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').slice(0, 4096);
  } catch {
    return undefined;
  }
  const line = text.split('\n')[0]?.trim() ?? '';
  if (!line.startsWith('gitdir:')) return undefined;
  const target = line.slice('gitdir:'.length).trim();
  return target === '' ? undefined : realDir(resolve(dirname(file), target));
}

/** The directory named by the first line of a `commondir` file, relative to `base`. */
function pointedDir(file: string, base: string): string | undefined {
  if (lstatKind(file) !== 'file') return undefined;
  let line: string;
  try {
    line = readFileSync(file, 'utf8').slice(0, 4096).split('\n')[0]?.trim() ?? '';
  } catch {
    return undefined;
  }
  return line === '' ? undefined : realDir(resolve(base, line));
}

/** The git directories reachable from `gitDir`: itself, its common one, its submodules' (nested), its linked worktrees'. */
function gitDirsFrom(gitDir: string, found: Set<string>): void {
  const stack = [gitDir];
  while (stack.length > 0 && found.size < GIT_DIR_LIMIT) {
    const g = stack.pop()!;
    if (found.has(g)) continue;
    found.add(g);
    // A linked worktree's git directory reads hooks and config from its common directory.
    const common = pointedDir(join(g, 'commondir'), g);
    if (common !== undefined) stack.push(common);
    for (const sub of ['worktrees', 'modules']) {
      // A submodule's name may hold slashes (modules/a/b): walk down to each directory that holds a HEAD.
      const walk = [join(g, sub)];
      while (walk.length > 0 && found.size + stack.length < GIT_DIR_LIMIT) {
        const d = walk.pop()!;
        let names: string[];
        try {
          names = readdirSync(d);
        } catch {
          continue;
        }
        for (const n of names) {
          const p = join(d, n);
          if (lstatKind(p) !== 'dir') continue;
          if (lstatKind(join(p, 'HEAD')) === 'file') stack.push(p);
          else if (sub === 'modules') walk.push(p);
        }
      }
    }
  }
}

/**
 * The git directories of the repository at `root`: its `.git` directory, or the one a `.git` file or link names,
 * and, nested, those of its submodules and linked worktrees.
 */
export function gitDirectories(root: string): string[] {
  const found = new Set<string>();
  const dotGit = join(root, '.git');
  const kind = lstatKind(dotGit);
  const start = kind === 'dir' ? dotGit : kind === 'file' ? gitdirPointer(dotGit) : kind === 'link' ? realDir(dotGit) : undefined;
  if (start !== undefined) gitDirsFrom(start, found);
  return [...found];
}
