// wisp run as root (containers, CI): a contained run keeps uid 0, and a file's owner may read it whatever the
// capabilities, so root's owner-only files outside the homes were readable unasked — /etc/ssl/private, a database's
// data folder, /var/cache/debconf/passwords.dat, /run/user/0 — through a link in the project as much as by name.
// A file or folder that others may not read says "not for everyone" by its mode; a contained run is "everyone"
// (ADR 0101 part 5). These are found by a walk of the system's folders and covered like secret files. Dropping to
// another uid instead would hide a root-owned private project as well (a 0700 /root/project): rejected.
import { lstatSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';

/** `child` is `parent` or below it (contain.ts has the same; importing it would make a cycle). */
function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}

/** At most this many entries are looked at; past it the rest of the system is left unchecked (ADR 0101). */
export const OWNER_ONLY_LIMIT = 200_000;
/**
 * The walk costs 0.1–0.7 s here: it is reused for this long, within one wisp process and, through a file in
 * $WISP_HOME (which no command may write), across the short-lived ones (`wisp respond` per call).
 */
const REUSE_MS = 5 * 60_000;

/**
 * Top-level folders not walked: the kernel's (/proc, /sys, /dev), the distribution's programs and libraries
 * (/usr but /usr/local, /bin, /lib…, package stores), and those a contained run sees replaced anyway (/tmp, /home,
 * /root); the caller names the rest (the project, $WISP_HOME, the homes).
 */
const SKIP_TOP = new Set(['proc', 'sys', 'dev', 'usr', 'bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'nix', 'snap', 'gnu', 'tmp', 'home', 'root']);
/** Package trees: large, installed readable for everyone, and not where a system keeps its secrets. */
const SKIP_NAMES = new Set(['node_modules']);

export interface OwnerOnly {
  /** Files others may not read. */
  readonly files: string[];
  /** Folders others may not list or enter. */
  readonly dirs: string[];
}

let cached: { at: number; key: string; found: OwnerOnly } | undefined;

/** Forgets the walk (tests make owner-only files and look at once). */
export function forgetOwnerOnly(): void {
  cached = undefined;
}

/**
 * The system's entries that others may not read, outside `skip` (folders whose content has rules of its own). A
 * folder that holds one of `keep` (the project, a PATH entry) is walked into instead of covered whole, so what the
 * run must see stays visible.
 */
export function ownerOnlyEntries(skip: readonly string[], keep: readonly string[], cacheFile?: string, now = Date.now()): OwnerOnly {
  const key = JSON.stringify([skip, keep]);
  const fresh = (c: { at: number; key: string } | undefined): boolean => c !== undefined && c.key === key && c.at <= now && now - c.at < REUSE_MS;
  if (cached !== undefined && fresh(cached)) return cached.found;
  const stored = cacheFile !== undefined ? readCache(cacheFile) : undefined;
  if (stored !== undefined && fresh(stored)) {
    cached = stored;
    return stored.found;
  }
  const files: string[] = [];
  const dirs: string[] = [];
  let seen = 0;
  const stack: string[] = ['/usr/local'];
  for (const e of list('/')) if (e.isDirectory() && !SKIP_TOP.has(e.name)) stack.push(join('/', e.name));
  while (stack.length > 0 && seen < OWNER_ONLY_LIMIT) {
    const dir = stack.pop()!;
    for (const e of list(dir)) {
      seen++;
      const path = join(dir, e.name);
      if (e.isSymbolicLink() || SKIP_NAMES.has(e.name) || skip.some((s) => isInside(path, s))) continue;
      if (!e.isDirectory() && !e.isFile()) continue;
      let mode: number;
      try {
        mode = lstatSync(path).mode;
      } catch {
        continue;
      }
      if (e.isFile()) {
        if ((mode & 0o004) === 0) files.push(path);
      } else if ((mode & 0o005) !== 0o005 && !keep.some((k) => isInside(k, path))) {
        dirs.push(path);
      } else {
        stack.push(path);
      }
    }
  }
  const found = { files, dirs };
  cached = { at: now, key, found };
  if (cacheFile !== undefined) {
    try {
      writeFileAtomic(cacheFile, JSON.stringify(cached), { mode: 0o600, fsync: false, syncDirectory: false });
    } catch {
      // Not kept: the next process walks again.
    }
  }
  return found;
}

function readCache(file: string): { at: number; key: string; found: OwnerOnly } | undefined {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { at?: unknown; key?: unknown; found?: { files?: unknown; dirs?: unknown } };
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
    if (typeof raw.at !== 'number' || typeof raw.key !== 'string' || !strings(raw.found?.files) || !strings(raw.found?.dirs)) return undefined;
    return { at: raw.at, key: raw.key, found: { files: raw.found.files, dirs: raw.found.dirs } };
  } catch {
    return undefined;
  }
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
