// The answering side of the queue (ADR 0005, ADR 0062): what every answerer — `wisp approvals|inquiries` and a
// running `wisp chat` — does with other processes' requests: look at the directory (sweeping the stale first), tell
// why a shown request left it, and write an answer and follow it to its fate (protocol.ts). An answerer never moves
// a file the asker owns; the asker writes the only record of which answer it took.
import * as fs from 'node:fs';
import type { AuditContext, AuditSink } from '../../audit/kinds.js';
import type { WispPaths } from '../../core/paths.js';
import { INQUIRY_ANSWER_MAX_BYTES } from '../types.js';
import { answerExists, pendingDir, QueueError, type Decision, type QueueAnswer, type QueueRequest } from './files.js';
import { processAlive, RECORD_GRACE_MS, scanDir, staleCause, staleReason, sweepable, type ScanResult } from './scan.js';
import { answerSteps, newNonce, runSteps, runStepsAsync, withdrawSteps, type Fate, type Steps } from './protocol.js';


export interface SweptRequest {
  readonly id: string;
  readonly reason: string;
}

/**
 * Removes stale requests a sweep may remove (their asker is gone, or long expired: see `sweepable`) with their
 * answers — each audited `escalation.settled` outcome `stale` — and files nobody will use again: answers and records
 * of ended requests, temp files of writers that are gone (each past its grace period). A missing directory has
 * nothing to sweep; an unsafe one throws.
 */
export function sweepStale(paths: WispPaths, audit: AuditSink, ctx: AuditContext = { session: 'queue-sweep' }): SweptRequest[] {
  return lookAtQueue(paths, { audit, ctx }).swept;
}

/** What a person's look at the queue finds: the directory's picture (files.ts) and what this look swept. */
export interface QueueView extends ScanResult {
  readonly swept: SweptRequest[];
}

/**
 * The one look every answerer takes at the queue (`wisp approvals|inquiries pending`, the chat's watch): one scan,
 * then the stale requests a sweep may remove are removed with their answers — each audited `escalation.settled`
 * outcome `stale`, once — with files nobody will use again (answers and records of ended requests, temp files of
 * gone writers, each past its grace period). Without `sweeper` nothing is removed (a look that cannot audit does
 * not sweep). A missing directory is an empty queue; an unsafe one throws.
 */
export function lookAtQueue(paths: WispPaths, sweeper?: { readonly audit: AuditSink; readonly ctx: AuditContext }): QueueView {
  const dir = pendingDir(paths, { create: false });
  if (!dir) return { live: [], stale: [], refused: [], orphans: [], swept: [] };
  const scan = scanDir(dir);
  const swept: SweptRequest[] = [];
  if (sweeper) {
    for (const { request, reason, sweep } of scan.stale) {
      if (sweep && sweepRequest(dir, request, reason, sweeper.audit, sweeper.ctx)) swept.push({ id: request.id, reason });
    }
    for (const file of scan.orphans) fs.rmSync(file, { force: true, recursive: true }); // a planted directory too
  }
  return { ...scan, swept };
}

/**
 * Why a request a person was shown is no longer in the queue: its time ran out or its asker is gone (the one
 * staleness rule, staleCause), else another answer ended it.
 */
export function whyGone(request: QueueRequest, now: number = Date.now()): 'expired' | 'asker-gone' | 'answered-elsewhere' {
  return staleCause(request, now) ?? 'answered-elsewhere';
}

/** Why an answer to this request can no longer decide anything, or undefined while it can. */
export type Closed = { readonly closed: 'stale'; readonly cause: 'expired' | 'asker-gone'; readonly reason: string } | { readonly closed: 'answered' };

/**
 * Checked by every answerer before it asks a person to confirm and again before it writes: a stale request is
 * closed (and swept here when a sweep may remove it — a live asker ends its own expired request), and so is one
 * that already holds an answer.
 */
export function closedToAnswers(
  dir: string,
  request: QueueRequest,
  sweeper: { readonly audit: AuditSink; readonly ctx: AuditContext } | undefined,
  now: number = Date.now(),
): Closed | undefined {
  const cause = staleCause(request, now);
  if (cause !== undefined) {
    const reason = staleReason(request, now) ?? cause;
    if (sweeper && sweepable(request, now)) sweepRequest(dir, request, reason, sweeper.audit, sweeper.ctx);
    return { closed: 'stale', cause, reason };
  }
  return answerExists(dir, request.id) ? { closed: 'answered' } : undefined;
}

/**
 * Audits a request file a look refused (tampered, half-written, oversized, a link, named for another id): the same
 * record an answer to it would write. The caller audits each file once per process: a watch looks every 250 ms.
 */
