// Files only their owner may read: the chat's prompt history and its saved conversations. They hold what the person
// typed and what the model said, so they are created 0600 in a 0700 directory, opened without following a symbolic
// link, and refused when someone else owns them or others may read them (a planted file is not taken as ours).
import * as fs from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';

export type PrivateRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly missing: boolean; readonly reason: string };

function errno(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

function myUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** Why an open file is not ours to trust, or undefined when it is. */
function untrusted(st: fs.Stats): string | undefined {
  if (!st.isFile()) return 'it is not a regular file';
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) return `it is owned by uid ${st.uid}, not by you (uid ${uid})`;
  if ((st.mode & 0o077) !== 0) return `its mode is ${(st.mode & 0o777).toString(8).padStart(4, '0')}; it must be 0600`;
  return undefined;
}

/** Reads a private file whole (at most `maxBytes`). */
export function readPrivate(path: string, maxBytes: number): PrivateRead {
  let fd: number;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = errno(err);
    if (code === 'ENOENT') return { ok: false, missing: true, reason: 'no such file' };
    if (code === 'ELOOP') return { ok: false, missing: false, reason: 'it is a symbolic link' };
    return { ok: false, missing: false, reason: `cannot open it (${code ?? String(err)})` };
  }
  try {
    const st = fs.fstatSync(fd);
    const bad = untrusted(st);
    if (bad) return { ok: false, missing: false, reason: bad };
    if (st.size > maxBytes) return { ok: false, missing: false, reason: `it is larger than ${maxBytes} bytes` };
    return { ok: true, text: fs.readFileSync(fd, 'utf8') };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Appends to a private file, creating it 0600 (and its directory 0700). One write per call with O_APPEND, so two
 * chats appending at once interleave whole lines. Throws when the file exists but is not ours to write.
 */
export function appendPrivate(path: string, text: string): void {
  fs.mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const fd = fs.openSync(
    path,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    0o600,
  );
  try {
    const bad = untrusted(fs.fstatSync(fd));
    if (bad) throw new Error(`${path}: ${bad}`);
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
}

/** Replaces a private file whole (atomically, 0600). */
export function replacePrivate(path: string, text: string): void {
  writeFileAtomic(path, text, { mode: 0o600, dirMode: 0o700, fsync: false });
}

/** Whether `path` can be trusted as ours when it exists (for listing saved files without reading them all). */
export function privateStat(path: string): { readonly ok: true; readonly stat: fs.Stats } | { readonly ok: false; readonly reason: string } {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(path);
  } catch (err) {
    return { ok: false, reason: `cannot stat it (${errno(err) ?? String(err)})` };
  }
  if (st.isSymbolicLink()) return { ok: false, reason: 'it is a symbolic link' };
  const bad = untrusted(st);
  return bad ? { ok: false, reason: bad } : { ok: true, stat: st };
}
