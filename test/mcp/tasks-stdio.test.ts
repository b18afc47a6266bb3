// `respond` as an MCP task over stdio: the built CLI and the SDK's stdio client. The reason tasks exist is a
// client whose requests give up after a fixed 60 s (the MCP Inspector) while a person takes longer. Time is scaled
// 1:30 here: the client gives up after 2 s and the person answers after 3 s (60 s and 90 s).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPending } from '../../src/escalation/queue/answerer.js';
import { answerFromTerminal, auditEvents, connect, ensureBuilt, spawnMcp } from './cli.js';
import { makeDirs, pendingFiles, run, say, waitFor, writeScript, type Dirs, type ElicitHandler } from './helpers.js';
import { cancelTask, followTask, getTask, startTask, taskResult, waitForTask } from './task-client.js';

const SCALE = 1 / 30;
const CLIENT_TIMEOUT = 60_000 * SCALE; // the Inspector's fixed request timeout
const ANSWER_AFTER = 90_000 * SCALE; // the person takes longer than that

beforeAll(ensureBuilt, 120_000);
const dirsList: Dirs[] = [];
afterAll(() => dirsList.forEach((d) => d.cleanup()));
function fresh(config?: Record<string, unknown>): Dirs {
  const d = makeDirs();
  dirsList.push(d);
  if (config) writeFileSync(join(d.home, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  return d;
}

/** A person at the client's form who answers (accept, once) after `afterMs`; withdrawn forms are noted. */
function slowPerson(afterMs: number) {
  const seen = { shown: 0, answered: 0, withdrawn: 0, waitedMs: [] as number[] };
  const handler: ElicitHandler = (_req, extra) =>
    new Promise((resolve) => {
      seen.shown++;
      const shownAt = Date.now();
      const timer = setTimeout(() => {
        seen.answered++;
        seen.waitedMs.push(Date.now() - shownAt);
        resolve({ action: 'accept', content: { scope: 'once' } });
      }, afterMs);
      extra.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        seen.withdrawn++;
        resolve({ action: 'cancel' });
      });
    });
  return { handler, seen };
}

