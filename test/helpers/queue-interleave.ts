// Deterministic interleavings of the queue protocol (ADR 0026): one asker and two answerers, each written as steps
// that pause before every file operation (src/escalation/queue/protocol.ts). A scheduler stops one party between
// any two of its file operations and runs another, and explores every schedule with up to `bound` preemptions:
// with 1, for every step of every party, a schedule where it is paused just before that step while each other party
// runs on (until it has to wait); with 2 (the stress run), also paused while another runs through any one of its
// steps and no further. Timeouts are choices too. After each schedule the asker has applied at most one answer,
// every answerer's report agrees with it, and nothing is left behind.
// Used by test/escalation/queue-interleave.test.ts (bound 1) and test/stress/queue.stress.test.ts (bound 2).
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { answerFor, type AnswerBody } from '../../src/escalation/queue/answerer.js';
import { QueueChannel, type Held } from '../../src/escalation/queue/asker.js';
import { requestExists, writeAnswerFile } from '../../src/escalation/queue/files.js';
import { answerSteps, withdrawSteps, type Fate, type Step, type Steps } from '../../src/escalation/queue/protocol.js';
import type { EscalationOutcome } from '../../src/escalation/types.js';
import { wispPaths, type WispPaths } from '../../src/core/paths.js';


// Operations that change the directory: after one, a waiting party has something new to look at.
const MUTATING = new Set([
  'write-temp',
  'link-answer',
  'remove-temp',
  'take-back',
  'remove-record',
  'remove-refused',
  'link-record',
  'remove-request',
  'remove-leftover',
]);

/** Replays a path of choices, extending it with first options; `next()` moves to the following unexplored path. */
class Chooser {
  private readonly counts: number[] = [];
  private at = 0;
  constructor(readonly path: number[]) {}
  choose(n: number): number {
    if (n <= 1) return 0;
    if (this.at < this.path.length) {
      this.counts[this.at] = n;
      return this.path[this.at++]!;
    }
    this.path.push(0);
    this.counts[this.at++] = n;
    return 0;
  }
  nextPath(): number[] | undefined {
    for (let k = this.path.length - 1; k >= 0; k--) {
      if (this.path[k]! + 1 < this.counts[k]!) return [...this.path.slice(0, k), this.path[k]! + 1];
    }
    return undefined;
  }
}

interface Party<T> {
  readonly name: string;
  readonly steps: Steps<T>;
  pending?: Step;
  waiting: boolean;
  done: boolean;
  result?: T;
  trace: string[];
}

/** A scratch directory for the runs (on tmpfs when there is one: thousands of runs, each a few dozen file ops). */
export function scratchRoot(): string {
  return fs.mkdtempSync(join(fs.existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'wisp-interleave-'));
}

const escalation = (home: string) =>
  ({ verb: 'approval', request: { command: 'touch x', line: 'touch x', pattern: 'touch *', directory: home, level: 'moderate', reasons: [] } }) as const;

/** The waiting asker, as QueueChannel.raise runs it: look, check the request, wait; at its timeout one last look. */
function* waitingAsker(channel: QueueChannel, held: Held, paths: WispPaths, timedOut: () => boolean): Steps<EscalationOutcome> {
  const id = held.request.id;
  let ended: EscalationOutcome;
  for (;;) {
    const last = timedOut();
    const outcome = channel.settleTake(held, yield* channel.askerSteps(held));
    if (outcome) return outcome; // taking it ended the request
    if (last) {
      ended = { kind: 'unanswered', waitedMs: 0 };
      break;
    }
    yield 'stat-request';
    if (!requestExists(paths.pending, id)) {
      ended = { kind: 'declined', reason: 'removed' };
      break;
    }
    yield 'wait';
  }
  // raise()'s `finally`: withdraw (the files step by step here; then the channel's bookkeeping, which finds them gone).
  yield* withdrawSteps(paths.pending, id);
  channel.withdraw(id);
  return ended;
}

