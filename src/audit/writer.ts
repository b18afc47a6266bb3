// The audit log writer: one JSON object per line, appended synchronously, and a write that fails THROWS so the
// caller stops the action (fail closed). Not pino: its destination reports write errors as 'error' events and
// returns normally (ADR 0003). Each line is one write(2) in O_APPEND mode, so lines from several processes never
// interleave. A SIGKILL can cut only the line being written (the kernel may stop a write that spans pages short):
// the reader shows it as torn, never as an event, and the next writer starts on a fresh line. A line is in the
// kernel once write(2) returns, so a crash or SIGKILL of wisp loses nothing already written; only a power cut or
// kernel crash can, which is what an fsync per line would guard against at ~70× the cost — it is opt-in, and
// close() fsyncs (ADR 0011).
import { safeJson } from '../core/safe-json.js';
import { closeSync, existsSync, fchmodSync, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, extname, join } from 'node:path';
import { VERSION } from '../core/version.js';
import { acquireFileLock, errnoCode } from '../util/atomic.js';
import { toJsonSafe } from '../util/json-value.js';
import { WispError } from '../core/errors.js';
import type { AuditContext, AuditEvent, AuditKind, AuditSink } from './kinds.js';

export interface AuditOptions {
  /** The live file, normally `$WISP_HOME/logs/audit.jsonl`. */
  readonly file: string;
  /** Rotate before a line would take the live file past this size. */
  readonly maxFileBytes: number;
  /** Rotated files kept besides the live one (`audit.1.jsonl` newest … `audit.N.jsonl` oldest). */
  readonly keepFiles: number;
  /** `version` in every envelope. @default VERSION */
  readonly version?: string;
  /**
   * fsync after every line, so that a power cut or kernel crash loses nothing already reported as written. Off by
   * default: a crash or SIGKILL of the process loses nothing either way (the kernel holds what write(2) took), and
   * an fsync costs milliseconds per event (ADR 0011). close() always fsyncs. @default false
   */
  readonly fsync?: boolean;
}

export interface AuditWriter extends AuditSink {
  readonly file: string;
  /** Closes the file; later writes throw. */
  close(): void;
}

