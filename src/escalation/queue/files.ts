// The queue's files (design.md §2, ADR 0005, ADR 0026): `$WISP_HOME/pending/<id>.request.json`, one
// `<id>.answer.<nonce>.json` per answer, and the asker's record `.<id>.taken.json`. Everything read here is untrusted:
// any process running as this user can write into the directory, so each file is opened without following symlinks,
// checked (regular file, ours, 0600), size-bounded, parsed with zod, and a request is accepted only when its binding
// recomputes from its own fields. Who may create or remove which file is the protocol's business: protocol.ts.
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { WispPaths } from '../../core/paths.js';
import { LEVELS } from '../../core/levels.js';
import { WispError } from '../../core/errors.js';
import { INQUIRY_ANSWER_MAX_BYTES } from '../types.js';
import { SCOPES } from '../../core/scopes.js';

/** Ids are file-name safe: no dots or slashes at the start, so they never collide with temp files or escape. */
export const QUEUE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** Domain tag hashed first into every binding; bump it if the field list changes. */
export const BINDING_TAG = 'wisp.queue/1';

const MAX_REQUEST_BYTES = 1024 * 1024;
const MAX_ANSWER_BYTES = 16 * 1024;
export class QueueError extends WispError {
  constructor(message: string) {
    super(message, 1);
    this.name = 'QueueError';
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Shapes

const isoTime = z.iso.datetime();
const text = (max: number) => z.string().max(max);

const requestCommon = {
  id: z.string().regex(QUEUE_ID_PATTERN),
  /** `waiting`: a process blocks on this answer; `deferred`: the asker collects it later (result channel). */
  mode: z.enum(['waiting', 'deferred']),
  thread: text(256).nullable(),
  client: text(256).min(1),
  pid: z.number().int().positive(),
  createdAt: isoTime,
  /** null: no expiry (a waiting request with an unbounded wait); stale then only when its process is gone. */
  expiresAt: isoTime.nullable(),
  binding: z.string().regex(/^[0-9a-f]{64}$/),
};

export const ApprovalRequestFileSchema = z.strictObject({
  ...requestCommon,
  verb: z.literal('approval'),
  command: text(65536),
  line: text(65536),
  pattern: text(65536),
  directory: text(4096),
  level: z.enum(LEVELS),
  reasons: z.array(text(2000)).max(64),
  ask: text(200).nullable(),
});

export const InquiryRequestFileSchema = z.strictObject({
  ...requestCommon,
  verb: z.literal('inquiry'),
  question: text(65536),
  schema: z.record(z.string(), z.unknown()).optional(),
});

export const QueueRequestSchema = z.discriminatedUnion('verb', [ApprovalRequestFileSchema, InquiryRequestFileSchema]);

export type ApprovalQueueRequest = z.infer<typeof ApprovalRequestFileSchema>;
export type InquiryQueueRequest = z.infer<typeof InquiryRequestFileSchema>;
export type QueueRequest = z.infer<typeof QueueRequestSchema>;
/** A request before its binding is computed. */
export type UnboundRequest = DistributiveOmit<QueueRequest, 'binding'>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

export const DECISIONS = [...SCOPES, 'no'] as const;
export type Decision = (typeof DECISIONS)[number];

export const QueueAnswerSchema = z
  .strictObject({
    id: z.string().regex(QUEUE_ID_PATTERN),
    /** Random, and part of the answer's file name: tells one answer from every other, even with equal content. */
    nonce: z.string().regex(/^[0-9a-f]{32}$/),
    binding: z.string().regex(/^[0-9a-f]{64}$/),
    decision: z.enum(DECISIONS).optional(),
    text: z
      .string()
      .refine((s) => Buffer.byteLength(s, 'utf8') <= INQUIRY_ANSWER_MAX_BYTES, {
        message: `longer than ${INQUIRY_ANSWER_MAX_BYTES} bytes`,
      })
      .optional(),
    declined: z.literal(true).optional(),
    /** Which face wrote it: `cli` (wisp approvals / wisp inquiries), `chat`, … — recorded verbatim. */
    via: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/),
    /** What the answerer claims about itself; recorded verbatim, never trusted. */
    answeredBy: text(64).optional(),
    pid: z.number().int().positive(),
    answeredAt: isoTime,
  })
  .refine((a) => [a.decision, a.text, a.declined].filter((v) => v !== undefined).length === 1, {
    message: 'an answer carries exactly one of decision, text or declined',
  });
export type QueueAnswer = z.infer<typeof QueueAnswerSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Binding: SHA-256 over exactly what the person is shown (ADR 0005 lists the fields). Absent values are null, so
// "no thread" and "thread ''" differ; the schema is hashed in a canonical (sorted-key) JSON form.

export function bindingFields(req: UnboundRequest): unknown[] {
  const tail = [req.thread, req.client, req.pid, req.createdAt, req.expiresAt];
  if (req.verb === 'approval') {
    return [
      BINDING_TAG,
      req.id,
      'approval',
      req.mode,
      req.ask,
      req.command,
      req.line,
      req.pattern,
      req.directory,
      req.level,
      [...req.reasons],
      ...tail,
    ];
  }
  return [
    BINDING_TAG,
    req.id,
    'inquiry',
    req.mode,
    req.question,
    req.schema === undefined ? null : canonicalJson(req.schema),
    ...tail,
  ];
}

export function bindingOf(req: UnboundRequest): string {
  return createHash('sha256').update(JSON.stringify(bindingFields(req)), 'utf8').digest('hex');
}

/** JSON with object keys sorted at every level, so a re-serialised copy hashes the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// Paths

export const requestPath = (dir: string, id: string): string => join(dir, `${id}.request.json`);
export const answerPath = (dir: string, id: string, nonce: string): string => join(dir, `${id}.answer.${nonce}.json`);
export const takenPath = (dir: string, id: string): string => join(dir, `.${id}.taken.json`);
const ID = '[A-Za-z0-9][A-Za-z0-9_-]{0,63}';
export const REQUEST_FILE = new RegExp(`^(${ID})\\.request\\.json$`);
export const ANSWER_FILE = new RegExp(`^(${ID})\\.answer\\.[0-9a-f]{32}\\.json$`);
export const TAKEN_FILE = new RegExp(`^\\.(${ID})\\.taken\\.json$`);
// Temp files start with a dot and name their writer's pid; never read as requests or answers.
export const TEMP_FILE = new RegExp(`^\\.${ID}\\.(?:request|answer)\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
// Names of the protocol before ADR 0026 (one shared answer name, claimed by rename): swept once old.
export const LEGACY_FILE = new RegExp(`^(?:${ID}\\.answer\\.json|\\.${ID}\\.(?:request|answer|claimed|reclaim)\\.[0-9a-f]+(?:\\.tmp)?)$`);

function myUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

function quoteArg(s: string): string {
  return /^[A-Za-z0-9_./~+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function errno(err: unknown): string | undefined {
  return err !== null && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The directory

/**
 * The pending directory, checked: a real directory (not a symlink), owned by this user, mode exactly 0700.
 * With `create`, a missing one is made 0700. Throws a QueueError saying what is wrong and how to fix it.
 * Returns undefined only when it is missing and `create` is false.
 */
export function pendingDir(paths: WispPaths, opts: { create: boolean }): string | undefined {
  const dir = paths.pending;
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (err) {
    if (errno(err) !== 'ENOENT') throw new QueueError(`cannot use the queue directory ${dir}: ${String(err)}`);
    if (!opts.create) return undefined;
    fs.mkdirSync(paths.home, { recursive: true, mode: 0o700 });
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
      fs.chmodSync(dir, 0o700); // mkdir's mode is masked by the umask; set it exactly
    } catch (mkErr) {
      if (errno(mkErr) !== 'EEXIST') throw new QueueError(`cannot create the queue directory ${dir}: ${String(mkErr)}`);
    }
    st = fs.lstatSync(dir);
  }
  const fix = quoteArg(dir);
  if (st.isSymbolicLink()) {
    throw new QueueError(
      `the queue directory ${dir} is a symbolic link; wisp uses only a real directory it owns. ` +
        `Fix: rm ${fix} (wisp creates it again, mode 0700)`,
    );
  }
  if (!st.isDirectory()) {
    throw new QueueError(`the queue path ${dir} is not a directory. Fix: move it away (wisp creates the directory)`);
  }
  const uid = myUid();
  if (uid !== undefined && st.uid !== uid) {
    throw new QueueError(
      `the queue directory ${dir} is owned by uid ${st.uid}, not by you (uid ${uid}), so someone else could read ` +
        `or answer your requests. Fix: chown ${uid} ${fix} && chmod 700 ${fix} (or remove it; wisp re-creates it)`,
    );
  }
  const mode = st.mode & 0o777;
  if (mode !== 0o700) {
    throw new QueueError(
      `the queue directory ${dir} has mode ${mode.toString(8).padStart(4, '0')}; it must be 0700 so no other user ` +
        `can read or answer your requests. Fix: chmod 700 ${fix}`,
    );
  }
  return dir;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading untrusted files

export type ReadResult<T> =
  | { readonly ok: true; readonly value: T; readonly ino: number; readonly mtimeMs: number; readonly bytes: Buffer }
  | { readonly ok: false; readonly code: 'missing' | 'refused'; readonly reason: string };

function readOwnedJson(path: string, maxBytes: number): ReadResult<unknown> {
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink is refused at open, so there is no window between a check and the read.
    // O_NONBLOCK: a FIFO planted under the name cannot hang the reader.
    fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = errno(err);
    if (code === 'ENOENT') return { ok: false, code: 'missing', reason: 'no such file' };
    if (code === 'ELOOP') return { ok: false, code: 'refused', reason: 'it is a symbolic link' };
    return { ok: false, code: 'refused', reason: `cannot open it (${code ?? String(err)})` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { ok: false, code: 'refused', reason: 'it is not a regular file' };
    const uid = myUid();
    if (uid !== undefined && st.uid !== uid) {
      return { ok: false, code: 'refused', reason: `it is owned by uid ${st.uid}, not by you (uid ${uid})` };
    }
    if ((st.mode & 0o077) !== 0) {
      const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
      return { ok: false, code: 'refused', reason: `its mode is ${mode}; it must be 0600` };
    }
    if (st.size > maxBytes) return { ok: false, code: 'refused', reason: `it is larger than ${maxBytes} bytes` };
    const buf = Buffer.alloc(Math.min(st.size + 1, maxBytes + 1));
    let used = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, used, buf.length - used, null);
      if (n === 0) break;
      used += n;
      if (used >= buf.length) return { ok: false, code: 'refused', reason: `it is larger than ${maxBytes} bytes` };
    }
    const bytes = buf.subarray(0, used);
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch {
      return { ok: false, code: 'refused', reason: 'it is not valid JSON' };
    }
    return { ok: true, value, ino: st.ino, mtimeMs: st.mtimeMs, bytes };
  } catch (err) {
    return { ok: false, code: 'refused', reason: `cannot read it (${errno(err) ?? String(err)})` };
  } finally {
    fs.closeSync(fd);
  }
}

