// Answering a queued request from a terminal: the engine behind `wisp approvals approve|deny` and
// `wisp inquiries answer|decline` (design.md §5, ADR 0005). What is terminal-only lives here (the id as typed, the
// printout, the confirmation, the words of each fate); the checks and the answer itself are answerer.ts's, the same
// functions the chat's watch uses.
import type { AuditContext, AuditSink } from '../../audit/kinds.js';
import type { WispPaths } from '../../core/paths.js';
import { visible } from '../../core/visible.js';
import { UsageError, WispError } from '../../core/errors.js';
import { answerAndFollow, closedToAnswers, type AnswerBody } from './answerer.js';
import { describeRequest, formatDuration } from './display.js';
import { pendingDir, QUEUE_ID_PATTERN, readRequest, type QueueRequest } from './files.js';
import type { Fate } from './protocol.js';
import { INQUIRY_ANSWER_MAX_BYTES } from '../types.js';

export interface TerminalAnswer {
  readonly paths: WispPaths;
  readonly audit: AuditSink;
  readonly ctx: AuditContext;
  readonly id: string;
  readonly verb: 'approval' | 'inquiry';
  readonly body: AnswerBody;
  /** `process.stdin.isTTY`: answers are taken only from a terminal (`--yes` does not change that). */
  readonly stdinIsTTY: boolean;
  /** Where the request and the result are printed (stdout). */
  readonly print: (text: string) => void;
  /**
   * Asks the person, after the request was printed, whether to write the answer; resolves true only on an explicit
   * yes. Absent: answered without asking (`--yes`).
   */
  readonly confirm?: (question: string) => Promise<boolean>;
  /** How long to wait for a waiting asker to take the answer before taking it back (default 5000 ms). */
  readonly pickupMs?: number;
}

/** What was answered, and whether the answer is in force. */
export type AnswerReport = 'taken' | 'recorded';

function command(verb: 'approval' | 'inquiry'): string {
  return verb === 'approval' ? 'wisp approvals' : 'wisp inquiries';
}

/**
 * Checks, shows, confirms, answers and follows the answer to its fate (queue/protocol.ts). Resolves with `taken`,
 * or `recorded` for a deferred request; throws a WispError (exit 1; 64 for a malformed id or over-long text) with
 * the reason otherwise — and then the answer decided nothing.
 */
export async function answerFromTerminal(a: TerminalAnswer): Promise<AnswerReport> {
  const shownId = visible(a.id, { maxChars: 80 });
  if (!a.stdinIsTTY) {
    throw new WispError(
      `refusing to answer ${shownId}: standard input is not a terminal. Answers must come from a person at a ` +
        `keyboard — an agent must never answer its own escalations. Run the command yourself in a terminal.`,
    );
  }
  if (!QUEUE_ID_PATTERN.test(a.id)) throw new UsageError(`not a request id: ${shownId}`);
  if ('text' in a.body && a.body.text.trim() === '') {
    // The chat's field and the MCP form take no blank answer either: it would reach the model as the person's words.
    throw new UsageError(`the answer is empty: type one, or decline the question (wisp inquiries decline ${shownId})`);
  }
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
  const closed = closedToAnswers(dir, req, { audit: a.audit, ctx: a.ctx });
  if (closed?.closed === 'stale') throw new WispError(`${a.id} is stale (${closed.reason}); nothing was answered`);
  if (closed?.closed === 'answered') throw new WispError(`${a.id} was already answered elsewhere`);

  if ('text' in a.body && req.verb === 'inquiry' && req.schema !== undefined) {
    // The chat's form and the MCP dialog check a typed answer against the model's schema; so does this answerer,
    // before anything is shown, asked or written (ADR 0097). Loaded here only: ajv is not light.
    const { answerProblem } = await import('../answer-schema.js');
    const problem = answerProblem(req.schema, a.body.text);
    if (problem !== undefined) {
      a.audit.write(
        'escalation.settled',
        { channel: 'queue', escalationId: req.id, verb: 'inquiry', outcome: 'refused', via: 'cli', reason: `answer refused: ${problem}` },
        { ...a.ctx, ...(req.thread ? { thread: req.thread } : {}) },
      );
      throw new UsageError(
        `refusing the answer to ${req.id}: ${visible(problem, { maxChars: 400 })}. Answer with JSON matching ` +
          `${visible(JSON.stringify(req.schema), { maxChars: 600 })}; nothing was answered, ${req.id} is still waiting.`,
      );
    }
  }
  a.print(describeRequest(req) + '\n');
  if (req.verb === 'approval' && req.level === 'dangerous' && 'decision' in a.body) {
    if (a.body.decision === 'project' || a.body.decision === 'always') {
      a.print(`  note: a dangerous command is never remembered beyond this session; ${a.body.decision} becomes session\n`);
    }
  }
  if (a.confirm && !(await a.confirm(question(a.body, req)))) {
    throw new WispError(`not confirmed: nothing was answered; ${a.id} is still waiting (see ${command(a.verb)} pending)`);
  }

  const fate = await answerAndFollow(a.paths, req, a.body, { via: 'cli', answeredBy: 'human', waitMs: a.pickupMs ?? 5000 });
  return report(a, req, fate);
}