/** The deferred asker, as the result channel uses it: a look now and then (poll), else withdrawn at expiry. */
function* deferredAsker(channel: QueueChannel, held: Held, paths: WispPaths, expired: () => boolean): Steps<EscalationOutcome> {
  const id = held.request.id;
  for (;;) {
    const last = expired();
    const outcome = channel.settleTake(held, yield* channel.askerSteps(held));
    if (outcome) return outcome;
    if (last) {
      yield* withdrawSteps(paths.pending, id);
      channel.withdraw(id);
      return { kind: 'unanswered', waitedMs: 0 };
    }
    yield 'wait';
  }
}

export interface Scenario {
  readonly mode: 'waiting' | 'deferred';
  /** Answer B is forged (bound to another request): the asker must refuse it. */
  readonly forgedB?: boolean;
  /** At most this many preemptions per schedule (switching away from a party that could go on). */
  readonly bound: number;
}

interface RunResult {
  outcome: EscalationOutcome;
  fates: Record<'A' | 'B', Fate | 'planted'>;
  files: string[];
  planted: string[];
  trace: string;
}

const bodies: Record<'A' | 'B', AnswerBody> = { A: { decision: 'once' }, B: { decision: 'no' } };

function runOnce(root: string, s: Scenario, ch: Chooser, n: number): RunResult {
  const home = join(root, 'home');
  const paths = wispPaths(home);
  if (n === 0) fs.mkdirSync(home, { mode: 0o700, recursive: true });
  if (fs.existsSync(paths.pending)) for (const f of fs.readdirSync(paths.pending)) fs.unlinkSync(join(paths.pending, f)); // what a run may leave
  const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600, client: 'interleave' });
  const held = channel.fileHeld(escalation(home), { session: 's', timeoutMs: 0, escalationId: 'q1' }, s.mode, 600_000);

  const planted: string[] = [];
  let forceDeadlines = false;
  // A timeout may fire at a party's first check (racing everything the others do next), or else once every party
  // waits with nothing left to look at. (Firing at every later check too multiplies the schedules by 2 per check
  // without reaching states these two do not: later checks differ only in what the others have done, which the
  // scheduler already varies.)
  const deadline = () => {
    let over: boolean | undefined;
    return () => {
      if (over === undefined) over = ch.choose(2) === 1;
      return over || forceDeadlines;
    };
  };
  const answerer = (name: 'A' | 'B'): Party<Fate | 'planted'> => {
    let steps: Steps<Fate | 'planted'>;
    if (name === 'B' && s.forgedB) {
      steps = (function* () {
        yield 'link-answer';
        const file = writeAnswerFile(paths.pending, { id: 'q1', binding: 'f'.repeat(64), decision: 'always', via: 'cli', pid: process.pid, answeredAt: new Date().toISOString() });
        planted.push(basename(file));
        return 'planted' as const;
      })();
    } else {
      // The answerer's wait may run out at any of its checks: the chooser decides.
      steps = answerSteps(paths.pending, held.request, answerFor(held.request, bodies[name], { via: 'cli' }), {
        windowOver: deadline(),
        askerAlive: () => true,
        recordMayBeSwept: () => false,
      });
    }
    return { name, steps, waiting: false, done: false, trace: [] };
  };
  const askerDeadline = deadline();
  const asker: Party<EscalationOutcome> = {
    name: 'asker',
    steps: s.mode === 'waiting' ? waitingAsker(channel, held, paths, askerDeadline) : deferredAsker(channel, held, paths, askerDeadline),
    waiting: false,
    done: false,
    trace: [],
  };
  const parties: Array<Party<unknown>> = [asker, answerer('A'), answerer('B')] as Array<Party<unknown>>;
  const trace: string[] = [];

  const advance = (p: Party<unknown>) => {
    const label = p.pending;
    const r = p.steps.next();
    if (label !== undefined) trace.push(`${p.name}:${label}`);
    if (label !== undefined && MUTATING.has(label)) for (const q of parties) if (q !== p) q.waiting = false;
    if (r.done) {
      p.done = true;
      p.result = r.value;
      p.pending = undefined;
    } else {
      p.pending = r.value;
      p.waiting = r.value === 'wait';
    }
  };

  let current: Party<unknown> | undefined;
  let preemptions = 0;
  let guard = 0;
  for (;;) {
    if (++guard > 2000) throw new Error(`no end: ${trace.join(' ')}`);
    const live = parties.filter((p) => !p.done);
    if (live.length === 0) break;
    let runnable = live.filter((p) => !p.waiting);
    if (runnable.length === 0) {
      // Everyone waits and nothing changed: time passes until every pending timeout fires.
      forceDeadlines = true;
      for (const p of live) p.waiting = false;
      runnable = live;
    }
    // The party that ran last comes first, so choice 0 never preempts.
    const ordered = current && runnable.includes(current) ? [current, ...runnable.filter((p) => p !== current)] : runnable;
    const options = current && runnable.includes(current) && preemptions >= s.bound ? [current] : ordered;
    const pick = options[ch.choose(options.length)]!;
    if (current && pick !== current && runnable.includes(current) && !current.waiting) preemptions++;
    advance(pick);
    current = pick;
  }
  const files = fs.readdirSync(paths.pending);
  return {
    outcome: asker.result as EscalationOutcome,
    fates: { A: parties[1]!.result as Fate, B: parties[2]!.result as Fate | 'planted' },
    files,
    planted,
    trace: trace.join(' '),
  };

}

