// Crash-safe file replacement and a cross-process lock. Both are synchronous on purpose: they sit on the path of a
// gate decision, where an `await` between "read" and "write" would let another action slip in.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { WispError } from '../core/errors.js';
import { processAlive } from './process-alive.js';

export interface WriteAtomicOptions {
  /** Mode of the new file. @default 0o600 */
  readonly mode?: number;
  /** Mode of the parent directory if it has to be created. @default 0o700 */
  readonly dirMode?: number;
  /** Flush the data to disk before the rename, so a crash can't leave a renamed but empty file. @default true */
  readonly fsync?: boolean;
  /**
   * Also flush the directory, making the rename itself durable. Without it a power cut may bring back the
   * previous file (never a torn one). @default true
   */
  readonly syncDirectory?: boolean;
}

/**
 * Replaces `file` with `data` so a reader sees either the old or the new content, never a mix: the data goes to a
 * private temp file in the same directory (same filesystem, so the rename is atomic), which then replaces the target.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, opts: WriteAtomicOptions = {}): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: opts.dirMode ?? 0o700 });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const fd = openSync(tmp, 'wx', opts.mode ?? 0o600);
  try {
    writeFully(fd, buf);
    if (opts.fsync !== false) fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkQuietly(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (err) {
    unlinkQuietly(tmp);
    throw err;
  }
  if (opts.fsync !== false && opts.syncDirectory !== false) fsyncDirectory(dir);
  sweepTempFiles(dir, basename(file));
}

/** A temp file of a writer whose pid is gone is removed once this old (a live writer renames within milliseconds). */
export const TEMP_GRACE_MS = 10_000;
/** …and any temp file once this old, whatever its pid says (pid reuse, a stopped writer). */
export const TEMP_MAX_AGE_MS = 60 * 60_000;

/**
 * Removes the temp files a killed writer left beside `name` in `dir`: `.NAME.PID.HEX.tmp` (writeFileAtomic) and
 * `NAME.lock.PID.HEX.tmp` (the lock's body). Run after every successful write, so a SIGKILL costs one stray file
 * until the next write. Best effort: an error here never fails the write that already landed.
 */
