// Corpus: bad answers (test/corpus/answers.json). `result`: respond.answers on the MCP result channel — unknown,
// other-thread, replayed, expired, approval ids, over-long, closed-thread and hostile ids are refused in the result
// and audited, nothing is replayed to the model and nothing runs. `queue`: answers given from a terminal
// (answerFromTerminal, behind `wisp approvals|inquiries`) to requests that are unknown, malformed, stale, of the
// other verb, already answered, replayed, from a pipe or too long: a clear error with its exit code, nothing answered.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { answerRequest } from '../../src/escalation/queue/answerer.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerFromTerminal, type TerminalAnswer } from '../../src/escalation/queue/answer-terminal.js';
import { bindingOf, pendingDir, requestPath, writeRequest, type QueueRequest, type UnboundRequest } from '../../src/escalation/queue/files.js';
import { wispPaths } from '../../src/core/paths.js';
import { WispError } from '../../src/core/errors.js';
import { ask, run, say, startHarness, waitFor, type Harness } from '../mcp/helpers.js';
import { firstRaw } from '../hardening/hostile.js';
import { loadCorpus, title } from './load.js';

interface ResultCase {
  readonly name: string;
  readonly scenario: string;
  readonly reason: string;
  readonly outcome: string;
}
interface QueueCase {
  readonly name: string;
  readonly scenario: string;
  readonly message: string;
  readonly exit: 1 | 64;
  readonly audited?: string;
}
const corpus = loadCorpus<{ result: ResultCase[]; queue: QueueCase[] }>('answers.json');

describe('result-channel answers', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  const ANSWER = 'THE-ANSWER-TEXT';
  const turns = [ask('Keep which README?'), say('waiting'), ...['a', 'b', 'c', 'd', 'e'].map(say)];

  it.each(corpus.result.map((c) => [title(c.name), c] as const))('%s', async (_n, c) => {
    h = await startHarness({
      channel: 'result',
      responses: c.scenario === 'approval-id' ? [run('touch marker'), say('waiting'), say('a')] : turns,
      config: (cfg) => {
        if (c.scenario === 'expired') cfg.escalation.pendingSeconds = 1;
      },
    });
    const first = await h.respond({ prompt: 'start', thread_id: 't1' });
    const pending = first.structuredContent.pending[0] as { id: string } | undefined;
    expect(pending, 'the first turn leaves a pending id').toBeDefined();
    const id = pending!.id;
    let answers: Array<{ id: string; text: string }> = [{ id, text: ANSWER }];
    let thread = 't1';
    switch (c.scenario) {
      case 'unknown-id':
        answers = [{ id: 'nope42', text: ANSWER }];
        break;
      case 'hostile-id':
        answers = [{ id: 'x\u001b[2J\u202e', text: ANSWER }];
        break;
      case 'other-thread':
        thread = 't2';
        break;
      case 'replayed': {
        const once = await h.respond({ prompt: 'here', thread_id: 't1', answers });
        expect(once.structuredContent.refusals).toEqual([]);
        break;
      }
      case 'expired':
        await new Promise((r) => setTimeout(r, 1300));
        break;
      case 'too-long':
        answers = [{ id, text: 'x'.repeat(4097) }];
        break;
      case 'closed-thread':
        await h.client.callTool({ name: 'close_thread', arguments: { thread_id: 't1' } });
        break;
    }
    // The attempt under test carries its own text, so a replay of it would be seen (a replayed id's first, valid
    // answer is legitimately in the transcript already).
    const attempted = 'ATTEMPTED-TEXT';
    answers = answers.map((a) => ({ ...a, text: c.scenario === 'too-long' ? a.text : attempted }));
    const modelsBefore = h.models.length;
    const callsBefore = h.models.map((m) => m.calls.length);
    const r = await h.respond({ prompt: 'answered?', thread_id: thread, answers });
    const refusal = r.structuredContent.refusals.find((x) => x.escalationId === answers[0]!.id);
    expect(refusal, 'refused in the result').toBeDefined();
    expect(refusal!.reason).toMatch(new RegExp(c.reason));
    const settled = h.events('escalation.settled').filter((e) => e.details.escalationId === answers[0]!.id);
    expect(settled.map((e) => e.details.outcome)).toContain(c.outcome);
    // The note an agent reads shows a hostile id escaped.
    const note = r.content.map((x) => ('text' in x ? x.text : '')).join('\n');
    expect(firstRaw(note)).toBeUndefined();
    // Nothing was replayed to the model as the operator's answer, and nothing ran.
    const given = h.models.flatMap((m, i) => m.calls.slice(i < modelsBefore ? callsBefore[i] : 0)).flat();
    expect(given.some((m) => m.role === 'tool' && m.content.includes(attempted))).toBe(false);
    expect(h.events('escalation.answered').filter((e) => e.details.escalationId === answers[0]!.id)).toHaveLength(c.scenario === 'replayed' ? 1 : 0);
    expect(fs.existsSync(join(h.dirs.work, 'marker'))).toBe(false);
  });
});

