// The queue channel (design.md §2, ADR 0005): a request file in `$WISP_HOME/pending/`, answered from another
// process (`wisp approvals approve ID`, `wisp inquiries answer ID TEXT`, or a running `wisp chat`).
//
// Two ways to use it:
//   - waiting: `raise()` files the request and blocks until an answer, the timeout, or the caller's abort;
//   - deferred: `file()` returns at once and the caller later asks `poll(id)` / `collect(id)` (result channel).
// Either way the only answer accepted is one whose binding equals the binding held here, in memory — never one
// recomputed from a file that another process could have rewritten.
//
// Audit split: this channel records what only the queue can see — `escalation.pending` (filed),
// `escalation.answered` (an answer was taken, with `via` and `answeredBy` verbatim), and `escalation.settled`
// with outcome `refused` (an answer that did not fit) or `stale` (a swept request). The gate records
// approval.requested/decided, inquiry.*, and escalation.settled answered|timed-out|abandoned.
import * as fs from 'node:fs';
import type { AuditContext, AuditSink } from '../audit/kinds.js';
import type { WispPaths } from '../paths.js';
import { visible } from '../display/visible.js';
import type { Notifier } from './notify.js';
import { noticeFor } from './notify.js';
import {
  bindingOf,
  claimAnswer,
  pendingDir,
  QUEUE_ID_PATTERN,
  QueueError,
  QueueRequestSchema,
  reclaimAnswer,
  removeRequest,
  requestExists,
  scanDir,
  writeAnswer,
  writeRequest,
  type Decision,
  type QueueAnswer,
  type QueueRequest,
  type ScanResult,
  type UnboundRequest,
} from './queue-files.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from './types.js';
import { INQUIRY_ANSWER_MAX_BYTES } from './types.js';

export const CANCELLED_REASON = 'the call was cancelled while waiting';
export const REMOVED_REASON = 'the request was removed from the queue before anyone answered';

export interface QueueChannelOptions {
  readonly paths: WispPaths;
  readonly audit: AuditSink;
  /** `escalation.pendingSeconds`: lifetime of a deferred request. */
  readonly pendingSeconds: number;
  readonly notifier?: Notifier;
  /** Shown to the person as who is asking, unless the raise context names a client. */
  readonly client?: string;
  /** Fallback polling interval while waiting (the directory is also watched). Default 25 ms. */
  readonly pollMs?: number;
  /** Watch the directory with fs.watch (default true); off leaves polling alone, for tests of the fallback. */
  readonly watch?: boolean;
  readonly now?: () => number;
}

interface Held {
  readonly request: QueueRequest;
  readonly actx: AuditContext;
  readonly createdMs: number;
  readonly expiresMs: number | null;
}

// Channels with requests on disk. When the process exits (normally, or via process.exit from a signal handler) its
// requests go with it, so a person is not shown a request nobody waits for; a process killed outright leaves
// them to the stale sweep.
const live = new Set<QueueChannel>();
let exitHookInstalled = false;
function onExitWithdrawAll(): void {
  for (const channel of live) {
    try {
      channel.withdrawAllQuietly();
    } catch {
      // exiting anyway
    }
  }
}

export class QueueChannel implements EscalationChannel {
  readonly name = 'queue' as const;
  private readonly held = new Map<string, Held>();
  private readonly now: () => number;

