// Who takes which answer, and how every answerer learns the truth about its own (ADR 0026, superseding the claim
// section of ADR 0005). The files of one request `<id>` in the pending directory:
//
//   <id>.request.json           the request; written and removed by the asker (or swept once the asker is gone)
//   <id>.answer.<nonce>.json    one per answer, under a name only its writer uses (a random 128-bit nonce);
//                               its writer creates it and is the only answerer that ever removes it
//   .<id>.taken.json            the record: a hard link the asker makes to the one answer it takes, created with
//                               link(), which fails if the name exists — so there is at most one, and it never changes
//
// The asker takes answer n by link(answer n → record). An answerer takes its answer back by unlinking its own name.
// These two are the only operations that decide an answer's fate, and they exclude each other on one name: once the
// name is gone the link fails (ENOENT), and once the link is made the record holds the answer whatever happens to
// the name. So an answerer that has removed its own name (or found it removed) reads the record once and knows for
// good: the record holds its bytes → taken; anything else → not taken, and never will be. No answerer renames, moves
// or deletes a file another answerer wrote; nobody but the asker creates the record.
//
// Each party is written as a generator that yields a label *before* every file operation. Production code runs them
// straight through (`runSteps`, or `runStepsAsync` which sleeps on `wait`); tests drive them one operation at a time
// to stop one party between any two file operations and run another (test/escalation/queue-interleave.test.ts).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { answerPath, readAnswerFile, requestPath, takenPath, type QueueAnswer, type QueueRequest } from './files.js';

/** A pause point: the file operation about to happen, or `wait` (nothing to do until another party acts). */
export type Step = string;
export type Steps<T> = Generator<Step, T, void>;

/** Runs a party's steps to the end, synchronously (the asker: a gate decision must not yield to other actions). */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs a party's steps to the end, sleeping `pollMs` at each `wait`. */
export async function runStepsAsync<T>(steps: Steps<T>, pollMs: number): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (r.value === 'wait') await new Promise((res) => setTimeout(res, pollMs));
  }
}

function errno(err: unknown): string | undefined {
  return err !== null && typeof err === 'object' && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}