describe('queue answers from a terminal', () => {
  let root: string;
  let k = 0;
  beforeAll(() => {
    root = fs.mkdtempSync(join(tmpdir(), 'wisp-corpus-ans-'));
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  function filed(verb: 'approval' | 'inquiry', over: Partial<QueueRequest>, dir: string): QueueRequest {
    const base = {
      id: `req${k++}`,
      mode: 'waiting' as const,
      thread: 't1',
      client: 'corpus',
      pid: process.pid,
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    };
    const unbound = (verb === 'approval'
      ? { ...base, verb, command: 'touch marker', line: 'touch marker', pattern: 'touch *', directory: root, level: 'moderate', reasons: ['modifies files'], ask: null, ...over }
      : { ...base, verb, question: 'Which one?', ...over }) as UnboundRequest;
    const req = { ...unbound, binding: bindingOf(unbound) } as QueueRequest;
    writeRequest(dir, req);
    return req;
  }

  function deadPid(): number {
    const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    return Number(r.stdout);
  }

  it.each(corpus.queue.map((c) => [title(c.name), c] as const))('%s', async (_n, c) => {
    const home = join(root, `home${k++}`);
    fs.mkdirSync(home, { mode: 0o700 });
    const paths = wispPaths(home);
    const dir = pendingDir(paths, { create: true })!;
    const audit = new MemoryAudit();
    const args: Omit<TerminalAnswer, 'id' | 'verb' | 'body'> = { paths, audit, ctx: { session: 'cli' }, stdinIsTTY: true, print: () => undefined, pickupMs: 500 };
    let attempt: Promise<unknown>;
    let channel: QueueChannel | undefined;
    switch (c.scenario) {
      case 'unknown-id':
        attempt = answerFromTerminal({ ...args, id: 'nope42', verb: 'approval', body: { decision: 'once' } });
        break;
      case 'malformed-id':
        attempt = answerFromTerminal({ ...args, id: '../../etc/passwd', verb: 'approval', body: { decision: 'once' } });
        break;
      case 'expired': {
        const req = filed('approval', { expiresAt: new Date(Date.now() - 1000).toISOString() }, dir);
        attempt = answerFromTerminal({ ...args, id: req.id, verb: 'approval', body: { decision: 'once' } });
        break;
      }
      case 'dead-pid': {
        const req = filed('approval', { pid: deadPid() }, dir);
        attempt = answerFromTerminal({ ...args, id: req.id, verb: 'approval', body: { decision: 'always' } });
        break;
      }
      case 'other-verb': {
        const req = filed('inquiry', {}, dir);
        attempt = answerFromTerminal({ ...args, id: req.id, verb: 'approval', body: { decision: 'once' } });
        break;
      }
      case 'other-verb-2': {
        const req = filed('approval', {}, dir);
        attempt = answerFromTerminal({ ...args, id: req.id, verb: 'inquiry', body: { text: 'yes' } });
        break;
      }
      case 'already-answered': {
        const req = filed('approval', { mode: 'deferred' }, dir);
        expect(answerRequest(paths, req, { decision: 'no' }, { via: 'chat' }).ok).toBe(true);
        attempt = answerFromTerminal({ ...args, id: req.id, verb: 'approval', body: { decision: 'always' } });
        break;
      }
      case 'replayed': {
        channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 60, pollMs: 10 });
        const waiting = channel.raise(
          { verb: 'approval', request: { command: 'touch marker', line: 'touch marker', pattern: 'touch *', directory: root, level: 'moderate', reasons: [] } },
          { session: 's', timeoutMs: 30_000, escalationId: 'replay1' },
        );
        await waitFor(() => fs.existsSync(requestPath(dir, 'replay1')));
        expect(await answerFromTerminal({ ...args, id: 'replay1', verb: 'approval', body: { decision: 'once' } })).toBe('taken');
        expect(await waiting).toEqual({ kind: 'approved', scope: 'once' });
        attempt = answerFromTerminal({ ...args, id: 'replay1', verb: 'approval', body: { decision: 'always' } });
        break;
      }
      case 'no-tty': {
        const req = filed('approval', {}, dir);
        attempt = answerFromTerminal({ ...args, stdinIsTTY: false, id: req.id, verb: 'approval', body: { decision: 'once' } });
        break;
      }
      case 'too-long': {
        const req = filed('inquiry', {}, dir);
        attempt = answerFromTerminal({ ...args, id: req.id, verb: 'inquiry', body: { text: 'x'.repeat(4097) } });
        break;
      }
      default:
        throw new Error(`unknown scenario ${c.scenario}`);
    }
    const err = await attempt.then(() => undefined, (e: unknown) => e);
    expect(err, 'refused').toBeInstanceOf(WispError);
    expect((err as WispError).message).toMatch(new RegExp(c.message));
    expect((err as WispError).exitCode).toBe(c.exit);
    if (c.audited) expect(audit.ofKind('escalation.settled').map((e) => e.details.outcome)).toContain(c.audited);
    // Nothing answered: no answer file of ours is left, and no waiting process took anything.
    const answersLeft = fs.readdirSync(dir).filter((f) => /\.answer\.[0-9a-f]{32}\.json$/.test(f));
    expect(answersLeft.length).toBe(c.scenario === 'already-answered' ? 1 : 0);
    expect(fs.existsSync(join(root, 'marker'))).toBe(false);
  });
});