/** Thrown when an event could not be recorded. The action it describes must not go ahead. */
export class AuditWriteError extends WispError {
  constructor(
    readonly file: string,
    override readonly cause: unknown,
  ) {
    super(`could not write the audit log ${file}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'AuditWriteError';
  }
}

/** `audit.jsonl` → `audit.3.jsonl`: the name of rotated file `n` next to `file`. */
export function rotatedName(file: string, n: number): string {
  const ext = extname(file);
  return join(dirname(file), `${basename(file, ext)}.${n}${ext}`);
}

/**
 * Opens (creating 0600, in a 0700 directory) the audit log. Throws at once when the file cannot be opened, so a
 * face refuses to start rather than run unrecorded.
 */
export function openAudit(opts: AuditOptions): AuditWriter {
  return new FileAudit(opts);
}

class FileAudit implements AuditWriter {
  readonly file: string;
  private fd: number | undefined;
  private dev = 0;
  private ino = 0;
  /** The file does not end with a newline (a torn line from a crash or a short write): start the next line fresh. */
  private needsNewline = false;
  private closed = false;
  /** After a failed rotation, don't retry on every write. */
  private rotateNotBefore = 0;
  private readonly version: string;
  private readonly fsync: boolean;

  constructor(private readonly opts: AuditOptions) {
    this.file = opts.file;
    this.version = opts.version ?? VERSION;
    this.fsync = opts.fsync ?? false;
    try {
      this.reopen();
    } catch (err) {
      throw new AuditWriteError(this.file, err);
    }
  }

  write(kind: AuditKind, details: Record<string, unknown>, ctx: AuditContext): AuditEvent {
    if (this.closed) throw new AuditWriteError(this.file, new Error('the audit log is closed'));
    const safeDetails = toJsonSafe(details);
    const event: AuditEvent = {
      schema: 1,
      id: eventId(),
      time: new Date().toISOString(),
      version: this.version,
      pid: process.pid,
      session: ctx.session,
      ...(ctx.thread !== undefined ? { thread: ctx.thread } : {}),
      ...(ctx.turn !== undefined ? { turn: ctx.turn } : {}),
      kind,
      details: isRecord(safeDetails) ? safeDetails : { value: safeDetails },
    };
    const line = safeJson(event) + '\n';
    try {
      this.append(line);
    } catch (err) {
      throw err instanceof AuditWriteError ? err : new AuditWriteError(this.file, err);
    }
    return event;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.fd !== undefined) {
      const fd = this.fd;
      this.fd = undefined;
      try {
        fsyncSync(fd); // the session's lines reach the disk at its end, at the cost of one fsync
      } catch {
        /* a device that cannot fsync (a pipe, /dev/null) still closes */
      } finally {
        closeSync(fd);
      }
    }
  }

  private append(line: string): void {
    const size = this.currentSize();
    const bytes = Buffer.byteLength(line, 'utf8');
    if (size > 0 && size + bytes > this.opts.maxFileBytes && Date.now() >= this.rotateNotBefore) this.rotate(bytes);
    const fd = this.requireFd();
    const payload = Buffer.from(this.needsNewline ? '\n' + line : line, 'utf8');
    // One write call: with O_APPEND the kernel places it at the end as a unit, whoever else is appending.
    const written = writeSync(fd, payload);
    if (written !== payload.length) {
      this.needsNewline = true;
      throw new Error(`short write (${written} of ${payload.length} bytes)`);
    }
    this.needsNewline = false;
    if (this.fsync) fsyncSync(fd);
  }

  /** Size of the live file; reopens first if it was rotated, removed or replaced by someone else. */
  private currentSize(): number {
    let st;
    try {
      st = statSync(this.file);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      this.reopen();
      return fstatSync(this.requireFd()).size;
    }
    if (this.fd === undefined || st.ino !== this.ino || st.dev !== this.dev) {
      this.reopen();
      return fstatSync(this.requireFd()).size;
    }
    return st.size;
  }

  private requireFd(): number {
    if (this.fd === undefined) this.reopen();
    return this.fd as number;
  }

  private reopen(): void {
    if (this.fd !== undefined) {
      const old = this.fd;
      this.fd = undefined;
      try {
        closeSync(old);
      } catch {
        /* the old descriptor no longer matters */
      }
    }
    makeDir(dirname(this.file));
    // 'a+' (not 'a') so the last byte can be read back to detect a torn final line.
    const fd = openSync(this.file, 'a+', 0o600);
    try {
      const st = fstatSync(fd);
      if (!st.isFile() && !st.isCharacterDevice()) throw new Error('not a regular file');
      // The log holds commands and their output: keep it private even if it was created loosely by something else.
      if (st.isFile() && (st.mode & 0o077) !== 0 && process.getuid?.() === st.uid) fchmodSync(fd, st.mode & 0o700);
      this.needsNewline = st.isFile() && st.size > 0 && lastByte(fd, st.size) !== 0x0a;
      this.dev = st.dev;
      this.ino = st.ino;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    this.fd = fd;
  }

  /**
   * Shifts audit.jsonl → audit.1.jsonl → … under a lock, so two processes that both see a full file rotate once.
   * A failed rotation is not a failed write: the line still goes to the (oversized) live file.
   */
  private rotate(incoming: number): void {
    let release: (() => void) | undefined;
    try {
      release = acquireFileLock(this.file + '.lock', { timeoutMs: 1000 });
      const st = statSync(this.file);
      // Re-check under the lock: another process may have rotated while we waited.
      if (st.ino === this.ino && st.dev === this.dev && st.size > 0 && st.size + incoming > this.opts.maxFileBytes) {
        const keep = Math.max(1, this.opts.keepFiles);
        for (let n = keep - 1; n >= 1; n--) renameIfExists(rotatedName(this.file, n), rotatedName(this.file, n + 1));
        renameSync(this.file, rotatedName(this.file, 1));
        dropBeyond(this.file, keep);
      }
      this.reopen();
    } catch {
      this.rotateNotBefore = Date.now() + 5000;
      if (this.fd === undefined) this.reopen();
    } finally {
      release?.();
    }
  }
}

/**
 * 16 hex characters from a pool of random bytes refilled 4 KiB at a time: one getrandom per 512 events instead of
 * one per event (it was a quarter of the cost of a write).
 */
let idPool = Buffer.alloc(0);
let idOffset = 0;
function eventId(): string {
  if (idOffset + 8 > idPool.length) {
    idPool = randomBytes(4096);
    idOffset = 0;
  }
  const id = idPool.toString('hex', idOffset, idOffset + 8);
  idOffset += 8;
  return id;
}

/**
 * mkdir -p, reporting the real cause: Node's recursive mkdir says ENOENT where the parent exists but is read-only
 * (EROFS) or not writable; a plain mkdir of the last step then names it.
 */
function makeDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT' || !existsSync(dirname(dir))) throw err;
    mkdirSync(dir, { mode: 0o700 });
  }
}

function lastByte(fd: number, size: number): number {
  const b = Buffer.alloc(1);
  readSync(fd, b, 0, 1, size - 1);
  return b[0] as number;
}

function renameIfExists(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') throw err;
  }
}

/** Removes rotated files numbered above `keep` (left over when keepFiles was lowered). */
function dropBeyond(file: string, keep: number): void {
  const ext = extname(file);
  const stem = basename(file, ext);
  const re = new RegExp(`^${escapeRegExp(stem)}\\.(\\d+)${escapeRegExp(ext)}$`);
  for (const name of readdirSync(dirname(file))) {
    const m = re.exec(name);
    if (m && Number(m[1]) > keep) {
      try {
        unlinkSync(join(dirname(file), name));
      } catch {
        /* someone else removed it */
      }
    }
  }
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