  constructor(private readonly opts: QueueChannelOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Waiting mode: file, then wait for an answer, the timeout (`ctx.timeoutMs`, 0 = forever) or `ctx.signal`. */
  async raise(e: Escalation, ctx: RaiseContext): Promise<EscalationOutcome> {
    if (ctx.signal?.aborted) return { kind: 'declined', reason: CANCELLED_REASON };
    const timeoutMs = ctx.timeoutMs > 0 ? ctx.timeoutMs : 0;
    const held = this.fileRequest(e, ctx, 'waiting', timeoutMs > 0 ? timeoutMs : null);
    try {
      ctx.onProgress?.(`waiting for an answer in the queue: ${answerHint(held.request)}`);
      return await this.waitFor(held, ctx, timeoutMs);
    } finally {
      this.withdraw(held.request.id);
    }
  }

  /** Deferred mode: file and return at once; the request expires after `pendingSeconds`. */
  async file(e: Escalation, ctx: RaiseContext): Promise<{ id: string; expiresAt: number }> {
    const held = this.fileRequest(e, ctx, 'deferred', this.opts.pendingSeconds * 1000);
    return { id: held.request.id, expiresAt: held.expiresMs! };
  }

  /**
   * The person's answer to a request filed here, if one has arrived (binding checked against memory); the
   * request is then settled and its files removed. undefined while unanswered (or for an id not held here).
   */
  poll(id: string): EscalationOutcome | undefined {
    const held = this.held.get(id);
    if (!held) return undefined;
    const outcome = this.takeAnswer(held);
    if (outcome) this.withdraw(id);
    return outcome;
  }

  /** Like `poll`, but an expired request is withdrawn and reported `unanswered`. */
  collect(id: string): EscalationOutcome | undefined {
    const held = this.held.get(id);
    if (!held) return undefined;
    const answered = this.poll(id);
    if (answered) return answered;
    if (held.expiresMs !== null && this.now() >= held.expiresMs) {
      this.withdraw(id);
      return { kind: 'unanswered', waitedMs: this.now() - held.createdMs };
    }
    return undefined;
  }

  /** Stops asking: removes the request (and an answer that raced in before it went). Idempotent. */
  withdraw(id: string): void {
    const held = this.held.get(id);
    if (!held) return; // never touch files this channel did not file
    this.held.delete(id);
    if (this.held.size === 0) live.delete(this);
    const dir = this.opts.paths.pending;
    // Only while our request still stood can an answer under the final name be addressed to it. An answer linked
    // after the request went is its writer's to take back (it sees the request gone and reclaims it).
    if (removeRequest(dir, id)) {
      const late = claimAnswer(dir, id);
      if (late?.ok) {
        this.audit('escalation.settled', held, { outcome: 'refused', reason: 'the answer arrived as the request was withdrawn', via: late.value.via });
      }
    }
  }

  /** Ids filed by this channel and not yet settled. */
  pendingIds(): string[] {
    return [...this.held.keys()];
  }

  /** At process exit: request files only, no audit (the audit may already be closed). */
  withdrawAllQuietly(): void {
    for (const id of this.held.keys()) removeRequest(this.opts.paths.pending, id);
    this.held.clear();
    live.delete(this);
  }

  // -------------------------------------------------------------------------------------------------------------

  private fileRequest(e: Escalation, ctx: RaiseContext, mode: 'waiting' | 'deferred', lifetimeMs: number | null): Held {
    const id = ctx.escalationId;
    if (!QUEUE_ID_PATTERN.test(id)) throw new QueueError(`escalation id ${visible(id)} cannot name a queue file`);
    if (this.held.has(id)) throw new QueueError(`escalation ${id} is already in the queue`);
    const dir = pendingDir(this.opts.paths, { create: true })!;
    const createdMs = this.now();
    const expiresMs = lifetimeMs === null ? null : createdMs + lifetimeMs;
    const thread = ctx.thread ?? e.request.thread ?? null;
    const common = {
      id,
      mode,
      thread,
      client: ctx.client ?? this.opts.client ?? 'wisp',
      pid: process.pid,
      createdAt: new Date(createdMs).toISOString(),
      expiresAt: expiresMs === null ? null : new Date(expiresMs).toISOString(),
    };
    const unbound: UnboundRequest =
      e.verb === 'approval'
        ? {
            ...common,
            verb: 'approval',
            command: e.request.command,
            line: e.request.line,
            pattern: e.request.pattern,
            directory: e.request.directory,
            level: e.request.level,
            reasons: [...e.request.reasons],
            ask: e.request.ask ?? null,
          }
        : {
            ...common,
            verb: 'inquiry',
            question: e.request.question,
            ...(e.request.schema ? { schema: e.request.schema } : {}),
          };
    const request = { ...unbound, binding: bindingOf(unbound) } as QueueRequest;
    // A request its own readers would refuse (a field over its limit) could never be answered: refuse it now.
    const valid = QueueRequestSchema.safeParse(request);
    if (!valid.success) {
      const why = valid.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new QueueError(`escalation ${id} cannot be queued: ${why}`);
    }
    const held: Held = { request, actx: { session: ctx.session, ...(thread ? { thread } : {}) }, createdMs, expiresMs };
    writeRequest(dir, request);
    this.held.set(id, held);
    live.add(this);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', onExitWithdrawAll);
    }
    try {
      this.audit('escalation.pending', held, {
        verb: request.verb,
        mode,
        ...(request.verb === 'approval'
          ? { command: request.command, pattern: request.pattern, level: request.level }
          : { question: request.question }),
        client: request.client,
        expiresAt: request.expiresAt,
        answer: answerHint(request),
      });
      this.opts.notifier?.notify(noticeFor(request), held.actx);
    } catch (err) {
      this.withdraw(id); // an unrecorded request must not stay answerable
      throw err;
    }
    return held;
  }