const NOT_TAKEN: ReadonlySet<string> = new Set(['exists', 'other', 'ended', 'not-taken', 'refused', 'asker-gone']);

function check(s: Scenario, r: RunResult): string | undefined {
  const applied = r.outcome.kind === 'approved' ? 'A' : r.outcome.kind === 'declined' && r.outcome.reason.startsWith('declined by the person') ? 'B' : undefined;
  for (const who of ['A', 'B'] as const) {
    const fate = r.fates[who];
    if (fate === 'planted') continue;
    if (fate === 'unknown') return `${who} was told unknown`;
    if (applied === who) {
      const ok = fate === 'taken' || (s.mode === 'deferred' && fate === 'recorded');
      if (!ok) return `the asker applied ${who}'s answer but ${who} was told ${fate}`;
    } else {
      if (fate === 'taken') return `${who} was told taken, but the asker applied ${applied ?? 'nothing'} (${JSON.stringify(r.outcome)})`;
      if (fate === 'recorded' && s.mode !== 'deferred') return `${who} was told recorded for a waiting request`;
      if (fate !== 'recorded' && !NOT_TAKEN.has(fate)) return `${who} was told ${fate}`;
    }
  }
  if (s.forgedB && r.outcome.kind === 'declined' && r.outcome.reason.startsWith('declined by the person')) return 'the forged answer was applied';
  // A deferred request's record stays for its grace period; an answer planted after the request ended is an orphan
  // for the sweep. Anything else left is a leak.
  const left = r.files.filter((f) => !(s.mode === 'deferred' && f.endsWith('.taken.json')) && !(s.forgedB && r.planted.includes(f)));
  if (left.length > 0) return `files left behind: ${left.join(', ')}`;
  return undefined;
}

/** Runs every schedule of the scenario; throws with the schedule at the first disagreement. */
export function explore(root: string, s: Scenario): { runs: number; outcomes: Map<string, number> } {
  let path: number[] | undefined = [];
  let runs = 0;
  const outcomes = new Map<string, number>();
  while (path) {
    const ch: Chooser = new Chooser(path);
    const r = runOnce(root, s, ch, runs);
    const problem = check(s, r);
    if (problem) throw new Error(`${problem}\n  schedule: ${r.trace}\n  fates: ${JSON.stringify(r.fates)}`);
    const key = `${r.outcome.kind}${r.outcome.kind === 'approved' ? `:${r.outcome.scope}` : ''} A=${r.fates.A} B=${r.fates.B}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    runs++;
    path = ch.nextPath();
  }
  if (process.env.WISP_INTERLEAVE_LOG) console.log(JSON.stringify(s), runs);
  return { runs, outcomes };
}

