// The client side of MCP tasks as a test drives it, with the SDK's Client: start `respond` as a task, poll it the
// way the spec asks (tasks/get; tasks/result when input is required, which may time out and is then retried), and
// fetch the result. Every request carries an explicit timeout, so a test can play a client with a short one.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import type { RespondStructured } from '../../src/mcp/server.js';

export type RespondResult = CallToolResult & { structuredContent: RespondStructured };

export async function startTask(client: Client, args: Record<string, unknown>, opts: { timeout?: number; ttl?: number } = {}): Promise<Task> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'respond', arguments: args, task: opts.ttl !== undefined ? { ttl: opts.ttl } : {} } },
    CreateTaskResultSchema,
    { timeout: opts.timeout ?? 30_000 },
  );
  return created.task;
}

export const getTask = (client: Client, taskId: string, timeout = 30_000): Promise<Task> =>
  client.experimental.tasks.getTask(taskId, { timeout });

export const taskResult = (client: Client, taskId: string, timeout = 30_000): Promise<RespondResult> =>
  client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { timeout }) as Promise<RespondResult>;

export const cancelTask = (client: Client, taskId: string): Promise<Task> => client.experimental.tasks.cancelTask(taskId, { timeout: 30_000 });

const isTimeout = (err: unknown) => err instanceof McpError && err.code === ErrorCode.RequestTimeout;

export interface PollLog {
  /** Every status tasks/get returned, in order (repeats collapsed). */
  readonly statuses: Task['status'][];
  /** Requests (tasks/result, or a slow tasks/get) that ran into the client's own timeout. */
  timeouts: number;
  /** Status messages seen while input was required. */
  readonly waitingLines: string[];
}

/**
 * Polls a task to its end as a spec-following client with request timeout `timeout` would: tasks/get every
 * `pollMs`; on input_required it calls tasks/result (which delivers the task's forms and blocks until the end) and,
 * when that call times out, goes back to polling. Returns the result and what it saw.
 */
export async function followTask(
  client: Client,
  taskId: string,
  opts: { timeout: number; pollMs?: number; deadlineMs?: number },
): Promise<{ result: RespondResult; task: Task; log: PollLog }> {
  const log: PollLog = { statuses: [], timeouts: 0, waitingLines: [] };
  const deadline = Date.now() + (opts.deadlineMs ?? 60_000);
  const seen = (t: Task) => {
    if (log.statuses[log.statuses.length - 1] !== t.status) log.statuses.push(t.status);
    if (t.status === 'input_required' && t.statusMessage && !log.waitingLines.includes(t.statusMessage)) log.waitingLines.push(t.statusMessage);
  };
  for (;;) {
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not end in time; saw ${log.statuses.join(' → ')}`);
    let task: Task;
    try {
      task = await getTask(client, taskId, opts.timeout);
    } catch (err) {
      // A client with a short timeout retries a slow poll; it does not give up on the task.
      if (!isTimeout(err)) throw err;
      log.timeouts++;
      continue;
    }
    seen(task);
    if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') {
      return { result: await taskResult(client, taskId, opts.timeout), task, log };
    }
    if (task.status === 'input_required') {
      try {
        const result = await taskResult(client, taskId, opts.timeout);
        const end = await getTask(client, taskId, opts.timeout);
        seen(end);
        return { result, task: end, log };
      } catch (err) {
        if (!isTimeout(err)) throw err;
        log.timeouts++;
        continue;
      }
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 50));
  }
}

/** Polls tasks/get until `probe` accepts the task. */
export async function waitForTask(client: Client, taskId: string, probe: (t: Task) => boolean, timeoutMs = 15_000): Promise<Task> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const task = await getTask(client, taskId);
    if (probe(task)) return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} stayed ${task.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