  private waitFor(held: Held, ctx: RaiseContext, timeoutMs: number): Promise<EscalationOutcome> {
    const id = held.request.id;
    const dir = this.opts.paths.pending;
    return new Promise<EscalationOutcome>((resolve, reject) => {
      let done = false;
      let watcher: fs.FSWatcher | undefined;
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: EscalationOutcome | Error) => {
        if (done) return;
        done = true;
        clearInterval(ticker);
        if (timer) clearTimeout(timer);
        watcher?.close();
        ctx.signal?.removeEventListener('abort', onAbort);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const guarded = (step: () => void) => () => {
        if (done) return;
        try {
          step();
        } catch (err) {
          finish(err instanceof Error ? err : new Error(String(err))); // e.g. the audit failed: fail closed
        }
      };
      const check = guarded(() => {
        const outcome = this.takeAnswer(held);
        if (outcome) return finish(outcome);
        if (requestExists(dir, id)) return;
        // Gone. At or past its expiry, another process's sweep merely beat our own timer: that is a timeout.
        if (held.expiresMs !== null && this.now() >= held.expiresMs) {
          finish(this.takeAnswer(held) ?? { kind: 'unanswered', waitedMs: this.now() - held.createdMs });
        } else {
          finish({ kind: 'declined', reason: REMOVED_REASON });
        }
      });
      const onTimeout = guarded(() => {
        // Take the request down first, then take any answer that made it in time (an answer linked after this
        // finds the request gone and is taken back by its writer).
        removeRequest(dir, id);
        finish(this.takeAnswer(held) ?? { kind: 'unanswered', waitedMs: this.now() - held.createdMs });
      });
      const onAbort = () => finish({ kind: 'declined', reason: CANCELLED_REASON });

      const ticker = setInterval(check, this.opts.pollMs ?? 25);
      if (timeoutMs > 0) timer = setTimeout(onTimeout, Math.max(0, held.createdMs + timeoutMs - this.now()));
      ctx.signal?.addEventListener('abort', onAbort, { once: true });
      if (this.opts.watch !== false) {
        try {
          watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
            if (name === null || name === undefined || String(name).startsWith(`${id}.`)) check();
          });
          watcher.on('error', () => watcher?.close()); // polling carries on
        } catch {
          watcher = undefined; // no inotify slots, unsupported filesystem…: polling alone
        }
      }
      check(); // an answer may already be there
    });
  }

  /** Claims an answer if one is there; a valid one settles the request, an invalid one is refused and removed. */
  private takeAnswer(held: Held): EscalationOutcome | undefined {
    const dir = this.opts.paths.pending;
    const id = held.request.id;
    const claimed = claimAnswer(dir, id);
    if (!claimed) return undefined;
    if (!claimed.ok) {
      this.audit('escalation.settled', held, { outcome: 'refused', reason: `answer file refused: ${claimed.reason}` });
      return undefined;
    }
    const answer = claimed.value;
    const problem = mismatch(held.request, answer);
    if (problem) {
      this.audit('escalation.settled', held, { outcome: 'refused', reason: problem, via: answer.via, answerPid: answer.pid });
      return undefined;
    }
    // Taken: take the request down now, before anyone can mistake a later answer for this one.
    removeRequest(dir, id);
    const outcome = outcomeOf(held.request, answer);
    this.audit('escalation.answered', held, {
      verb: held.request.verb,
      via: answer.via,
      ...(answer.answeredBy !== undefined ? { answeredBy: answer.answeredBy } : {}),
      answerPid: answer.pid,
      answeredAt: answer.answeredAt,
      ...(answer.decision !== undefined ? { decision: answer.decision } : {}),
      ...(answer.text !== undefined ? { bytes: Buffer.byteLength(answer.text, 'utf8') } : {}),
      ...(answer.declined ? { declined: true } : {}),
    });
    return outcome;
  }

  private audit(kind: 'escalation.pending' | 'escalation.answered' | 'escalation.settled', held: Held, details: Record<string, unknown>): void {
    this.opts.audit.write(kind, { channel: 'queue', escalationId: held.request.id, ...details }, held.actx);
  }
}

