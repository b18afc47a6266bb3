// Answering a queued request from a terminal: the engine behind `wisp approvals approve|deny` and
// `wisp inquiries answer|decline` (design.md §5, ADR 0005). Kept out of commands/ so the commands stay thin and
// a running `wisp chat` can reuse the same steps.
import type { AuditContext, AuditSink } from '../audit/kinds.js';
import type { WispPaths } from '../paths.js';
import { visible } from '../display/visible.js';
import { UsageError, WispError } from '../util/errors.js';
import { answerRequest, awaitPickup, type AnswerBody, type PickupResult } from './queue.js';
import { describeRequest, formatDuration } from './queue-display.js';
import {
  answerExists,
  claimAnswer,
  pendingDir,
  QUEUE_ID_PATTERN,
  readRequest,
  removeRequest,
  staleReason,
  type QueueRequest,
} from './queue-files.js';
import { INQUIRY_ANSWER_MAX_BYTES } from './types.js';

export interface TerminalAnswer {
  readonly paths: WispPaths;
  readonly audit: AuditSink;
  readonly ctx: AuditContext;
  readonly id: string;
  readonly verb: 'approval' | 'inquiry';
  readonly body: AnswerBody;
  /** `process.stdin.isTTY`: answers are taken only from a terminal. */
  readonly stdinIsTTY: boolean;
  /** Where the request and the result are printed (stdout). */
  readonly print: (text: string) => void;
  /** How long to wait for the asking process to take the answer (default 3000 ms). */
  readonly pickupMs?: number;
}

function command(verb: 'approval' | 'inquiry'): string {
  return verb === 'approval' ? 'wisp approvals' : 'wisp inquiries';
}

/**
 * Checks, shows, answers and waits for pick-up. Resolves with the pick-up result on success (`taken`, or
 * `recorded` for a deferred request); throws a WispError (exit 1; 64 for a malformed id or over-long text)
 * with the reason otherwise — nothing is left answered when it throws.
 */
export async function answerFromTerminal(a: TerminalAnswer): Promise<PickupResult> {
  const shownId = visible(a.id, { maxChars: 80 });
  if (!a.stdinIsTTY) {
    throw new WispError(
      `refusing to answer ${shownId}: standard input is not a terminal. Answers must come from a person at a ` +
        `keyboard — an agent must never answer its own escalations. Run the command yourself in a terminal.`,
    );
  }
  if (!QUEUE_ID_PATTERN.test(a.id)) throw new UsageError(`not a request id: ${shownId}`);
  if ('text' in a.body && Buffer.byteLength(a.body.text, 'utf8') > INQUIRY_ANSWER_MAX_BYTES) {
    throw new UsageError(`the answer is longer than ${INQUIRY_ANSWER_MAX_BYTES} bytes; shorten it`);
  }
  const unknown = `no pending request ${a.id}: it was answered, withdrawn or expired, or never existed (see ${command(a.verb)} pending)`;
  const dir = pendingDir(a.paths, { create: false });
  if (!dir) throw new WispError(unknown);

  const read = readRequest(dir, a.id);
  if (!read.ok) {
    if (read.code === 'missing') throw new WispError(unknown);
    a.audit.write(
      'escalation.settled',
      { channel: 'queue', escalationId: a.id, outcome: 'refused', reason: `request file refused: ${read.reason}` },
      a.ctx,
    );
    throw new WispError(`refusing to answer ${a.id}: its request file is not trustworthy: ${read.reason}`);
  }
  const req = read.value;
  if (req.verb !== a.verb) {
    throw new WispError(
      req.verb === 'inquiry'
        ? `${a.id} is a question, not an approval: answer it with wisp inquiries answer ${a.id} TEXT (or decline ${a.id})`
        : `${a.id} is an approval, not a question: answer it with wisp approvals approve ${a.id} (or deny ${a.id})`,
    );
  }
  const stale = staleReason(req);
  if (stale !== undefined) {
    if (removeRequest(dir, req.id)) {
      claimAnswer(dir, req.id);
      a.audit.write(
        'escalation.settled',
        { channel: 'queue', escalationId: req.id, verb: req.verb, outcome: 'stale', reason: stale, askerPid: req.pid },
        a.ctx,
      );
    }
    throw new WispError(`${a.id} is stale (${stale}); nothing was answered`);
  }
  if (answerExists(dir, req.id)) throw new WispError(`${a.id} was already answered elsewhere`);

  a.print(describeRequest(req) + '\n');
  if (req.verb === 'approval' && req.level === 'dangerous' && 'decision' in a.body) {
    if (a.body.decision === 'project' || a.body.decision === 'always') {
      a.print(`  note: a dangerous command is never remembered beyond this session; ${a.body.decision} becomes session\n`);
    }
  }

  const written = answerRequest(a.paths, req, a.body, { via: 'cli', answeredBy: 'human' });
  if (!written.ok) throw new WispError(`${a.id} was already answered elsewhere`);
  const result = await awaitPickup(a.paths, req, written.ino, { waitMs: a.pickupMs ?? 3000 });
  return report(a, req, result);
}

function verdict(body: AnswerBody): string {
  if ('decision' in body) return body.decision === 'no' ? 'denied' : `approved (${body.decision})`;
  if ('declined' in body) return 'declined';
  return 'answered';
}

function report(a: TerminalAnswer, req: QueueRequest, result: PickupResult): PickupResult {
  const who = `${visible(req.client, { maxChars: 80 })} (pid ${req.pid})`;
  switch (result) {
    case 'taken':
      a.print(`${verdict(a.body)}: ${req.id} — ${who} took the answer\n`);
      return result;
    case 'recorded': {
      const left = req.expiresAt === null ? '' : `, within ${formatDuration(Date.parse(req.expiresAt) - Date.now())}`;
      a.print(`${verdict(a.body)}: ${req.id} — recorded; ${who} collects it when it next checks${left}\n`);
      return result;
    }
    case 'withdrawn':
      throw new WispError(
        `${req.id} was withdrawn before your answer was taken (the asking process stopped waiting or was answered ` +
          `elsewhere); nothing was decided`,
      );
    case 'not-taken':
      throw new WispError(
        `${who} did not take the answer within ${Math.round((a.pickupMs ?? 3000) / 1000)} s; your answer was taken ` +
          `back and nothing was decided. Check ${command(req.verb)} pending and answer again.`,
      );
    case 'refused':
      throw new WispError(`${who} refused the answer (see wisp logs --kind escalation.settled); nothing was decided`);
  }
}
