// `respond` as an MCP task (spec 2025-11-25), in memory with the SDK's client: created at once, polled with
// tasks/get, its forms delivered with tasks/result and related to the task, its result the plain call's result,
// cancelled with tasks/cancel, kept a short while after it ends, bounded by mcp.maxThreads.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode, McpError, RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { answerRequest, listPending } from '../../src/escalation/queue/answerer.js';
import { TaskQueue } from '../../src/mcp/task-queue.js';
import { TaskBook } from '../../src/mcp/tasks.js';
import { accept, ask, hanging, pendingFiles, run, say, startHarness, storedApprovals, waitFor, type Harness, type HarnessOptions } from './helpers.js';
import { cancelTask, followTask, getTask, startTask, taskResult, waitForTask, type RespondResult } from './task-client.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
async function harness(o: HarnessOptions): Promise<Harness> {
  const h = await startHarness({ taskPollIntervalMs: 20, ...o });
  open.push(h);
  return h;
}
const relatedTask = (meta: unknown) => (meta as Record<string, { taskId?: string }> | undefined)?.[RELATED_TASK_META_KEY]?.taskId;

describe('respond as a task', () => {
  it('declares optional task support; a plain call is unchanged, and tasks/result gives exactly the plain result', async () => {
    const h = await harness({ responses: [run('ls'), say('listed')] });
    const listed = (await h.client.listTools()).tools;
    expect(listed.find((t) => t.name === 'respond')!.execution).toEqual({ taskSupport: 'optional' });
    expect(listed.find((t) => t.name === 'close_thread')!.execution).toBeUndefined();

    const plain = await h.respond({ prompt: 'what is here?', thread_id: 'plain' });
    const task = await startTask(h.client, { prompt: 'what is here?', thread_id: 'tasked' });
    expect(task.status).toBe('working');
    expect(task.pollInterval).toBe(20);
    const { result, task: end } = await followTask(h.client, task.taskId, { timeout: 10_000 });
    expect(end.status).toBe('completed');
    // The same call on another thread: everything but the thread id (and the related-task meta) is identical.
    const { _meta, ...rest } = result;
    expect(relatedTask(_meta)).toBe(task.taskId);
    // Timings differ from run to run; everything else must not.
    const same = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll('"tasked"', '"plain"').replace(/"seconds":[0-9.e-]+/g, '"seconds":0')) as unknown;
    expect(same(rest)).toEqual(same(plain));
    expect(plain.structuredContent.receipt.commands).toHaveLength(1);
    // Audited like a plain call, with the task id.
    const request = h.events('mcp.request').find((e) => e.thread === 'tasked')!;
    const done = h.events('mcp.result').find((e) => e.thread === 'tasked')!;
    expect(request.details).toMatchObject({ tool: 'respond', task: task.taskId, created: true });
    expect(done.details).toMatchObject({ tool: 'respond', isError: false, task: task.taskId });
  });

  it("the SDK's own callToolStream drives a task with a form to its result", async () => {
    const h = await harness({ responses: [run('touch via-stream'), say('streamed')], elicit: accept('once') });
    await h.client.listTools(); // the SDK learns that respond may run as a task
    const kinds: string[] = [];
    let final: RespondResult | undefined;
    for await (const message of h.client.experimental.tasks.callToolStream(
      { name: 'respond', arguments: { prompt: 'go', thread_id: 's' } },
      CallToolResultSchema,
      { timeout: 10_000 },
    )) {
      kinds.push(message.type);
      if (message.type === 'error') throw message.error;
      if (message.type === 'result') final = message.result as RespondResult;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(final!.structuredContent.text).toBe('streamed');
    expect(relatedTask(h.elicitations[0]!._meta)).toBeDefined();
    expect(existsSync(join(h.dirs.work, 'via-stream'))).toBe(true);
  });

  it('shows input_required while an approval waits; the form comes with tasks/result, related to the task; accepting completes it', async () => {
    const h = await harness({ responses: [run('touch via-task'), say('done')], elicit: accept('once') });
    const task = await startTask(h.client, { prompt: 'make a file', thread_id: 'a' });
    const waiting = await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    const id = h.events('approval.requested')[0]!.details.escalationId as string;
    expect(waiting.statusMessage).toContain('touch via-task');
    expect(waiting.statusMessage).toContain(`wisp approvals approve ${id}`);
    // Nothing is shown before the client asks for the task's result (spec: messages travel with tasks/result).
    expect(h.elicitations).toEqual([]);
    expect(existsSync(join(h.dirs.work, 'via-task'))).toBe(false);

    const result = await taskResult(h.client, task.taskId);
    expect(h.elicitations).toHaveLength(1);
    expect(relatedTask(h.elicitations[0]!._meta)).toBe(task.taskId);
    expect((h.elicitations[0]!._meta as Record<string, unknown>)['wisp/escalation']).toBe(id);
    expect(result.structuredContent.refusals).toEqual([]);
    expect(existsSync(join(h.dirs.work, 'via-task'))).toBe(true);
    expect((await getTask(h.client, task.taskId)).status).toBe('completed');
    expect(h.events('approval.decided')[0]!.details).toMatchObject({ decision: 'approved', channel: 'elicitation', escalationId: id });
    // Still raced with the queue: the queue files went away when the form answered.
    expect(pendingFiles(h.dirs)).toEqual([]);
  });

  it("an answer given after the client's own request timeout still completes the task (the timed-out tasks/result loses nothing)", async () => {
    // A client whose every request gives up after 300 ms; the person answers the form after 900 ms.
    const h = await harness({
      responses: [run('touch late-answer'), say('done')],
      elicit: async () => {
        await new Promise((r) => setTimeout(r, 900));
        return { action: 'accept', content: { scope: 'once' } };
      },
    });
    const task = await startTask(h.client, { prompt: 'go', thread_id: 'slow' }, { timeout: 300 });
    const { result, task: end, log } = await followTask(h.client, task.taskId, { timeout: 300, pollMs: 20, deadlineMs: 20_000 });
    expect(log.timeouts).toBeGreaterThanOrEqual(1);
    expect(log.statuses).toContain('input_required');
    expect(end.status).toBe('completed');
    expect(result.structuredContent.refusals).toEqual([]);
    expect(existsSync(join(h.dirs.work, 'late-answer'))).toBe(true);
    expect(h.elicitations).toHaveLength(1); // the form was delivered once, not again on each retry
    expect(h.events('escalation.settled')[0]!.details).toMatchObject({ outcome: 'answered', channel: 'elicitation' });
  });

  it('an inquiry of a task is a form related to the task; the answer reaches the model', async () => {
    const h = await harness({ responses: [ask('Which file?'), say('ok')], elicit: async () => ({ action: 'accept', content: { answer: 'README.md' } }) });
    const task = await startTask(h.client, { prompt: 'ask me', thread_id: 'q' });
    const waiting = await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    expect(waiting.statusMessage).toMatch(/an answer to the model's question/);
    const result = await taskResult(h.client, task.taskId);
    expect(relatedTask(h.elicitations[0]!._meta)).toBe(task.taskId);
    expect(result.structuredContent.receipt.inquiries).toHaveLength(1);
    const toolOutputs = h.models[0]!.calls[1]!.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(toolOutputs.join('\n')).toContain('README.md');
  });

  it('a form the queue answered before delivery is taken back: the person never sees a dead form', async () => {
    const h = await harness({ responses: [run('touch queue-first'), say('done')], elicit: accept('once') });
    const task = await startTask(h.client, { prompt: 'go', thread_id: 'q1' });
    await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    await waitFor(() => h.server.taskQueue.size(task.taskId) === 1);
    const request = await waitFor(() => listPending(h.dirs.paths, 'approval')[0]);
    expect(answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' }).ok).toBe(true);
    await waitForTask(h.client, task.taskId, (t) => t.status === 'completed');
    expect(h.server.taskQueue.size(task.taskId)).toBe(0);
    const result = await taskResult(h.client, task.taskId);
    expect(result.structuredContent.refusals).toEqual([]);
    expect(h.elicitations).toEqual([]);
    expect(h.events('approval.decided')[0]!.details).toMatchObject({ channel: 'queue', decision: 'approved' });
  });

  it('tasks/cancel withdraws the delivered form and the queue files (audited abandoned) and stops the turn', async () => {
    let withdrawn: unknown;
    const h = await harness({ responses: [run('touch never-run'), say('should not be reached')], elicit: hanging((r) => (withdrawn = r ?? 'aborted')) });
    const task = await startTask(h.client, { prompt: 'go', thread_id: 'c' });
    await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    const pendingResult = taskResult(h.client, task.taskId); // delivers the form, then waits for the end
    await waitFor(() => h.elicitations.length === 1);
    expect(pendingFiles(h.dirs).length).toBeGreaterThan(0);

    const cancelled = await cancelTask(h.client, task.taskId);
    expect(cancelled.status).toBe('cancelled');
    await waitFor(() => withdrawn !== undefined);
    await waitFor(() => h.events('escalation.settled').length === 1);
    expect(h.events('escalation.settled')[0]!.details).toMatchObject({ outcome: 'abandoned', verb: 'approval' });
    await waitFor(() => pendingFiles(h.dirs).length === 0);
    const result = await pendingResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ type: 'text', text: 'cancelled: the client cancelled the task' });
    await waitFor(() => h.events('mcp.result').length === 1);
    expect(h.events('mcp.result')[0]!.details).toMatchObject({ isError: true, cancelled: true, task: task.taskId });
    // The turn stopped: the model gave no reply after the cancel, nothing ran, and the task stays cancelled.
    expect(h.events('response')).toEqual([]);
    expect(existsSync(join(h.dirs.work, 'never-run'))).toBe(false);
    expect((await getTask(h.client, task.taskId)).status).toBe('cancelled');
    await expect(cancelTask(h.client, task.taskId)).rejects.toThrow(/terminal status/);
  });

  it('attack: a form accepted after its task was cancelled runs nothing', async () => {
    // A client that ignores the withdrawal and sends "accept" (scope always) once the task is already cancelled.
    let formId: string | number | undefined;
    const h = await harness({
      responses: [run('touch late-accept'), say('x')],
      elicit: (req, extra) => {
        formId = extra.requestId;
        return hanging()(req, extra);
      },
    });
    const task = await startTask(h.client, { prompt: 'go', thread_id: 'late' });
    await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    const delivered = taskResult(h.client, task.taskId);
    await waitFor(() => formId !== undefined);
    await cancelTask(h.client, task.taskId);
    await waitFor(() => h.events('escalation.settled').length === 1);
    expect((await delivered).isError).toBe(true);

    const strays: string[] = [];
    h.server.mcp.server.onerror = (e) => void strays.push(e.message);
    await h.client.transport!.send({ jsonrpc: '2.0', id: formId!, result: { action: 'accept', content: { scope: 'always' } } });
    // The stray answer reaches the server and is dropped there: its request was withdrawn.
    await waitFor(() => strays.some((m) => /handler missing/i.test(m)));
    expect(h.events('approval.decided').map((e) => e.details.decision)).toEqual(['denied']);
    expect(h.events('escalation.settled')[0]!.details).toMatchObject({ outcome: 'abandoned' });
    expect(existsSync(join(h.dirs.work, 'late-accept'))).toBe(false);
    expect(storedApprovals(h.dirs)).toEqual([]);
  });

  it('tasks/cancel before the form was fetched: it is never delivered afterwards', async () => {
    const h = await harness({ responses: [run('touch nope'), say('x')], elicit: accept('once') });
    const task = await startTask(h.client, { prompt: 'go', thread_id: 'c2' });
    await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    await waitFor(() => h.server.taskQueue.size(task.taskId) === 1);
    await cancelTask(h.client, task.taskId);
    const result = await taskResult(h.client, task.taskId);
    expect(result.isError).toBe(true);
    expect(h.elicitations).toEqual([]);
    expect(h.server.taskQueue.size(task.taskId)).toBe(0);
    await waitFor(() => h.events('escalation.settled').length === 1);
    expect(h.events('escalation.settled')[0]!.details).toMatchObject({ outcome: 'abandoned' });
    expect(existsSync(join(h.dirs.work, 'nope'))).toBe(false);
  });

  it('a client that disconnects mid-task withdraws its escalations (audited abandoned); the task ends cancelled', async () => {
    const h = await harness({ responses: [run('touch gone'), say('x')] });
    const task = await startTask(h.client, { prompt: 'go', thread_id: 'd' });
    await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    await waitFor(() => listPending(h.dirs.paths, 'approval')[0]);
    await h.client.close();
    await waitFor(() => h.events('escalation.settled').length === 1);
    expect(h.events('escalation.settled')[0]!.details).toMatchObject({ outcome: 'abandoned', channel: 'queue' });
    await waitFor(() => pendingFiles(h.dirs).length === 0);
    expect(await h.server.tasks.getTask(task.taskId)).toMatchObject({ status: 'cancelled', statusMessage: 'the client disconnected' });
    expect(existsSync(join(h.dirs.work, 'gone'))).toBe(false);
  });

  it('two tasks on two threads wait side by side; each answer completes only its own task', async () => {
    const h = await harness({ responses: [run('touch mine'), say('done')] });
    const one = await startTask(h.client, { prompt: 'one', thread_id: 'one' });
    const two = await startTask(h.client, { prompt: 'two', thread_id: 'two' });
    const w1 = await waitForTask(h.client, one.taskId, (t) => t.status === 'input_required');
    const w2 = await waitForTask(h.client, two.taskId, (t) => t.status === 'input_required');
    const requests = await waitFor(() => {
      const p = listPending(h.dirs.paths, 'approval');
      return p.length === 2 && p;
    });
    const forTwo = requests.find((r) => r.thread === 'two')!;
    const forOne = requests.find((r) => r.thread === 'one')!;
    expect(w1.statusMessage).toContain(forOne.id);
    expect(w2.statusMessage).toContain(forTwo.id);
    expect((await h.client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId).sort()).toEqual([one.taskId, two.taskId].sort());

    // The second is answered first (denied); the first is still waiting.
    answerRequest(h.dirs.paths, forTwo, { decision: 'no' }, { via: 'cli' });
    const r2 = await followTask(h.client, two.taskId, { timeout: 10_000 });
    expect(r2.result.structuredContent.thread_id).toBe('two');
    expect(r2.result.structuredContent.refusals).toHaveLength(1);
    expect((await getTask(h.client, one.taskId)).status).toBe('input_required');

    answerRequest(h.dirs.paths, forOne, { decision: 'once' }, { via: 'cli' });
    const r1 = await followTask(h.client, one.taskId, { timeout: 10_000 });
    expect(r1.result.structuredContent.thread_id).toBe('one');
    expect(r1.result.structuredContent.refusals).toEqual([]);
    expect(existsSync(join(h.dirs.work, 'mine'))).toBe(true);
  });

  it('mcp.maxThreads bounds running tasks: one more is refused with a clear error until one ends', async () => {
    const h = await harness({ responses: [run('touch slot'), say('done')], config: (c) => void (c.mcp.maxThreads = 1) });
    const first = await startTask(h.client, { prompt: 'one', thread_id: 'one' });
    await waitForTask(h.client, first.taskId, (t) => t.status === 'input_required');
    const refused = await startTask(h.client, { prompt: 'two', thread_id: 'two' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(McpError);
    expect((refused as McpError).code).toBe(ErrorCode.InvalidRequest);
    expect((refused as McpError).message).toMatch(/too many running tasks: 1 \(mcp\.maxThreads\)/);
    expect((await h.client.experimental.tasks.listTasks()).tasks).toHaveLength(1);
    expect(h.server.threads.get('two')).toBeUndefined(); // refused before a thread was made

    await cancelTask(h.client, first.taskId);
    const next = await startTask(h.client, { prompt: 'two', thread_id: 'two' });
    expect(next.status).toBe('working');
  });

  it('a finished task is kept mcp.taskKeepSeconds, reports its ttl, and a poll after that says it expired', async () => {
    const h = await harness({ responses: [say('quick')], config: (c) => void (c.mcp.taskKeepSeconds = 1) });
    const task = await startTask(h.client, { prompt: 'hi', thread_id: 'e' }, { ttl: 3_600_000 });
    expect(task.ttl).toBeGreaterThanOrEqual(1000);
    expect(task.ttl).toBeLessThan(3_600_000); // wisp decides how long it keeps a task, not the client
    const end = await waitForTask(h.client, task.taskId, (t) => t.status === 'completed');
    expect(end.ttl).toBe(Date.parse(end.lastUpdatedAt) - Date.parse(end.createdAt) + 1000);
    expect((await taskResult(h.client, task.taskId)).structuredContent.text).toBe('quick');

    await sleep(1_300); // the keep time passes
    const expired = await getTask(h.client, task.taskId).catch((e: unknown) => e);
    expect((expired as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((expired as McpError).message).toMatch(/has expired: a finished task is kept 1 s \(mcp\.taskKeepSeconds\)/);
    await expect(taskResult(h.client, task.taskId)).rejects.toThrow(/not found/i);
    const unknown = await getTask(h.client, 'f'.repeat(32)).catch((e: unknown) => e);
    expect((unknown as McpError).message).toMatch(/not found: no task with this id/);
  });

  it('bad arguments are refused at once as a protocol error; no task is created', async () => {
    const h = await harness({ responses: [say('x')] });
    const bad = await startTask(h.client, { prompt: 'x', escalation: 'auto' }).catch((e: unknown) => e);
    expect((bad as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((bad as McpError).message).toMatch(/chosen by the operator/);
    expect((await h.client.experimental.tasks.listTasks()).tasks).toEqual([]);
    const close = await h.client
      .request({ method: 'tools/call', params: { name: 'close_thread', arguments: { thread_id: 'x' }, task: {} } }, CallToolResultSchema)
      .catch((e: unknown) => e);
    expect((close as McpError).code).toBe(ErrorCode.MethodNotFound);
    expect((close as McpError).message).toMatch(/close_thread does not run as a task/);
  });

  it('fail closed: when the audit log cannot record the task, no task runs and the thread is not left busy', async () => {
    const h = await harness({ responses: [run('touch unrecorded'), say('x')] });
    const write = h.audit.write.bind(h.audit);
    h.audit.write = (kind, details, ctx) => {
      if (kind === 'mcp.request' && details.task !== undefined) throw new Error('disk full');
      return write(kind, details, ctx);
    };
    await expect(startTask(h.client, { prompt: 'go', thread_id: 'nolog' })).rejects.toThrow(/disk full/);
    const [task] = (await h.server.tasks.listTasks()).tasks;
    expect(task).toMatchObject({ status: 'cancelled', statusMessage: 'the audit log could not be written' });
    expect(h.server.threads.list().find((t) => t.thread_id === 'nolog')).toMatchObject({ busy: false, turns: 0 });
    expect(existsSync(join(h.dirs.work, 'unrecorded'))).toBe(false);
  });

  it('closing the thread under a running task ends the task as failed, with the reason', async () => {
    const h = await harness({ responses: [run('touch closed'), say('x')] });
    const task = await startTask(h.client, { prompt: 'go', thread_id: 'closing' });
    await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    await h.client.callTool({ name: 'close_thread', arguments: { thread_id: 'closing' } });
    const { result, task: end } = await followTask(h.client, task.taskId, { timeout: 10_000 });
    expect(end.status).toBe('failed');
    expect(result.content[0]).toMatchObject({ text: 'cancelled: thread closing closed' });
  });
});

describe('other channels and progress under tasks', () => {
  it('--escalation queue: the task shows input_required with the terminal route only, and completes when answered', async () => {
    const h = await harness({ channel: 'queue', responses: [run('touch q-task'), say('done')], elicit: accept('once') });
    const task = await startTask(h.client, { prompt: 'go', thread_id: 'q' });
    const waiting = await waitForTask(h.client, task.taskId, (t) => t.status === 'input_required');
    const request = await waitFor(() => listPending(h.dirs.paths, 'approval')[0]);
    expect(waiting.statusMessage).toBe(`waiting for approval of touch q-task (${request.id}); answer in a terminal: wisp approvals approve ${request.id}`);
    answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' });
    const { result, log } = await followTask(h.client, task.taskId, { timeout: 10_000 });
    expect(log.statuses.at(-1)).toBe('completed');
    expect(result.structuredContent.refusals).toEqual([]);
    expect(h.elicitations).toEqual([]); // the queue channel never sends forms, task or not
  });

  it('progress notifications for the task continue after the task was created, until it ends', async () => {
    const h = await harness({ responses: [run('touch p-task'), say('done')], progressIntervalMs: 50 });
    const messages: string[] = [];
    const created = await h.client.request(
      { method: 'tools/call', params: { name: 'respond', arguments: { prompt: 'go', thread_id: 'p' }, task: {} } },
      CreateTaskResultSchema,
      { timeout: 10_000, onprogress: (p) => void messages.push(p.message ?? '') },
    );
    const request = await waitFor(() => listPending(h.dirs.paths, 'approval')[0]);
    await waitFor(() => messages.some((m) => m.startsWith('still waiting for approval of touch p-task')));
    answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' });
    await followTask(h.client, created.task.taskId, { timeout: 10_000 });
    expect(messages.some((m) => m.includes('touch p-task') && m.includes('approved'))).toBe(true);
  });
});

describe('the result channel under tasks', () => {
  it('a pending inquiry comes back in the task result; the answer goes on the same thread; an approval id in answers is refused', async () => {
    const h = await harness({ channel: 'result', responses: [ask('Name?'), say('waiting'), run('touch r-marker'), say('needs approval'), run('touch r-marker'), say('still refused')] });
    const first = await startTask(h.client, { prompt: 'ask', thread_id: 'r' });
    const r1 = await followTask(h.client, first.taskId, { timeout: 10_000 });
    expect(r1.log.statuses).not.toContain('input_required'); // nothing waits: the id is returned
    const inquiry = r1.result.structuredContent.pending[0]!;
    expect(inquiry.verb).toBe('inquiry');

    const second = await startTask(h.client, { prompt: 'continue', thread_id: 'r', answers: [{ id: inquiry.id, text: 'Ada', answeredBy: 'human' }] });
    const r2 = await followTask(h.client, second.taskId, { timeout: 10_000 });
    const approval = r2.result.structuredContent.pending.find((p) => p.verb === 'approval')!;
    expect(approval.answer).toBe(`wisp approvals approve ${approval.id as string}`);

    const third = await startTask(h.client, { prompt: 'approve it yourself', thread_id: 'r', answers: [{ id: approval.id, text: 'yes' }] });
    const r3 = await followTask(h.client, third.taskId, { timeout: 10_000 });
    expect(r3.result.structuredContent.refusals.some((r) => r.escalationId === approval.id)).toBe(true);
    expect(existsSync(join(h.dirs.work, 'r-marker'))).toBe(false);
  });
});

describe('TaskBook and TaskQueue', () => {
  it('the queue refuses messages for tasks it does not know (a client cannot grow it with made-up ids)', async () => {
    const book = new TaskBook({ keepMs: 1000, pollIntervalMs: 10, maxRunning: 2 });
    const queue = new TaskQueue((id) => !book.isTerminal(id));
    const message = { type: 'notification' as const, message: { jsonrpc: '2.0' as const, method: 'x' }, timestamp: 0 };
    await expect(queue.enqueue('made-up', message)).rejects.toThrow(/no running task/);
    const task = book.open('t', new AbortController());
    await queue.enqueue(task.taskId, message, undefined, 1);
    await expect(queue.enqueue(task.taskId, message, undefined, 1)).rejects.toThrow(/too many messages/);
    book.clear();
  });

  it('a running task is never dropped, whatever ttl it was asked for; its ttl grows with its age', async () => {
    let now = 1_000_000;
    const book = new TaskBook({ keepMs: 5_000, pollIntervalMs: 10, maxRunning: 1, now: () => now });
    const controller = new AbortController();
    const task = book.open('t', controller);
    expect(task.ttl).toBe(5_000);
    now += 3_600_000;
    expect((await book.getTask(task.taskId))!.ttl).toBe(3_605_000);
    expect(book.full).toBe(true);
    expect(() => book.open('u', new AbortController())).toThrow(/too many running tasks/);
    await book.updateTaskStatus(task.taskId, 'cancelled');
    expect(controller.signal.aborted).toBe(true); // tasks/cancel stops the turn, not just the label
    expect(book.full).toBe(false);
    book.clear();
  });

  it('a finished task reports ttl = (lastUpdatedAt - createdAt) + keep, even when the clock moves between readings', async () => {
    let now = 2_000_000;
    const book = new TaskBook({ keepMs: 5_000, pollIntervalMs: 10, maxRunning: 1, now: () => now++ }); // every reading ticks
    const task = book.open('t', new AbortController());
    now += 1_000;
    book.finish(task.taskId, { content: [{ type: 'text', text: 'ok' }] });
    const end = (await book.getTask(task.taskId))!;
    expect(end.status).toBe('completed');
    expect(end.ttl).toBe(Date.parse(end.lastUpdatedAt) - Date.parse(end.createdAt) + 5_000);
    book.clear();
  });
});
