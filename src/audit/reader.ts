// Reads the audit log back: across rotated files oldest first, tolerant of a torn or garbled line (returned as such,
// never fatal — the log is evidence, so damage is shown rather than hidden), and able to follow the live file
// through a rotation for `wisp logs -f`.
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { z } from 'zod';
import { errnoCode } from '../util/atomic.js';
import { escapeRegExp } from './writer.js';

/**
 * The envelope as read back. Looser than `AuditEvent`: `kind` may be one this version doesn't know (a newer wisp
 * wrote it) — such events are kept, not skipped.
 */
export const ReadEventSchema = z.looseObject({
  schema: z.number(),
  id: z.string(),
  time: z.string(),
  version: z.string().optional(),
  pid: z.number().optional(),
  session: z.string(),
  thread: z.string().optional(),
  turn: z.number().optional(),
  kind: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
  // Reserved for TornLine; a line claiming it is not a real envelope and is reported as torn.
  torn: z.undefined().optional(),
});
export type ReadEvent = z.infer<typeof ReadEventSchema> & { readonly torn?: false };

/** A line that is not a whole event: cut short by a crash, or damaged. */
export interface TornLine {
  readonly torn: true;
  readonly raw: string;
  readonly file: string;
  /** 1-based line number in `file`. */
  readonly line: number;
}

export type AuditEntry = ReadEvent | TornLine;

export function isTorn(entry: AuditEntry): entry is TornLine {
  return entry.torn === true;
}

export interface ReadFilter {
  readonly session?: string;
  readonly thread?: string;
  readonly kinds?: readonly string[];
  /** Only the last N entries (after filtering). */
  readonly last?: number;
}

/**
 * Whether an entry passes the filter. Torn lines always pass: they can't be attributed to a session or kind, and
 * hiding damage from the person reading the log would be worse than showing a stray line.
 */
export function matchesFilter(entry: AuditEntry, filter: ReadFilter): boolean {
  if (isTorn(entry)) return true;
  if (filter.session !== undefined && entry.session !== filter.session) return false;
  if (filter.thread !== undefined && entry.thread !== filter.thread) return false;
  if (filter.kinds !== undefined && filter.kinds.length > 0 && !filter.kinds.includes(entry.kind)) return false;
  return true;
}

/**
 * The log's files oldest first: `audit.N.jsonl` … `audit.1.jsonl`, then `audit.jsonl`. `target` is the live file
 * or the directory holding `audit.jsonl`. Files that don't exist are left out.
 */
export function auditFiles(target: string): string[] {
  const live = liveFile(target);
  const dir = dirname(live);
  const ext = extname(live);
  const re = new RegExp(`^${escapeRegExp(basename(live, ext))}\\.(\\d+)${escapeRegExp(ext)}$`);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return [];
    throw err;
  }
  const rotated = names
    .map((name) => ({ name, n: Number(re.exec(name)?.[1] ?? NaN) }))
    .filter((x) => Number.isInteger(x.n))
    .sort((a, b) => b.n - a.n)
    .map((x) => join(dir, x.name));
  return names.includes(basename(live)) ? [...rotated, live] : rotated;
}

function liveFile(target: string): string {
  try {
    if (statSync(target).isDirectory()) return join(target, 'audit.jsonl');
  } catch {
    /* a file that doesn't exist yet */
  }
  return target;
}

/** Every entry matching `filter`, oldest first, across rotated files. A missing log reads as empty. */
export function readEvents(target: string, filter: ReadFilter = {}): AuditEntry[] {
  const out: AuditEntry[] = [];
  for (const file of auditFiles(target)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') continue; // rotated away while we listed
      throw err;
    }
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const raw = lines[i] as string;
      if (raw.trim() === '') continue;
      const entry = parseLine(raw, file, i + 1);
      if (matchesFilter(entry, filter)) out.push(entry);
    }
  }
  return filter.last !== undefined ? out.slice(Math.max(0, out.length - filter.last)) : out;
}

/** One line of the log as an event, or as a torn line when it isn't a whole, well-formed envelope. */
export function parseLine(raw: string, file: string, line: number): AuditEntry {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { torn: true, raw, file, line };
  }
  const parsed = ReadEventSchema.safeParse(value);
  return parsed.success ? (parsed.data as ReadEvent) : { torn: true, raw, file, line };
}

export interface FollowOptions {
  /** Emit what is already in the file first. @default false (only what is written from now on) */
  readonly fromStart?: boolean;
  /** How often to look for new lines. @default 200 */
  readonly intervalMs?: number;
  /**
   * Where a reader that showed the log up to now stopped: the live file's identity and size when it looked. The first
   * open continues from there (or reads the file whole if it was rotated since), so nothing written between that look
   * and the first poll is lost. Without it, the first open starts at the end.
   */
  readonly from?: { readonly ino: number; readonly dev: number; readonly size: number };
}

