// Requests from other wisp processes of this user (`wisp mcp --escalation queue`, `wisp respond --escalation
// queue`, the queue leg of a race) appear in the chat as dialogs, marked with their client and thread, and are
// answered from here: the answer file is written through the queue module, `via: 'chat'`, bound to the request
// as it was verified and shown. A request that leaves the queue while shown closes with "answered elsewhere".
// The look, the sweep, the staleness rule and the answer are the answering side's (src/escalation/queue/answerer.ts),
// the same functions `wisp approvals` uses; what is here is the dialog and its words.
import type { AuditContext, AuditSink } from '../src/audit/kinds.js';
import { answerAndFollow, auditRefusedFile, closedToAnswers, lookAtQueue, whyGone, type AnswerBody } from '../src/escalation/queue/answerer.js';
import type { Fate } from '../src/escalation/queue/protocol.js';
import { pendingDir, type QueueRequest } from '../src/escalation/queue/files.js';
import type { WispPaths } from '../src/core/paths.js';
import type { DialogBody, DialogResult, DialogStore } from './dialog-store.js';
import { remoteEntry, remoteOutcome, type EntryBody } from './transcript-entries.js';

export interface QueueWatchOptions {
  readonly paths: WispPaths;
  readonly store: DialogStore;
  /** Where the outcomes go (the transcript). */
  readonly report: (entry: EntryBody) => void;
  /** Polling interval. @default 250 */
  readonly pollMs?: number;
  /** How long to wait for the asker to take an answer. @default 3000 */
  readonly pickupMs?: number;
  /** With an audit sink the watch sweeps stale requests as `wisp approvals pending` does (each sweep audited). */
  readonly audit?: AuditSink;
  readonly auditCtx?: AuditContext;
}

export const ANSWERED_ELSEWHERE = 'answered elsewhere';

export class QueueWatch {
  /** Requests seen and not yet gone from the directory, so one is never shown twice. */
  private readonly known = new Map<string, QueueRequest>();
  private readonly refusedSeen = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private dirProblem: string | undefined;
  private stopped = false;

  constructor(private readonly opts: QueueWatchOptions) {}

