// Opening files the way the gate judged them: from a trusted root down, one component at a time, following no link
// (ADR 0043). wisp's file tools run in wisp's own process, outside the sandbox, so a link swapped in after a check
// would otherwise redirect a write to ~/.ssh/authorized_keys or .git/hooks.
//
// Node has no openat(2). On Linux a directory's descriptor is reached by name as /proc/self/fd/N: a path through it
// starts at that very directory, whatever its name means now, so every step is bound to the descriptor checked
// before it. Elsewhere (macOS) each step is opened by its full name with O_NOFOLLOW and the chain of directories is
// checked again, by device and inode, just before a write is committed.
import { constants, existsSync, type BigIntStats } from 'node:fs';
import { lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = constants;

/** Why a no-follow open failed, in words for the model and the person. */
export class NoFollowError extends Error {
  constructor(
    readonly code: 'link' | 'missing' | 'not-directory' | 'not-file' | 'outside',
    message: string,
  ) {
    super(message);
  }
}

/** Who a file or directory is: enough to tell that the thing at a name was replaced or changed. */
export interface Identity {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  readonly nlink: bigint;
  readonly mode: number;
  readonly kind: 'file' | 'directory' | 'fifo' | 'device' | 'socket' | 'link' | 'other';
}

export function sameObject(a: Identity, b: Identity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Same object, unchanged since: a write in place changes mtime/ctime/size, a replacement the inode. */
export function sameState(a: Identity, b: Identity): boolean {
  return sameObject(a, b) && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.kind === b.kind;
}

function identityOf(s: BigIntStats): Identity {
  const kind = s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isFIFO() ? 'fifo'
    : s.isCharacterDevice() || s.isBlockDevice() ? 'device' : s.isSocket() ? 'socket' : s.isSymbolicLink() ? 'link' : 'other';
  return { dev: s.dev, ino: s.ino, size: s.size, mtimeNs: s.mtimeNs, ctimeNs: s.ctimeNs, nlink: s.nlink, mode: Number(s.mode & 0o7777n), kind };
}

export async function identity(handle: FileHandle): Promise<Identity> {
  return identityOf(await handle.stat({ bigint: true }));
}

/** /proc/self/fd/N/name is the portable-enough openat here; checked once per process. */
let procFd: boolean | undefined;
function hasProcFd(): boolean {
  procFd ??= process.platform === 'linux' && existsSync('/proc/self/fd');
  return procFd;
}

/** An open directory reached without following links, and how to name an entry inside it. */
export class Dir {
  private constructor(
    private readonly handle: FileHandle,
    /** The canonical path it was opened by (for messages and the fallback). */
    readonly path: string,
    readonly id: Identity,
    private readonly viaProc: boolean,
    /** The fallback's chain: each directory from the root down, to check again before a write. */
    private readonly chain: ReadonlyArray<{ path: string; id: Identity }>,
  ) {}

  /**
   * Opens `dir` (absolute, canonical) starting at `root`, which must contain it (or be it). The root is the
   * operator's own choice (the project, the temp dir, a writable path), opened by its canonical name; below it no
   * component may be a link.
   */
  static async open(root: string, dir: string, opts: { viaProc?: boolean } = {}): Promise<Dir> {
    const viaProc = opts.viaProc ?? hasProcFd();
    const rel = relative(root, dir);
    if (rel.startsWith('..') || isAbsolute(rel)) throw new NoFollowError('outside', `${dir} is not inside ${root}`);
    const parts = rel === '' ? [] : rel.split(sep);
    let handle = await openDirectory(root, root);
    let path = root;
    const chain: Array<{ path: string; id: Identity }> = [{ path, id: await identity(handle) }];
    try {
      for (const part of parts) {
        const next = join(path, part);
        const by = viaProc ? `/proc/self/fd/${handle.fd}/${part}` : next;
        const child = await openDirectory(by, next);
        await handle.close();
        handle = child;
        path = next;
        chain.push({ path, id: await identity(handle) });
      }
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
    return new Dir(handle, path, chain[chain.length - 1]!.id, viaProc, chain);
  }

  /** The name to give a system call for `name` in this directory (no slash allowed in name). */
  entry(name: string): string {
    if (name === '' || name === '.' || name === '..' || name.includes('/')) throw new NoFollowError('outside', `not a plain file name: ${name}`);
    return this.viaProc ? `/proc/self/fd/${this.handle.fd}/${name}` : join(this.path, name);
  }

  /**
   * Opens a regular file in this directory for reading, never through a link and never blocking on a FIFO or a
   * device; anything but a regular file is refused. Undefined when nothing has the name.
   */
  async openFile(name: string): Promise<{ handle: FileHandle; id: Identity } | undefined> {
    let handle: FileHandle;
    try {
      handle = await open(this.entry(name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP' || code === 'EMLINK') throw new NoFollowError('link', `${join(this.path, name)} is a symbolic link now; it is not followed`);
      if (code === 'ENXIO') throw new NoFollowError('not-file', `${join(this.path, name)} is not a regular file (a socket or a FIFO)`);
      throw err;
    }
    const id = await identity(handle);
    if (!this.viaProc) await this.recheck().catch(async (err: unknown) => {
      await handle.close();
      throw err;
    });
    if (id.kind !== 'file') {
      await handle.close();
      throw new NoFollowError('not-file', `${join(this.path, name)} is not a regular file (it is a ${id.kind})`);
    }
    return { handle, id };
  }

  /** What is at `name` now, without following it (undefined when nothing). */
  async peek(name: string): Promise<Identity | undefined> {
    try {
      return identityOf(await lstat(this.entry(name), { bigint: true }));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  /**
   * Without /proc, names are looked up again on every call: before a write is committed, each directory of the chain
   * must still be the one first opened and still not a link.
   */
  async recheck(): Promise<void> {
    if (this.viaProc) return;
    for (const step of this.chain) {
      const now = await lstat(step.path, { bigint: true }).catch(() => undefined);
      if (!now || now.isSymbolicLink() || now.dev !== step.id.dev || now.ino !== step.id.ino) {
        throw new NoFollowError('link', `${step.path} was replaced while wisp worked on it`);
      }
    }
  }

  /**
   * Replaces `name` with `text` atomically: a new file is made beside it (O_CREAT|O_EXCL, which never follows a
   * link) and renamed over the name, which replaces a link rather than writing through it, and leaves the other
   * names of a hard-linked file alone. Refused when what is at `name` is no longer `expected` (undefined: nothing).
   */
  async commit(name: string, temp: string, text: string, mode: number, expected: Identity | undefined): Promise<void> {
    const handle = await open(this.entry(temp), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, mode);
    try {
      try {
        await handle.writeFile(text);
        await handle.chmod(mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      const now = await this.peek(name);
      if (expected === undefined ? now !== undefined : now === undefined || !sameState(now, expected)) {
        throw new NoFollowError('link', `${join(this.path, name)} changed while wisp was writing it`);
      }
      await this.recheck();
      await rename(this.entry(temp), this.entry(name));
    } catch (err) {
      await unlink(this.entry(temp)).catch(() => undefined);
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

async function openDirectory(by: string, shown: string): Promise<FileHandle> {
  try {
    return await open(by, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw new NoFollowError('link', `${shown} is a symbolic link; wisp follows no link below the root it checked`);
    if (code === 'ENOTDIR') {
      // O_DIRECTORY|O_NOFOLLOW on a link gives ENOTDIR on some systems: say which it is.
      const s = await lstat(by).catch(() => undefined);
      if (s?.isSymbolicLink()) throw new NoFollowError('link', `${shown} is a symbolic link; wisp follows no link below the root it checked`);
      throw new NoFollowError('not-directory', `${shown} is not a directory`);
    }
    if (code === 'ENOENT') throw new NoFollowError('missing', `${shown} does not exist`);
    throw err;
  }
}