function answerHint(req: QueueRequest): string {
  return req.verb === 'approval' ? `wisp approvals approve ${req.id}` : `wisp inquiries answer ${req.id} TEXT`;
}

/** Why an answer does not fit the request held in memory, or undefined when it does. */
function mismatch(req: QueueRequest, answer: QueueAnswer): string | undefined {
  if (answer.id !== req.id) return `the answer names id ${answer.id}, not ${req.id} (replayed from another request?)`;
  if (answer.binding !== req.binding) return 'the answer is bound to a different request (binding mismatch)';
  if (req.verb === 'approval' && answer.decision === undefined) return 'an approval needs a decision';
  if (req.verb === 'inquiry' && answer.decision !== undefined) return 'an inquiry is answered with text or declined';
  return undefined;
}

function viaLabel(req: QueueRequest, via: string): string {
  if (via === 'cli') return req.verb === 'approval' ? 'wisp approvals' : 'wisp inquiries';
  if (via === 'chat') return 'wisp chat';
  return via;
}

function outcomeOf(req: QueueRequest, answer: QueueAnswer): EscalationOutcome {
  if (answer.decision === 'no' || answer.declined) {
    return { kind: 'declined', reason: `declined by the person (${viaLabel(req, answer.via)})` };
  }
  if (answer.decision !== undefined) return { kind: 'approved', scope: answer.decision };
  const text = answer.text ?? '';
  return {
    kind: 'answered',
    text,
    ...(answer.answeredBy === 'human' || answer.answeredBy === 'agent' ? { answeredBy: answer.answeredBy } : {}),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Other processes' view: listing, sweeping, answering.

export interface SweptRequest {
  readonly id: string;
  readonly reason: string;
}

/**
 * Removes stale requests (process gone, or expired) — each audited `escalation.settled` outcome `stale` — and
 * old orphans (answers with no request, leftover temp files). A missing directory has nothing to sweep; an unsafe
 * one throws.
 */
export function sweepStale(paths: WispPaths, audit: AuditSink, ctx: AuditContext = { session: 'queue-sweep' }): SweptRequest[] {
  const dir = pendingDir(paths, { create: false });
  if (!dir) return [];
  const scan = scanDir(dir);
  const swept: SweptRequest[] = [];
  for (const { request, reason } of scan.stale) {
    if (!removeRequest(dir, request.id)) continue; // someone else swept it first
    claimAnswer(dir, request.id); // an answer to a dead request is dropped with it
    audit.write(
      'escalation.settled',
      { channel: 'queue', escalationId: request.id, verb: request.verb, outcome: 'stale', reason, askerPid: request.pid },
      { session: ctx.session, ...(request.thread ? { thread: request.thread } : {}) },
    );
    swept.push({ id: request.id, reason });
  }
  for (const file of scan.orphans) fs.rmSync(file, { force: true, recursive: true }); // a planted directory too
  return swept;
}

/** Live requests (never stale ones), oldest first; refused files are left out (see `scanPending`). */
export function listPending(paths: WispPaths, verb?: 'approval' | 'inquiry'): QueueRequest[] {
  return scanPending(paths).live.filter((r) => verb === undefined || r.verb === verb);
}

/** The directory's whole picture, for listings that also report files they refused. */
export function scanPending(paths: WispPaths): ScanResult {
  const dir = pendingDir(paths, { create: false });
  if (!dir) return { live: [], stale: [], refused: [], orphans: [] };
  return scanDir(dir);
}

export type AnswerBody = { readonly decision: Decision } | { readonly text: string } | { readonly declined: true };

/**
 * Writes the answer to a verified request. The caller has already checked the request (readRequest) and shown it;
 * `binding` must be the one it showed. ok:false means another answer was first.
 */
export function answerRequest(
  paths: WispPaths,
  request: QueueRequest,
  body: AnswerBody,
  opts: { via: string; answeredBy?: string; now?: () => number },
): { ok: true; ino: number } | { ok: false; reason: 'exists' } {
  if ('text' in body && Buffer.byteLength(body.text, 'utf8') > INQUIRY_ANSWER_MAX_BYTES) {
    throw new QueueError(`the answer is longer than ${INQUIRY_ANSWER_MAX_BYTES} bytes`);
  }
  const dir = pendingDir(paths, { create: false });
  if (!dir) throw new QueueError(`no pending request ${request.id}`);
  const answer: QueueAnswer = {
    id: request.id,
    binding: request.binding,
    ...body,
    via: opts.via,
    ...(opts.answeredBy !== undefined ? { answeredBy: opts.answeredBy } : {}),
    pid: process.pid,
    answeredAt: new Date((opts.now ?? Date.now)()).toISOString(),
  };
  return writeAnswer(dir, answer);
}

export type PickupResult =
  /** The asker claimed the answer and took its request down. */
  | 'taken'
  /** The request went away without taking this answer; the answer was taken back. */
  | 'withdrawn'
  /** Nobody took it in time; the answer was taken back, nothing was decided. */
  | 'not-taken'
  /** The asker claimed the answer but kept its request: it refused the answer. */
  | 'refused'
  /** A deferred request: the answer stays for the asker to collect. */
  | 'recorded';

/**
 * After `answerRequest`: waits up to `waitMs` for the asking process to take the answer, and leaves the queue in a
 * state that matches what it reports (see the claim protocol in queue-files.ts).
 */
export async function awaitPickup(
  paths: WispPaths,
  request: QueueRequest,
  ino: number,
  opts: { waitMs?: number; stepMs?: number } = {},
): Promise<PickupResult> {
  const dir = paths.pending;
  const step = opts.stepMs ?? 10;
  const deadline = Date.now() + (opts.waitMs ?? 3000);
  for (;;) {
    if (!requestExists(dir, request.id)) {
      return reclaimAnswer(dir, request.id, ino) === 'gone' ? 'taken' : 'withdrawn';
    }
    if (Date.now() >= deadline) break;
    await sleep(step);
  }
  if (request.mode === 'deferred') return 'recorded';
  if (reclaimAnswer(dir, request.id, ino) === 'reclaimed') return 'not-taken';
  // The asker claimed it just now: give it a moment to take its request down (taken) or not (refused).
  const grace = Date.now() + 500;
  while (Date.now() < grace) {
    if (!requestExists(dir, request.id)) return 'taken';
    await sleep(step);
  }
  return 'refused';
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