describe('respond as a task over stdio', () => {
  it('a client that gives up after 60 s gets a command approved after 90 s through a task (a plain call cannot)', async () => {
    const dirs = fresh();
    const script = writeScript(dirs, [run('touch approved-late'), say('done')]);
    const person = slowPerson(ANSWER_AFTER);
    const c = await connect(dirs, ['-m', `script:${script}`], person.handler);

    // Today's plain call with that client: it times out while the person is still reading, and the form is withdrawn.
    const plain = await c
      .callTool({ name: 'respond', arguments: { prompt: 'make a file', thread_id: 'plain' } }, CallToolResultSchema, { timeout: CLIENT_TIMEOUT })
      .catch((e: unknown) => e);
    expect((plain as McpError).code).toBe(ErrorCode.RequestTimeout);
    await waitFor(() => person.seen.withdrawn === 1, 15_000);
    expect(existsSync(join(dirs.work, 'approved-late'))).toBe(false);

    // The same client asking for a task: every one of its requests still gives up after CLIENT_TIMEOUT.
    const task = await startTask(c, { prompt: 'make a file', thread_id: 'tasked' }, { timeout: CLIENT_TIMEOUT });
    const { result, task: end, log } = await followTask(c, task.taskId, { timeout: CLIENT_TIMEOUT, pollMs: 100, deadlineMs: 60_000 });
    expect(end.status).toBe('completed');
    expect(log.statuses).toContain('input_required');
    expect(log.timeouts).toBeGreaterThanOrEqual(1); // its tasks/result timed out at least once, and nothing was lost
    expect(person.seen.waitedMs.at(-1)!).toBeGreaterThan(CLIENT_TIMEOUT);
    expect(result.structuredContent.refusals).toEqual([]);
    expect(result.structuredContent.text).toBe('done');
    expect(existsSync(join(dirs.work, 'approved-late'))).toBe(true);
    await c.close();

    const events = auditEvents(dirs);
    const settled = events.filter((e) => e.kind === 'escalation.settled');
    expect(settled.find((e) => e.thread === 'plain')!.details).toMatchObject({ outcome: 'abandoned' });
    expect(settled.find((e) => e.thread === 'tasked')!.details).toMatchObject({ outcome: 'answered', channel: 'elicitation' });
    expect(events.find((e) => e.kind === 'mcp.request' && e.thread === 'tasked')!.details).toMatchObject({ task: task.taskId });
  });

  it('two tasks on two threads, answered from a terminal after the client timeout, second first', async () => {
    const dirs = fresh();
    const script = writeScript(dirs, [run('touch from-terminal'), say('done')]);
    const c = await connect(dirs, ['-m', `script:${script}`]); // no elicitation: the queue alone
    const one = await startTask(c, { prompt: 'one', thread_id: 'one' }, { timeout: CLIENT_TIMEOUT });
    const two = await startTask(c, { prompt: 'two', thread_id: 'two' }, { timeout: CLIENT_TIMEOUT });
    const requests = await waitFor(() => {
      const p = listPending(dirs.paths, 'approval');
      return p.length === 2 && p;
    }, 20_000);
    const waiting = await waitForTask(c, two.taskId, (t) => t.status === 'input_required');
    const forTwo = requests.find((r) => r.thread === 'two')!;
    expect(waiting.statusMessage).toContain(`in a terminal: wisp approvals approve ${forTwo.id}`);
    expect(waiting.statusMessage).not.toContain('form'); // this client shows no forms

    await sleep(ANSWER_AFTER);
    const answered = answerFromTerminal(dirs, 'approve', forTwo.id);
    expect(answered.status, answered.out).toBe(0);
    const r2 = await followTask(c, two.taskId, { timeout: CLIENT_TIMEOUT, pollMs: 100 });
    expect(r2.task.status).toBe('completed');
    expect(r2.result.structuredContent.thread_id).toBe('two');
    expect(r2.result.structuredContent.refusals).toEqual([]);
    expect((await getTask(c, one.taskId, CLIENT_TIMEOUT)).status).toBe('input_required');

    const denied = answerFromTerminal(dirs, 'deny', requests.find((r) => r.thread === 'one')!.id);
    expect(denied.status, denied.out).toBe(0);
    const r1 = await followTask(c, one.taskId, { timeout: CLIENT_TIMEOUT, pollMs: 100 });
    expect(r1.result.structuredContent.thread_id).toBe('one');
    expect(r1.result.structuredContent.refusals[0]!.reason).toMatch(/declined by the person/);
    await c.close();
  });

  it('tasks/cancel withdraws the form and the queue request, audited abandoned, and the command never runs', async () => {
    const dirs = fresh();
    const script = writeScript(dirs, [run('touch cancelled-run'), say('unreachable')]);
    const person = slowPerson(600_000);
    const c = await connect(dirs, ['-m', `script:${script}`], person.handler);
    const task = await startTask(c, { prompt: 'go', thread_id: 'c' });
    await waitForTask(c, task.taskId, (t) => t.status === 'input_required', 20_000);
    const delivered = taskResult(c, task.taskId, 60_000); // the form comes with it; it then waits for the end
    await waitFor(() => person.seen.shown === 1, 15_000);
    await waitFor(() => pendingFiles(dirs).length > 0);

    expect((await cancelTask(c, task.taskId)).status).toBe('cancelled');
    const result = await delivered;
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: 'cancelled: the client cancelled the task' });
    await waitFor(() => person.seen.withdrawn === 1, 15_000);
    await waitFor(() => pendingFiles(dirs).length === 0, 15_000);
    await waitFor(() => auditEvents(dirs).some((e) => e.kind === 'escalation.settled'), 15_000);
    expect(auditEvents(dirs).find((e) => e.kind === 'escalation.settled')!.details).toMatchObject({ outcome: 'abandoned', verb: 'approval' });
    expect(existsSync(join(dirs.work, 'cancelled-run'))).toBe(false);
    await c.close();
  });

  it('a client that disconnects mid-task: its escalation is abandoned, the queue request removed, the server exits', async () => {
    const dirs = fresh();
    const script = writeScript(dirs, [run('touch never-disconnected'), say('x')]);
    const { client, transport } = await spawnMcp(dirs, ['-m', `script:${script}`]);
    const task = await startTask(client, { prompt: 'go', thread_id: 'd' });
    await waitForTask(client, task.taskId, (t) => t.status === 'input_required', 20_000);
    await waitFor(() => listPending(dirs.paths, 'approval')[0], 15_000);
    const pid = transport.pid!;
    await client.close(); // ends the server's stdin
    await waitFor(() => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 15_000);
    const events = auditEvents(dirs);
    expect(events.find((e) => e.kind === 'escalation.settled')!.details).toMatchObject({ outcome: 'abandoned', channel: 'queue' });
    expect(events.find((e) => e.kind === 'mcp.result' && e.thread === 'd')!.details).toMatchObject({ isError: true, cancelled: true, task: task.taskId });
    expect(pendingFiles(dirs)).toEqual([]);
    expect(existsSync(join(dirs.work, 'never-disconnected'))).toBe(false);
  });

  it('a task polled after mcp.taskKeepSeconds is gone, with an error that says it expired', async () => {
    const dirs = fresh({ mcp: { taskKeepSeconds: 1 } });
    const script = writeScript(dirs, [say('quick')]);
    const c = await connect(dirs, ['-m', `script:${script}`]);
    const task = await startTask(c, { prompt: 'hi' });
    const { result, task: end } = await followTask(c, task.taskId, { timeout: CLIENT_TIMEOUT, pollMs: 100 });
    expect(result.structuredContent.text).toBe('quick');
    expect(end.ttl).toBe(Date.parse(end.lastUpdatedAt) - Date.parse(end.createdAt) + 1000);
    await sleep(1_500);
    const expired = await getTask(c, task.taskId).catch((e: unknown) => e);
    expect((expired as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((expired as McpError).message).toMatch(/has expired/);
    await c.close();
  });
});