export function sweepTempFiles(dir: string, name: string, now: number = Date.now()): string[] {
  const removed: string[] = [];
  const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const temp = new RegExp(`^(?:\\.${esc}|${esc}\\.lock)\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  try {
    for (const entry of readdirSync(dir)) {
      const m = temp.exec(entry);
      if (!m) continue;
      const path = join(dir, entry);
      const age = now - lstatSync(path).mtimeMs;
      if (age > TEMP_MAX_AGE_MS || (age > TEMP_GRACE_MS && !processAlive(Number(m[1])))) {
        unlinkQuietly(path);
        removed.push(entry);
      }
    }
  } catch {
    /* best effort */
  }
  return removed;
}

/** Writes the whole buffer, looping over short writes (fine for a private file nobody else appends to). */
export function writeFully(fd: number, buf: Uint8Array): void {
  let off = 0;
  while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
}

function fsyncDirectory(dir: string): void {
  // Makes the rename itself durable. Not every platform lets a directory be opened or fsynced; that is not fatal.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* best effort */
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    /* already gone */
  }
}

/** Blocks the thread for `ms` without spinning (Atomics.wait is allowed on Node's main thread). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
}

export interface LockOptions {
  /** Give up after this long. @default 5000 */
  readonly timeoutMs?: number;
  /** A lock older than this is broken even if its holder's pid looks alive (pid reuse, a stopped process). @default 30000 */
  readonly staleMs?: number;
  /** Base delay between attempts; a random jitter of the same size is added. @default 10 */
  readonly pollMs?: number;
}

/** Thrown when a lock could not be taken in time; names the holder so the person can act. */
export class LockTimeoutError extends WispError {
  constructor(
    readonly lockFile: string,
    holder: string,
  ) {
    super(`could not lock ${lockFile} (held by ${holder}); if no wisp process is running, remove that file`);
    this.name = 'LockTimeoutError';
  }
}

interface LockInfo {
  readonly pid?: number;
  readonly host?: string;
  readonly token?: string;
  readonly ino: number;
  readonly mtimeMs: number;
}

/**
 * Runs `fn` while holding an exclusive lock file (created with O_EXCL, so exactly one process wins). A lock left by
 * a dead process (same host) or older than `staleMs` is broken; breaking itself goes through a second O_EXCL file so
 * two waiters cannot both break it and then delete each other's fresh lock.
 */
export function withFileLock<T>(lockFile: string, fn: () => T, opts: LockOptions = {}): T {
  const release = acquireFileLock(lockFile, opts);
  try {
    return fn();
  } finally {
    release();
  }
}

/** Takes the lock and returns the function that releases it (idempotent). Prefer {@link withFileLock}. */
export function acquireFileLock(lockFile: string, opts: LockOptions = {}): () => void {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const staleMs = opts.staleMs ?? 30_000;
  const pollMs = opts.pollMs ?? 10;
  const token = `${process.pid}.${randomBytes(6).toString('hex')}`;
  const body = JSON.stringify({ pid: process.pid, host: hostname(), token, time: new Date().toISOString() });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (createWithBody(lockFile, body)) {
      let released = false;
      return () => {
        if (released) return;
        released = true;
        // Only remove the lock if it is still ours: if it was broken as stale, it now belongs to someone else.
        if (readLockInfo(lockFile)?.token === token) unlinkQuietly(lockFile);
      };
    }
    if (breakIfStale(lockFile, staleMs)) continue;
    if (Date.now() >= deadline) throw new LockTimeoutError(lockFile, describeHolder(readLockInfo(lockFile)));
    sleepSync(pollMs + Math.floor(Math.random() * pollMs));
  }
}

/**
 * Creates `lockFile` holding `body`, or returns false when it exists. The body goes to a private temp file first,
 * which is then hard-linked to the lock's name: the lock never exists without its holder's pid, even when its
 * creator is killed half-way (an empty lock could only be broken once `staleMs` had passed).
 */
function createWithBody(lockFile: string, body: string): boolean {
  const tmp = `${lockFile}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`; // pid: see sweepTempFiles
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeFully(fd, Buffer.from(body));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, lockFile);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkQuietly(tmp);
  }
}

function breakIfStale(lockFile: string, staleMs: number): boolean {
  const seen = readLockInfo(lockFile);
  if (seen === undefined) return true; // released meanwhile: try again at once
  if (!isStale(seen, staleMs)) return false;
  const breaker = `${lockFile}.break`;
  try {
    closeSync(openSync(breaker, 'wx', 0o600));
  } catch (err) {
    if (errnoCode(err) !== 'EEXIST') throw err;
    // Another waiter is breaking it. A breaker file left by a crash mid-break is itself stale after staleMs.
    try {
      if (Date.now() - statSync(breaker).mtimeMs > staleMs) unlinkQuietly(breaker);
    } catch {
      /* gone */
    }
    return false;
  }
  try {
    const now = readLockInfo(lockFile);
    // Same file and same token as the one judged stale: nobody replaced it in between.
    if (now !== undefined && now.ino === seen.ino && now.token === seen.token) unlinkQuietly(lockFile);
  } finally {
    unlinkQuietly(breaker);
  }
  return true;
}

function isStale(info: LockInfo, staleMs: number): boolean {
  if (Date.now() - info.mtimeMs > staleMs) return true;
  if (info.pid === undefined || info.host !== hostname()) return false; // can't check a pid on another host
  return !processAlive(info.pid);
}

function readLockInfo(lockFile: string): LockInfo | undefined {
  try {
    const st = statSync(lockFile);
    let parsed: { pid?: unknown; host?: unknown; token?: unknown } = {};
    try {
      parsed = JSON.parse(readFileSync(lockFile, 'utf8')) as typeof parsed;
    } catch {
      // Empty or half-written: its creator is between open and write, or died there (then staleMs applies).
    }
    return {
      ino: st.ino,
      mtimeMs: st.mtimeMs,
      ...(typeof parsed.pid === 'number' ? { pid: parsed.pid } : {}),
      ...(typeof parsed.host === 'string' ? { host: parsed.host } : {}),
      ...(typeof parsed.token === 'string' ? { token: parsed.token } : {}),
    };
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

function describeHolder(info: LockInfo | undefined): string {
  if (info === undefined) return 'nobody any more';
  const since = new Date(info.mtimeMs).toISOString();
  return info.pid !== undefined ? `pid ${info.pid} since ${since}` : `an unknown process since ${since}`;
}

/** The `code` of a Node system error (`ENOENT`, `EEXIST` …), or undefined for anything else. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
