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
// with outcome `refused` (an answer that did not fit) or `stale` (a swept request). escalate() (escalate.ts)
// records approval.requested/decided, inquiry.*, and escalation.settled answered|timed-out|abandoned|refused.
import * as fs from 'node:fs';
import type { AuditContext, AuditSink } from '../../audit/kinds.js';
import type { WispPaths } from '../../core/paths.js';
import { visible } from '../../core/visible.js';
import type { Notifier } from './notify.js';
import { noticeFor } from './notify.js';
import {
  bindingOf,
  pendingDir,
  QUEUE_ID_PATTERN,
  QueueError,
  QueueRequestSchema,
  requestExists,
  writeRequest,
  type QueueAnswer,
  type QueueRequest,
  type UnboundRequest,
} from './files.js';
import { runSteps, takeSteps, withdrawSteps, type Steps, type TakeResult } from './protocol.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../types.js';
import type { AnswerCheck } from '../answer-schema.js';

/** The schema check, loaded on the first question with a schema (ajv is not light; most processes never need it). */
let answerSchema: typeof import('../answer-schema.js') | undefined;
/** Whether the check must be loaded before this escalation is filed (never for an approval). */
function needsSchemaCheck(e: Escalation): boolean {
  return e.verb === 'inquiry' && e.request.schema !== undefined && !answerSchema;
}
async function loadSchemaCheck(): Promise<void> {
  answerSchema ??= await import('../answer-schema.js');
}

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

export interface Held {
  readonly request: QueueRequest;
  readonly actx: AuditContext;
  readonly createdMs: number;
  readonly expiresMs: number | null;
  /** The question's schema compiled, on the first answer to check. */
  check?: AnswerCheck;
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
    if (needsSchemaCheck(e)) await loadSchemaCheck(); // otherwise the request is filed before raise() returns
    const held = this.fileHeld(e, ctx, 'waiting', timeoutMs > 0 ? timeoutMs : null);
    try {
      ctx.onProgress?.(`waiting for an answer in the queue: ${answerHint(held.request)}`);
      return await this.waitFor(held, ctx, timeoutMs);
    } finally {
      this.withdraw(held.request.id);
    }
  }

  /** Deferred mode: file and return at once; the request expires after `pendingSeconds`. */
  async file(e: Escalation, ctx: RaiseContext): Promise<{ id: string; expiresAt: number }> {
    if (needsSchemaCheck(e)) await loadSchemaCheck(); // otherwise the request is filed before raise() returns
    const held = this.fileHeld(e, ctx, 'deferred', this.opts.pendingSeconds * 1000);
    return { id: held.request.id, expiresAt: held.expiresMs! };
  }

  /**
   * The person's answer to a request filed here, if one has arrived (binding checked against memory); the
   * request is then settled and its files removed. undefined while unanswered (or for an id not held here).
   */
  poll(id: string): EscalationOutcome | undefined {
    const held = this.held.get(id);
    if (!held) return undefined;
    if (held.expiresMs !== null && this.now() >= held.expiresMs) return undefined; // too late: `collect` ends it
    return this.takeAnswer(held);
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

  /**
   * Stops asking: removes the request and any answers to it (none of them was taken: taking one ends the request
   * first). Idempotent; never touches a request this channel did not file.
   */
  withdraw(id: string): void {
    const held = this.held.get(id);
    if (!held) return;
    this.forget(id);
    runSteps(withdrawSteps(this.opts.paths.pending, id));
  }

  private forget(id: string): void {
    this.held.delete(id);
    if (this.held.size === 0) live.delete(this);
  }

  /** Ids filed by this channel and not yet settled. */
  pendingIds(): string[] {
    return [...this.held.keys()];
  }

  /** At process exit: no audit (the audit may already be closed). */
  withdrawAllQuietly(): void {
    for (const id of this.held.keys()) runSteps(withdrawSteps(this.opts.paths.pending, id));
    this.held.clear();
    live.delete(this);
  }

  // -------------------------------------------------------------------------------------------------------------

  /** Files the request and holds it here (public: the interleaving tests drive the protocol steps with it). */
  fileHeld(e: Escalation, ctx: RaiseContext, mode: 'waiting' | 'deferred', lifetimeMs: number | null): Held {
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
        // An answer already there made it in time; after this look the request is withdrawn (in `raise`), and an
        // answer that arrives later is its writer's to take back.
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

  /**
   * Takes an answer if an acceptable one is there (queue-protocol.ts: the record is linked to it, then the request
   * and every other answer are removed); refused answers are audited and removed. undefined: nothing taken yet.
   */
  private takeAnswer(held: Held): EscalationOutcome | undefined {
    const result = runSteps(this.askerSteps(held));
    return this.settleTake(held, result);
  }

  /** The asker's steps for one look (public: the interleaving tests drive them one operation at a time). */
  askerSteps(held: Held): Steps<TakeResult> {
    return takeSteps(this.opts.paths.pending, held.request, {
      mismatch: (answer, nonce) => mismatch(held.request, answer, nonce) ?? this.unfitting(held, answer),
      onRefused: (reason, answer) =>
        this.audit('escalation.settled', held, {
          outcome: 'refused',
          reason,
          ...(answer ? { via: answer.via, answerPid: answer.pid } : {}),
        }),
    });
  }

  /** What one look came to: audited, and the outcome when it settled the request. */
  settleTake(held: Held, result: TakeResult): EscalationOutcome | undefined {
    if (result.kind === 'none') return undefined;
    this.forget(held.request.id);
    if (result.kind === 'conflict') {
      this.audit('escalation.settled', held, { outcome: 'refused', reason: result.reason });
      return { kind: 'declined', reason: `the queue's record was tampered with, so nothing was taken: ${result.reason}` };
    }
    const answer = result.answer;
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
    return outcomeOf(held.request, answer);
  }

  /**
   * Why an inquiry's answer text does not fit the question's schema, or undefined. Every answerer checks before it
   * writes; this is for an answer file written by anything else (ADR 0097). No checker loaded: not taken.
   */
  private unfitting(held: Held, answer: QueueAnswer): string | undefined {
    const req = held.request;
    if (req.verb !== 'inquiry' || req.schema === undefined || answer.text === undefined) return undefined;
    if (!answerSchema) return "the answer could not be checked against the question's schema";
    held.check ??= answerSchema.answerChecker(req.schema);
    const r = held.check(answer.text);
    return r.ok ? undefined : r.reason;
  }

  /** The held request of an id filed here (tests drive the protocol steps with it). */
  heldRequest(id: string): Held | undefined {
    return this.held.get(id);
  }

  private audit(kind: 'escalation.pending' | 'escalation.answered' | 'escalation.settled', held: Held, details: Record<string, unknown>): void {
    this.opts.audit.write(kind, { channel: 'queue', escalationId: held.request.id, ...details }, held.actx);
  }
}

function answerHint(req: QueueRequest): string {
  return req.verb === 'approval' ? `wisp approvals approve ${req.id}` : `wisp inquiries answer ${req.id} TEXT`;
}

/** Why an answer does not fit the request held in memory, or undefined when it does. */
function mismatch(req: QueueRequest, answer: QueueAnswer, nonce: string): string | undefined {
  if (answer.id !== req.id) return `the answer names id ${answer.id}, not ${req.id} (replayed from another request?)`;
  if (answer.nonce !== nonce) return "the answer's nonce is not the one in its file name (copied from another answer?)";
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