function issues(err: z.ZodError): string {
  return err.issues
    .slice(0, 3)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

/** A request file, verified: shape, name, and binding recomputed from its own fields. */
export function readRequest(dir: string, id: string): ReadResult<QueueRequest> {
  const raw = readOwnedJson(requestPath(dir, id), MAX_REQUEST_BYTES);
  if (!raw.ok) return raw;
  const parsed = QueueRequestSchema.safeParse(raw.value);
  if (!parsed.success) return { ok: false, code: 'refused', reason: `not a valid request (${issues(parsed.error)})` };
  const req = parsed.data;
  if (req.id !== id) return { ok: false, code: 'refused', reason: `it names id ${req.id}, not ${id}` };
  let expected: string;
  try {
    expected = bindingOf(req);
  } catch {
    return { ok: false, code: 'refused', reason: 'its binding cannot be computed' };
  }
  if (expected !== req.binding) {
    return { ok: false, code: 'refused', reason: 'its binding does not match its fields (the file was altered)' };
  }
  return { ...raw, value: req };
}

/** An answer file (or the record, which is a link to one), checked and parsed. */
export function readAnswerFile(path: string): ReadResult<QueueAnswer> {
  const raw = readOwnedJson(path, MAX_ANSWER_BYTES);
  if (!raw.ok) return raw;
  const parsed = QueueAnswerSchema.safeParse(raw.value);
  if (!parsed.success) return { ok: false, code: 'refused', reason: `not a valid answer (${issues(parsed.error)})` };
  return { ...raw, value: parsed.data };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

function tempName(dir: string, id: string, kind: string): string {
  return join(dir, `.${id}.${kind}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
}

/** Files a request: temp file 0600, then rename onto `<id>.request.json` (refuses an id already pending). */
export function writeRequest(dir: string, req: QueueRequest): void {
  const final = requestPath(dir, req.id);
  if (fs.existsSync(final)) throw new QueueError(`a request with id ${req.id} is already pending`);
  const tmp = tempName(dir, req.id, 'request');
  try {
    fs.writeFileSync(tmp, JSON.stringify(req, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, final);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Puts an answer file in place (temp file, then link) without following it: for tests and tools that plant an
 * answer, forged ones included. Answerers go through protocol.ts. Returns the file's path.
 */
export function writeAnswerFile(dir: string, answer: Omit<QueueAnswer, 'nonce'> & { readonly nonce?: string }): string {
  const nonce = answer.nonce ?? randomBytes(16).toString('hex');
  const final = answerPath(dir, answer.id, nonce);
  const tmp = tempName(dir, answer.id, 'answer');
  try {
    fs.writeFileSync(tmp, JSON.stringify({ ...answer, nonce }, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
    fs.linkSync(tmp, final);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return final;
}

/** Is any answer (anyone's) waiting for this request? */
export function answerExists(dir: string, id: string): boolean {
  return fs.readdirSync(dir).some((n) => n.startsWith(`${id}.answer.`));
}

export function requestExists(dir: string, id: string): boolean {
  try {
    fs.lstatSync(requestPath(dir, id));
    return true;
  } catch {
    return false;
  }
}

/** Removes the request file; true when it was there. */
export function removeRequest(dir: string, id: string): boolean {
  try {
    fs.unlinkSync(requestPath(dir, id));
    return true;
  } catch (err) {
    if (errno(err) === 'ENOENT') return false;
    throw err;
  }
}