export function auditRefusedFile(audit: AuditSink, ctx: AuditContext, bad: { readonly id: string; readonly file: string; readonly reason: string }): void {
  audit.write('escalation.settled', { channel: 'queue', escalationId: bad.id, outcome: 'refused', reason: `request file refused: ${bad.reason}`, file: bad.file }, ctx);
}

/** Removes one stale request and its answers; audits it once (false: someone else removed it first). */
export function sweepRequest(dir: string, request: QueueRequest, reason: string, audit: AuditSink, ctx: AuditContext): boolean {
  if (!runSteps(withdrawSteps(dir, request.id))) return false;
  audit.write(
    'escalation.settled',
    { channel: 'queue', escalationId: request.id, verb: request.verb, outcome: 'stale', reason, askerPid: request.pid },
    { session: ctx.session, ...(request.thread ? { thread: request.thread } : {}) },
  );
  return true;
}

/** Live requests (never stale ones), oldest first; refused files are left out (see `scanPending`). */
export function listPending(paths: WispPaths, verb?: 'approval' | 'inquiry'): QueueRequest[] {
  return scanPending(paths).live.filter((r) => verb === undefined || r.verb === verb);
}

/** The directory's whole picture without sweeping (lookAtQueue without a sweeper). */
export function scanPending(paths: WispPaths): ScanResult {
  return lookAtQueue(paths);
}

export type AnswerBody = { readonly decision: Decision } | { readonly text: string } | { readonly declined: true };

export interface AnswerOptions {
  readonly via: string;
  readonly answeredBy?: string;
  readonly now?: () => number;
  /** How long to wait for a waiting asker to take the answer before taking it back (default 5000 ms). */
  readonly waitMs?: number;
  /** Polling interval while waiting (default 10 ms). */
  readonly pollMs?: number;
}

/** The answer file's content for a verified request; `binding` is the one that was shown. */
export function answerFor(request: QueueRequest, body: AnswerBody, opts: AnswerOptions): QueueAnswer {
  if ('text' in body && Buffer.byteLength(body.text, 'utf8') > INQUIRY_ANSWER_MAX_BYTES) {
    throw new QueueError(`the answer is longer than ${INQUIRY_ANSWER_MAX_BYTES} bytes`);
  }
  return {
    id: request.id,
    nonce: newNonce(),
    binding: request.binding,
    ...body,
    via: opts.via,
    ...(opts.answeredBy !== undefined ? { answeredBy: opts.answeredBy } : {}),
    pid: process.pid,
    answeredAt: new Date((opts.now ?? Date.now)()).toISOString(),
  };
}

function answeringDir(paths: WispPaths, request: QueueRequest): string {
  const dir = pendingDir(paths, { create: false });
  if (!dir) throw new QueueError(`no pending request ${request.id}`);
  return dir;
}

/**
 * The answerer's steps for a verified request (the caller has checked and shown it), ending in the answer's fate
 * (queue/protocol.ts). Every `Fate` but `taken` and `recorded` means this answer decided nothing.
 */
export function answerStepsFor(paths: WispPaths, request: QueueRequest, body: AnswerBody, opts: AnswerOptions): Steps<Fate> {
  const dir = answeringDir(paths, request);
  const now = opts.now ?? Date.now;
  const start = now();
  const waitMs = opts.waitMs ?? 5000;
  return answerSteps(dir, request, answerFor(request, body, opts), {
    windowOver: () => now() - start >= waitMs,
    askerAlive: () => processAlive(request.pid),
    recordMayBeSwept: () => now() - start >= RECORD_GRACE_MS / 2,
  });
}

/** Writes the answer and follows it to its fate: what the answering person is told. */
export function answerAndFollow(paths: WispPaths, request: QueueRequest, body: AnswerBody, opts: AnswerOptions): Promise<Fate> {
  return runStepsAsync(answerStepsFor(paths, request, body, opts), opts.pollMs ?? 10);
}

/**
 * Writes the answer and leaves it there, without following it (tests, and answerers that learn the outcome
 * otherwise). ok:false means another answer was already waiting (or the request was decided).
 */
export function answerRequest(
  paths: WispPaths,
  request: QueueRequest,
  body: AnswerBody,
  opts: AnswerOptions,
): { ok: true; nonce: string } | { ok: false; reason: 'exists' } {
  const answer = answerFor(request, body, opts);
  const steps = answerSteps(answeringDir(paths, request), request, answer, {
    windowOver: () => false,
    askerAlive: () => true,
    recordMayBeSwept: () => false,
  });
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value === 'exists' ? { ok: false, reason: 'exists' } : { ok: true, nonce: answer.nonce };
    if (r.value === 'read-record') {
      steps.return('recorded'); // written and linked: stop following it here
      return { ok: true, nonce: answer.nonce };
    }
  }
}