/** One open file of the log being read: where we are in it and any line not yet finished. */
interface Cursor {
  readonly fd: number;
  readonly path: string;
  readonly ino: number;
  readonly dev: number;
  pos: number;
  lineNo: number;
  pending: Buffer;
}

/**
 * Calls `onEvent` for each line appended to `file` until `signal` aborts (then the promise resolves). Survives
 * rotation, also several between two polls: the files are opened together, the one being read is found again by
 * inode, and every newer file is read in order before the live one. A file that doesn't exist yet is waited for.
 * If `onEvent` throws, following stops and the promise rejects. Lines appended to a file after it was rotated
 * away and after it was finished are not seen (a writer re-checks the path before every line, so the window is
 * tiny).
 */
export function followEvents(
  file: string,
  onEvent: (entry: AuditEntry) => void,
  signal: AbortSignal,
  opts: FollowOptions = {},
): Promise<void> {
  const intervalMs = opts.intervalMs ?? 200;
  let cur: Cursor | undefined;
  let first = true;

  const emitLines = (c: Cursor, chunk: Buffer): void => {
    c.pending = c.pending.length === 0 ? chunk : Buffer.concat([c.pending, chunk]);
    let nl: number;
    // Split on the newline byte, not on decoded text, so a multi-byte character cut between reads stays whole.
    while ((nl = c.pending.indexOf(0x0a)) !== -1) {
      const raw = c.pending.subarray(0, nl).toString('utf8');
      c.pending = c.pending.subarray(nl + 1);
      c.lineNo++;
      if (raw.trim() !== '') onEvent(parseLine(raw, c.path, c.lineNo));
    }
  };

  const drain = (c: Cursor): void => {
    const buf = Buffer.alloc(64 * 1024);
    for (;;) {
      const n = readSync(c.fd, buf, 0, buf.length, c.pos);
      if (n === 0) break;
      c.pos += n;
      emitLines(c, Buffer.from(buf.subarray(0, n)));
    }
  };

  /** Closes a file that is no longer live; an unfinished last line there will never be completed: torn. */
  const finish = (c: Cursor): void => {
    try {
      if (c.pending.length > 0) {
        c.lineNo++;
        onEvent({ torn: true, raw: c.pending.toString('utf8'), file: c.path, line: c.lineNo });
      }
    } finally {
      closeSync(c.fd);
    }
  };

  const open = (path: string): Cursor | undefined => {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return undefined;
      throw err;
    }
    const st = fstatSync(fd);
    return { fd, path, ino: st.ino, dev: st.dev, pos: 0, lineNo: 0, pending: Buffer.alloc(0) };
  };

  const rotated = (c: Cursor): void => {
    drain(c); // lines that reached it just before it was renamed
    // Open every file of the log at once (oldest first), so further rotations while we read can't shift names.
    const snapshot = auditFiles(file).flatMap((p) => open(p) ?? []);
    const at = snapshot.findIndex((s) => s.ino === c.ino && s.dev === c.dev);
    const newer = at >= 0 ? snapshot.slice(at + 1) : snapshot.filter((s) => s.path === file);
    for (const s of snapshot) if (!newer.includes(s)) closeSync(s.fd);
    finish(c);
    cur = undefined;
    for (const s of newer) {
      if (s.path === file && s === newer[newer.length - 1]) {
        cur = s; // the live file: keep following it
        drain(s);
      } else {
        drain(s);
        finish(s);
      }
    }
  };

  const tick = (): void => {
    if (cur === undefined) {
      cur = open(file);
      // Only the very first open may skip existing content; a file that appears later is read whole.
      if (cur !== undefined && first && !opts.fromStart) {
        const from = opts.from;
        if (from === undefined) cur.pos = fstatSync(cur.fd).size;
        else if (from.ino === cur.ino && from.dev === cur.dev) cur.pos = from.size;
      }
      first = false;
      if (cur === undefined) return;
    }
    drain(cur);
    let st;
    try {
      st = statSync(file);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      return; // mid-rotation: the old file is still open; look again next time
    }
    if (st.ino !== cur.ino || st.dev !== cur.dev) rotated(cur);
    else if (st.size < cur.pos) {
      cur.pos = 0; // truncated in place (copytruncate)
      cur.lineNo = 0;
      cur.pending = Buffer.alloc(0);
    }
  };

  return new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = (err?: unknown): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      try {
        if (cur !== undefined) closeSync(cur.fd);
      } catch {
        /* closing is best effort */
      }
      cur = undefined;
      if (err === undefined) resolve();
      else reject(err);
    };
    const onAbort = (): void => stop();
    const loop = (): void => {
      try {
        tick();
      } catch (err) {
        stop(err);
        return;
      }
      if (!signal.aborted) timer = setTimeout(loop, intervalMs);
    };
    if (signal.aborted) {
      resolve();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    loop();
  });
}