  start(): void {
    this.poll();
    this.timer = setInterval(() => this.poll(), this.opts.pollMs ?? 250);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One look at the directory (public for tests). */
  poll(): void {
    if (this.stopped) return;
    let scan: ReturnType<typeof lookAtQueue>;
    try {
      const audit = this.opts.audit;
      scan = lookAtQueue(this.opts.paths, audit ? { audit, ctx: this.opts.auditCtx ?? { session: 'chat-queue-watch' } } : undefined);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (message !== this.dirProblem) {
        this.dirProblem = message;
        this.opts.report({ kind: 'error', text: `requests from other wisp processes cannot be shown: ${message}` });
      }
      return;
    }
    this.dirProblem = undefined;

    for (const bad of scan.refused) {
      if (this.refusedSeen.has(bad.file)) continue;
      this.refusedSeen.add(bad.file);
      if (this.opts.audit) auditRefusedFile(this.opts.audit, this.opts.auditCtx ?? { session: 'chat-queue-watch' }, bad);
      this.opts.report({ kind: 'error', text: `ignored queue file ${bad.file}: ${bad.reason}` });
    }

    const live = new Set(scan.live.map((r) => r.id));
    for (const [id, request] of this.known) {
      if (live.has(id)) continue;
      this.known.delete(id);
      // Gone from the queue while still on screen (or waiting behind another dialog).
      const gone = whyGone(request);
      const result: DialogResult =
        gone === 'expired'
          ? { kind: 'unanswered', waitedMs: Date.now() - Date.parse(request.createdAt) }
          : gone === 'answered-elsewhere'
            ? { kind: 'closed', reason: ANSWERED_ELSEWHERE }
            : { kind: 'closed', reason: 'withdrawn: the asking process ended' };
      this.opts.store.settle(id, result);
    }

    for (const request of scan.live) {
      if (this.known.has(request.id)) continue;
      this.known.set(request.id, request);
      void this.show(request);
    }
  }

  private async show(request: QueueRequest): Promise<void> {
    const deadline = request.expiresAt !== null ? Date.parse(request.expiresAt) : undefined;
    const source = { kind: 'queue', client: request.client, thread: request.thread, pid: request.pid } as const;
    const dialog = bodyOf(request);
    const result = await this.opts.store.open(dialog, {
      id: request.id,
      source,
      ...(deadline !== undefined ? { deadline } : {}),
    });
    const say = (outcome: string) => this.opts.report(remoteEntry({ ...dialog, id: request.id, source, raisedAt: Date.parse(request.createdAt) }, outcome));
    const body = answerBody(request, result);
    if (!body) {
      if (!(result.kind === 'closed' && this.stopped)) say(remoteOutcome(result));
      return;
    }
    let fate: Fate;
    try {
      const closed = closedBeforeWriting(this.opts, request);
      fate = closed ?? (await answerAndFollow(this.opts.paths, request, body, { via: 'chat', answeredBy: 'human', waitMs: this.opts.pickupMs ?? 5000 }));
    } catch (err) {
      say(`your answer could not be written: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    say(fate === 'exists' ? `${ANSWERED_ELSEWHERE}; your answer was not used` : pickupWords(remoteOutcome(result), fate));
  }
}

/**
 * The answerers' shared check before writing (closedToAnswers), as the fate the person is told: a request already
 * answered is `exists`, one whose asker is gone `asker-gone`, an expired one `ended`.
 */
function closedBeforeWriting(opts: QueueWatchOptions, request: QueueRequest): Fate | undefined {
  const dir = pendingDir(opts.paths, { create: false });
  if (!dir) return 'ended';
  const audit = opts.audit;
  const closed = closedToAnswers(dir, request, audit ? { audit, ctx: opts.auditCtx ?? { session: 'chat-queue-watch' } } : undefined);
  if (closed === undefined) return undefined;
  if (closed.closed === 'answered') return 'exists';
  return closed.cause === 'asker-gone' ? 'asker-gone' : 'ended';
}

function bodyOf(request: QueueRequest): DialogBody {
  const thread = request.thread !== null ? { thread: request.thread } : {};
  if (request.verb === 'approval') {
    return {
      verb: 'approval',
      request: {
        command: request.command,
        line: request.line,
        pattern: request.pattern,
        directory: request.directory,
        level: request.level,
        reasons: request.reasons,
        ...thread,
        ...(request.ask !== null ? { ask: request.ask } : {}),
      },
    };
  }
  return { verb: 'inquiry', request: { question: request.question, ...(request.schema ? { schema: request.schema } : {}), ...thread } };
}

/** The answer file's body: an approval is answered with a decision (`no` refuses), an inquiry with text or declined. */
function answerBody(request: QueueRequest, result: DialogResult): AnswerBody | undefined {
  switch (result.kind) {
    case 'approved':
      return request.verb === 'approval' ? { decision: result.scope } : undefined;
    case 'answered':
      return request.verb === 'inquiry' ? { text: result.text } : undefined;
    case 'declined':
      return request.verb === 'approval' ? { decision: 'no' } : { declined: true };
    case 'unanswered':
    case 'closed':
      return undefined;
  }
}

/** What the person is told about their answer: its fate as the queue's record has it (queue/protocol.ts). */
function pickupWords(what: string, fate: Fate): string {
  switch (fate) {
    case 'taken':
      return what;
    case 'recorded':
      return `${what}; recorded for the asker to collect`;
    case 'exists':
    case 'other':
      return `${what}, but it was ${ANSWERED_ELSEWHERE} first; your answer was not used`;
    case 'ended':
      return `${what}, but the request was withdrawn before the answer was taken`;
    case 'asker-gone':
      return `${what}, but the asking process is gone; your answer was not used`;
    case 'not-taken':
      return `${what}, but the asking process did not take the answer`;
    case 'refused':
      return `${what}, but the asking process refused the answer`;
    case 'unknown':
      return `${what}; whether the asking process took it cannot be told (see wisp logs)`;
  }
}