function exists(path: string): boolean {
  try {
    fs.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** unlink, where "already gone" is fine; true when this call removed it. */
function unlinkQuiet(path: string): boolean {
  try {
    fs.unlinkSync(path);
    return true;
  } catch (err) {
    const code = errno(err);
    if (code === 'ENOENT') return false;
    if (code === 'EISDIR' || code === 'EPERM') {
      fs.rmSync(path, { recursive: true, force: true }); // something planted under the name must not wedge the queue
      return true;
    }
    throw err;
  }
}

const ANSWER_NAME = /^([A-Za-z0-9][A-Za-z0-9_-]{0,63})\.answer\.([0-9a-f]{32})\.json$/;

export interface AnswerName {
  readonly name: string;
  readonly nonce: string;
  readonly mtimeMs: number;
}

/** The answer files of one request, oldest first (then by name), so "first answer wins" among those present. */
export function listAnswers(dir: string, id: string): AnswerName[] {
  const out: AnswerName[] = [];
  for (const name of fs.readdirSync(dir)) {
    const m = ANSWER_NAME.exec(name);
    if (!m || m[1] !== id) continue;
    try {
      out.push({ name, nonce: m[2]!, mtimeMs: fs.lstatSync(join(dir, name)).mtimeMs });
    } catch {
      // taken back meanwhile
    }
  }
  return out.sort((a, b) => a.mtimeMs - b.mtimeMs || a.name.localeCompare(b.name));
}

export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

// ---------------------------------------------------------------------------------------------------------------
// The asker

export type TakeResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'taken'; readonly answer: QueueAnswer }
  /** The record existed already, or what it holds is not an answer this asker accepts: fail closed, take nothing. */
  | { readonly kind: 'conflict'; readonly reason: string };

export interface TakeChecks {
  /** Why this answer does not fit the request held in memory, or undefined when it does. */
  readonly mismatch: (answer: QueueAnswer, nonce: string) => string | undefined;
  /** An answer that was refused (audited by the caller); its file is removed by the asker. */
  readonly onRefused: (reason: string, answer: QueueAnswer | undefined) => void;
}

/**
 * One look for an answer: the oldest acceptable answer is taken by linking it to the record; a refused one is
 * removed. After a take the request and every other answer file of it are removed (their writers find out from the
 * record, or from the request being gone, and never from a file someone moved).
 */
export function* takeSteps(dir: string, request: QueueRequest, checks: TakeChecks): Steps<TakeResult> {
  const id = request.id;
  yield 'scan-answers';
  const candidates = listAnswers(dir, id);
  for (const c of candidates) {
    const path = join(dir, c.name);
    yield 'read-answer';
    const read = readAnswerFile(path);
    if (!read.ok && read.code === 'missing') continue; // its writer took it back
    const problem = read.ok ? checks.mismatch(read.value, c.nonce) : `answer file refused: ${read.reason}`;
    if (!read.ok || problem !== undefined) {
      checks.onRefused(problem ?? 'refused', read.ok ? read.value : undefined);
      yield 'remove-refused';
      unlinkQuiet(path);
      continue;
    }
    yield 'link-record';
    try {
      fs.linkSync(path, takenPath(dir, id));
    } catch (err) {
      const code = errno(err);
      if (code === 'ENOENT') continue; // taken back between our read and the link: not ours to take
      if (code === 'EEXIST') {
        yield* withdrawSteps(dir, id);
        return { kind: 'conflict', reason: 'a record of a taken answer already existed (written by another process)' };
      }
      throw err;
    }
    let answer = read.value;
    yield 'check-record';
    // The record must hold what was read and checked; only a process meddling with the files can make it differ.
    // Gone already: the writer whose bytes it held has read it and tidied up — bytes equal to what was checked.
    const recorded = readAnswerFile(takenPath(dir, id));
    if (!(recorded.ok ? recorded.ino === read.ino : recorded.code === 'missing')) {
      const why = recorded.ok ? checks.mismatch(recorded.value, c.nonce) : `record refused: ${recorded.reason}`;
      if (!recorded.ok || why !== undefined) {
        yield* withdrawSteps(dir, id);
        return { kind: 'conflict', reason: `the answer changed while it was taken (${why ?? 'unknown'})` };
      }
      answer = recorded.value;
    }
    yield* withdrawSteps(dir, id);
    return { kind: 'taken', answer };
  }
  return { kind: 'none' };
}

/**
 * Ends the request: removes the request file, then every answer file of it. Answers still there were not taken
 * (the record, if any, holds the one that was). True when this call removed the request file.
 */
export function* withdrawSteps(dir: string, id: string): Steps<boolean> {
  yield 'remove-request';
  const removed = unlinkQuiet(requestPath(dir, id));
  yield 'scan-leftovers';
  for (const a of listAnswers(dir, id)) {
    yield 'remove-leftover';
    unlinkQuiet(join(dir, a.name));
  }
  return removed;
}

// ---------------------------------------------------------------------------------------------------------------
// An answerer

export type Fate =
  /** The record holds this answer: the asker took it and acts on it. */
  | 'taken'
  /** A deferred request: the answer waits in the queue for the asker to collect it. */
  | 'recorded'
  /** Another answer was already there (or the request already decided); this one was not written. */
  | 'exists'
  /** The asker took another answer. */
  | 'other'
  /** The request ended (withdrawn, timed out, swept) before this answer was taken. */
  | 'ended'
  /** The asking process is gone; it can never take the answer. */
  | 'asker-gone'
  /** The wait ran out; the answer was taken back before the asker took it. */
  | 'not-taken'
  /** The asker removed this answer without taking it (it did not fit the request it holds). */
  | 'refused'
  /** The record was swept before this answerer could read it (it was suspended for a very long time). */
  | 'unknown';

export interface AnswerClock {
  /** The answerer has waited long enough for a waiting asker: take the answer back. */
  readonly windowOver: () => boolean;
  /** Is the asking process still there? */
  readonly askerAlive: () => boolean;
  /** So long since the answer was written that a record may have been swept: absence proves nothing any more. */
  readonly recordMayBeSwept: () => boolean;
}

/**
 * Writes `answer` (which carries its nonce) and follows it to its fate. Every report is read from the record after
 * the answer's own name is gone (removed here, or by the asker), so nothing can change it afterwards.
 */
export function* answerSteps(dir: string, request: QueueRequest, answer: QueueAnswer, clock: AnswerClock): Steps<Fate> {
  const id = request.id;
  const mine = answerPath(dir, id, answer.nonce);
  const bytes = Buffer.from(JSON.stringify(answer, null, 2) + '\n', 'utf8');
  const record = takenPath(dir, id);

  yield 'scan-answers';
  // Best effort, for the person's sake: a second answer to the same request is refused while the first waits.
  if (exists(record) || listAnswers(dir, id).length > 0) return 'exists';
  const tmp = join(dir, `.${id}.answer.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  yield 'write-temp';
  fs.writeFileSync(tmp, bytes, { mode: 0o600, flag: 'wx' });
  yield 'link-answer';
  try {
    fs.linkSync(tmp, mine);
  } finally {
    yield 'remove-temp';
    unlinkQuiet(tmp);
  }

  // Our name is gone (or was removed just now): the record decides, once and for all.
  const verdict = function* (notTaken: Fate): Steps<Fate> {
    yield 'read-record';
    const held = readRecordBytes(record);
    if (held !== undefined && held.equals(bytes)) {
      yield 'remove-record'; // only the taken answer's writer needs it: tidy up
      unlinkQuiet(record);
      return 'taken';
    }
    if (held !== undefined) return 'other';
    return clock.recordMayBeSwept() ? 'unknown' : notTaken;
  };
  const takeBack = function* (notTaken: Fate): Steps<Fate> {
    yield 'take-back';
    unlinkQuiet(mine);
    return yield* verdict(notTaken);
  };

  for (;;) {
    yield 'read-record';
    if (readRecordBytes(record) !== undefined) return yield* takeBack('other');
    yield 'stat-answer';
    if (!exists(mine)) {
      // Removed by the asker (after taking it, or refusing it) or by a sweep of an ended request.
      const fate = yield* verdict('ended');
      if (fate !== 'ended') return fate;
      yield 'stat-request';
      return exists(requestPath(dir, id)) ? 'refused' : 'ended';
    }
    yield 'stat-request';
    if (!exists(requestPath(dir, id))) return yield* takeBack('ended');
    if (request.mode === 'deferred') return 'recorded';
    yield 'probe-asker';
    if (!clock.askerAlive()) return yield* takeBack('asker-gone');
    if (clock.windowOver()) return yield* takeBack('not-taken');
    yield 'wait';
  }
}

/** The record's bytes, or undefined when there is none (or it is not a plain file of ours). */
function readRecordBytes(path: string): Buffer | undefined {
  const read = readAnswerFile(path);
  return read.ok ? read.bytes : undefined;
}
