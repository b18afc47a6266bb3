// Issue #8 §4, load: 32 MCP threads in parallel, each raising three approvals (touch, mkdir, cp: three patterns, so
// none is covered by an earlier answer), every one raced between the elicitation dialog and the queue. A person
// answers them in random order, each by one of the two ways at random, approving or refusing at random. Then: no
// answer crossed a thread (each decision landed on the escalation it was given for, in that escalation's thread),
// every decision is audited exactly once, what ran is exactly what was approved, and no pending file is left.
// test/mcp/threads.test.ts covers 32 threads with one escalation each over the dialog alone.
import { existsSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { answerRequest } from '../../src/escalation/queue/answerer.js';
import { readRequest } from '../../src/escalation/queue/files.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { pendingFiles, run, say, startHarness, waitFor, type ElicitHandler, type Harness } from '../mcp/helpers.js';

const THREADS = 32;
const PER_THREAD = 3;
const ROUNDS = Number(process.env.WISP_LOAD_ROUNDS ?? '5');

interface Choice {
  readonly approve: boolean;
  readonly via: 'elicitation' | 'queue';
}

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function oneRound(round: number): Promise<void> {
  const dialogs = new Map<string, (r: ElicitResult) => void>();
  const elicit: ElicitHandler = (req, extra) =>
    new Promise((resolve) => {
      const id = String((req.params._meta as Record<string, unknown>)['wisp/escalation']);
      dialogs.set(id, resolve);
      // Withdrawn when the queue answers first: the client sees the cancellation.
      extra.signal.addEventListener('abort', () => resolve({ action: 'cancel' }));
    });
  h = await startHarness({
    elicit,
    responses: [{ toolCalls: [run('touch a1').toolCalls![0]!, run('mkdir -p d2').toolCalls![0]!, run('cp /dev/null c3').toolCalls![0]!] }, say('done')],
    config: (c) => {
      c.escalation.timeoutSeconds = 300;
      c.escalation.outOfBand = true;
      c.mcp.maxThreads = 64;
    },
  });
  const harness = h;
  const calls = Array.from({ length: THREADS }, (_, i) => harness.respond({ prompt: `thread ${i}`, thread_id: `r${round}t${i}` }));

  // The person: whatever is waiting, in random order, one way or the other.
  const choices = new Map<string, Choice>();
  const total = THREADS * PER_THREAD;
  const deadline = Date.now() + 240_000;
  while (choices.size < total) {
    if (Date.now() > deadline) throw new Error(`only ${choices.size} of ${total} escalations were raised`);
    const waiting = [...dialogs.keys()].filter((id) => !choices.has(id) && existsSync(`${harness.dirs.paths.pending}/${id}.request.json`));
    if (waiting.length === 0) {
      await new Promise((r) => setTimeout(r, 10));
      continue;
    }
    const id = waiting[Math.floor(Math.random() * waiting.length)]!;
    const choice: Choice = { approve: Math.random() < 0.5, via: Math.random() < 0.5 ? 'elicitation' : 'queue' };
    choices.set(id, choice);
    if (choice.via === 'elicitation') {
      dialogs.get(id)!(choice.approve ? { action: 'accept', content: { scope: 'once' } } : { action: 'decline' });
    } else {
      const read = readRequest(harness.dirs.paths.pending, id);
      if (!read.ok) throw new Error(`${id}: ${read.reason}`);
      expect(answerRequest(harness.dirs.paths, read.value, { decision: choice.approve ? 'once' : 'no' }, { via: 'cli', answeredBy: 'human' }).ok).toBe(true);
    }
    if (Math.random() < 0.3) await new Promise((r) => setTimeout(r, Math.random() * 15));
  }
  const results = await Promise.all(calls);

  const requested = harness.events('approval.requested');
  const decided = harness.events('approval.decided');
  const answered = harness.events('escalation.answered');
  const settled = harness.events('escalation.settled');
  expect(requested).toHaveLength(total);
  expect(new Set(requested.map((e) => e.details.escalationId)).size).toBe(total);
  for (const req of requested) {
    const id = String(req.details.escalationId);
    const choice = choices.get(id)!;
    expect(choice, `${id} was answered`).toBeDefined();
    // Exactly one decision, on this escalation, in the thread (audit session) that asked, matching the answer.
    const mine = decided.filter((d) => d.details.escalationId === id);
    expect(mine, id).toHaveLength(1);
    expect(mine[0]!.thread).toBe(req.thread);
    expect(mine[0]!.session).toBe(req.session);
    expect(mine[0]!.details.command).toBe(req.details.command);
    expect(mine[0]!.details.decision).toBe(choice.approve ? 'approved' : 'denied');
    expect(mine[0]!.details.channel, id).toBe(choice.via);
    // Exactly one answer taken, by the way it was given, and one settlement.
    const took = answered.filter((a) => a.details.escalationId === id);
    expect(took.map((a) => a.details.channel), id).toEqual([choice.via]);
    expect(settled.filter((s) => s.details.escalationId === id).map((s) => s.details.outcome), id).toEqual(['answered']);
  }
  // What ran, per thread, is exactly what was approved in that thread.
  const outcomes = harness.events('command.outcome');
  for (let i = 0; i < THREADS; i++) {
    const thread = `r${round}t${i}`;
    const approved = requested.filter((r) => r.thread === thread && choices.get(String(r.details.escalationId))!.approve).map((r) => r.details.command);
    const ran = outcomes.filter((o) => o.thread === thread).map((o) => o.details.command);
    expect(ran.sort(), thread).toEqual([...approved].sort());
    const result = results[i]!;
    expect(result.structuredContent.thread_id).toBe(thread);
    expect(result.structuredContent.refusals).toHaveLength(PER_THREAD - approved.length);
  }
  // Nothing leaked: no request, answer or temp file is left in the queue. (The asker's records of taken answers stay
  // for their grace period, for answerers that follow their answer: ADR 0026.)
  await waitFor(() => pendingFiles(harness.dirs).length === 0, 10_000);
  expect(readdirSync(harness.dirs.paths.pending).filter((n) => !n.endsWith('.taken.json'))).toEqual([]);
  await harness.close();
  h = undefined;
}

describe('load: 32 MCP threads, escalations answered at random by the dialog and by the queue', () => {
  it(`keeps every answer on its own escalation and thread, audits each once, leaks nothing (${ROUNDS} rounds of ${THREADS * PER_THREAD})`, async () => {
    for (let round = 0; round < ROUNDS; round++) await oneRound(round);
  }, 900_000);
});