/** The confirmation asked after the request is shown: says exactly what will be written. */
function question(body: AnswerBody, req: QueueRequest): string {
  if ('decision' in body) {
    return body.decision === 'no' ? 'Deny this command? [y/N] ' : `Approve this command (${scopeWords(body.decision, req)})? [y/N] `;
  }
  if ('declined' in body) return 'Decline this question? [y/N] ';
  return 'Send this answer? [y/N] ';
}

function seconds(ms: number): string {
  return ms < 10_000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000));
}

/**
 * The scope as it will be kept, not only as it was asked for: the person must not be told a dangerous command was
 * approved "always" when the asker keeps it for its session only (ADR 0094).
 */
function scopeWords(decision: string, req: QueueRequest): string {
  const broad = decision === 'project' || decision === 'always';
  return broad && req.verb === 'approval' && req.level === 'dangerous' ? `${decision}, kept for this session only` : decision;
}

function verdict(body: AnswerBody, req: QueueRequest): string {
  if ('decision' in body) return body.decision === 'no' ? 'denied' : `approved (${scopeWords(body.decision, req)})`;
  if ('declined' in body) return 'declined';
  return 'answered';
}

function report(a: TerminalAnswer, req: QueueRequest, fate: Fate): AnswerReport {
  const who = `${visible(req.client, { maxChars: 80 })} (pid ${req.pid})`;
  const nothing = 'your answer decided nothing';
  switch (fate) {
    case 'taken':
      a.print(`${verdict(a.body, req)}: ${req.id} — ${who} took the answer\n`);
      return fate;
    case 'recorded': {
      const left = req.expiresAt === null ? '' : `, within ${formatDuration(Date.parse(req.expiresAt) - Date.now())}`;
      a.print(`${verdict(a.body, req)}: ${req.id} — recorded; ${who} collects it when it next checks${left}\n`);
      return fate;
    }
    case 'exists':
      throw new WispError(`${req.id} was already answered elsewhere; ${nothing}`);
    case 'other':
      throw new WispError(`${req.id} was answered elsewhere first and ${who} took that answer; ${nothing}`);
    case 'ended':
      throw new WispError(
        `${req.id} ended before your answer was taken (another answer was taken, or the asking process stopped ` +
          `waiting, or the request was withdrawn or swept); ${nothing}`,
      );
    case 'asker-gone':
      throw new WispError(`${who} is gone, so it can never take the answer; ${nothing}`);
    case 'not-taken':
      throw new WispError(
        `${who} did not take the answer within ${seconds(a.pickupMs ?? 5000)} s; your answer was taken ` +
          `back and decided nothing. Check ${command(req.verb)} pending and answer again.`,
      );
    case 'refused':
      throw new WispError(`${who} refused the answer (see wisp logs --kind escalation.settled); ${nothing}`);
    case 'unknown':
      throw new WispError(
        `cannot tell whether ${who} took your answer: its record was swept while this command was suspended; ` +
          `see wisp logs --kind escalation.answered`,
      );
  }
}
