// MCP tasks (spec 2025-11-25) for `wisp mcp`: the book of tasks the SDK's protocol layer reads (tasks/get,
// tasks/result, tasks/list, tasks/cancel); the per-task queue of messages for the client is task-queue.ts. Only
// `respond` opens tasks; the SDK's `createTask` path is not used.
//
// Lifetime (ADR 0036): a running task is never dropped — its turn bounds it, and each escalation in the turn waits
// at most escalation.timeoutSeconds. A finished task (completed, failed, cancelled) is kept `keepMs`, then dropped;
// a dropped id is remembered for a while so a late poll is told the task expired rather than "never existed".
// The reported `ttl` is the time from creation the task is certainly kept: while it runs, its age plus keepMs;
// once finished, exactly (finished - created) + keepMs. Running tasks are bounded by `maxRunning`.
import { isTerminal, type CreateTaskOptions, type TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { CallToolResult, Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';

export interface TaskBookOptions {
  /** How long a finished task is kept (`mcp.taskKeepSeconds`). */
  readonly keepMs: number;
  /** The poll interval suggested to clients; the SDK's tasks/result also waits this long between looks. */
  readonly pollIntervalMs: number;
  /** Running tasks allowed at once (`mcp.maxThreads`). */
  readonly maxRunning: number;
  /** Told every status change (the server sends `notifications/tasks/status`). */
  readonly onStatus?: (task: Task) => void;
  /** Told when a task is dropped, so its queue goes too. */
  readonly onDrop?: (taskId: string) => void;
  readonly now?: () => number;
}

interface Entry {
  readonly taskId: string;
  readonly created: number;
  readonly thread: string;
  readonly controller: AbortController;
  status: Task['status'];
  statusMessage?: string;
  lastUpdated: number;
  finished?: number;
  result?: Result;
  /** Escalations this task is waiting on, with the line each shows in statusMessage. */
  readonly waiting: Map<string, string>;
  dropTimer?: NodeJS.Timeout;
}

/** How many dropped ids are remembered (for the "expired" message); the oldest are forgotten first. */
const TOMBSTONES = 1024;
const PAGE = 50;

export class TaskBook implements TaskStore {
  private readonly entries = new Map<string, Entry>();
  private readonly dropped = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly opts: TaskBookOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Tasks whose turn is still going. */
  running(): number {
    let n = 0;
    for (const e of this.entries.values()) if (!isTerminal(e.status)) n++;
    return n;
  }

  get full(): boolean {
    return this.running() >= this.opts.maxRunning;
  }

  get maxRunning(): number {
    return this.opts.maxRunning;
  }

  /** Opens a task for a turn on `thread`; `controller` stops the turn when the task is cancelled. */
  open(thread: string, controller: AbortController): Task {
    if (this.full) throw new Error(`too many running tasks (mcp.maxThreads is ${this.opts.maxRunning})`);
    let taskId: string;
    do taskId = randomBytes(16).toString('hex');
    while (this.entries.has(taskId) || this.dropped.has(taskId));
    const now = this.now();
    const entry: Entry = { taskId, created: now, thread, controller, status: 'working', lastUpdated: now, waiting: new Map() };
    this.entries.set(taskId, entry);
    return this.view(entry);
  }

  isTerminal(taskId: string): boolean {
    const e = this.entries.get(taskId);
    return !e || isTerminal(e.status);
  }

  /** The task now waits for a person (status `input_required`, with what it waits for). */
  beginWait(taskId: string, escalationId: string, line: string): void {
    const e = this.entries.get(taskId);
    if (!e || isTerminal(e.status)) return;
    e.waiting.set(escalationId, line);
    this.set(e, 'input_required', [...e.waiting.values()].join('\n'));
  }

  endWait(taskId: string, escalationId: string): void {
    const e = this.entries.get(taskId);
    if (!e) return;
    e.waiting.delete(escalationId);
    if (isTerminal(e.status)) return;
    if (e.waiting.size) this.set(e, 'input_required', [...e.waiting.values()].join('\n'));
    else this.set(e, 'working', undefined);
  }

  /** The turn's result: `failed` when it is an error result, else `completed`. A cancelled task keeps its status. */
  finish(taskId: string, result: CallToolResult): void {
    const e = this.entries.get(taskId);
    if (!e || isTerminal(e.status)) return;
    e.result = result;
    this.end(e, result.isError ? 'failed' : 'completed', result.isError ? firstText(result) : undefined);
  }

  /** Cancels a running task: its turn is stopped and its escalations withdrawn (the caller audits them). */
  cancel(taskId: string, reason: string): boolean {
    const e = this.entries.get(taskId);
    if (!e || isTerminal(e.status)) return false;
    // What tasks/result gives for a cancelled task: the error result the withdrawn call would have given.
    e.result = { content: [{ type: 'text', text: `cancelled: ${reason}` }], isError: true };
    e.waiting.clear();
    this.end(e, 'cancelled', reason);
    e.controller.abort(new Error(reason));
    return true;
  }

  cancelAll(reason: string): void {
    for (const id of [...this.entries.keys()]) this.cancel(id, reason);
  }

  /** Why a task id is not (or no longer) here, for a clear error. */
  missing(taskId: string): string {
    const shown = taskId.length > 64 ? `${taskId.slice(0, 64)}…` : taskId;
    return this.dropped.has(taskId)
      ? `task ${shown} has expired: a finished task is kept ${Math.round(this.opts.keepMs / 1000)} s (mcp.taskKeepSeconds), then dropped`
      : `task ${shown} not found: no task with this id was created by this server`;
  }

  /** Forgets every task and stops every timer (server shutdown). */
  clear(): void {
    for (const e of this.entries.values()) if (e.dropTimer) clearTimeout(e.dropTimer);
    this.entries.clear();
  }

  // -------------------------------------------------------------------------------------------------------------
  // TaskStore, as the SDK's handlers use it (stdio has no session ids, so `sessionId` is not used).

  createTask(_params: CreateTaskOptions, _requestId: RequestId, _request: Request): Promise<Task> {
    return Promise.reject(new Error('wisp opens tasks only for respond'));
  }

  async getTask(taskId: string): Promise<Task | null> {
    const e = this.entries.get(taskId);
    return e ? this.view(e) : null;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): Promise<void> {
    const e = this.entries.get(taskId);
    if (!e) throw new Error(this.missing(taskId));
    if (isTerminal(e.status)) throw new Error(`task ${taskId} has already ended (${e.status})`);
    e.result = result;
    this.end(e, status, undefined);
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const e = this.entries.get(taskId);
    if (!e) throw new Error(this.missing(taskId));
    if (!e.result) throw new Error(`task ${taskId} has no result yet (${e.status})`);
    return e.result;
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void> {
    const e = this.entries.get(taskId);
    if (!e) throw new Error(this.missing(taskId));
    if (isTerminal(e.status)) throw new Error(`task ${taskId} has already ended (${e.status})`);
    // tasks/cancel arrives here: it must stop the turn, not just relabel it.
    if (status === 'cancelled') {
      this.cancel(taskId, 'the client cancelled the task');
      return;
    }
    if (isTerminal(status)) {
      this.end(e, status, statusMessage);
      return;
    }
    this.set(e, status, statusMessage);
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const ids = [...this.entries.keys()];
    let start = 0;
    if (cursor !== undefined) {
      const at = ids.indexOf(cursor);
      if (at < 0) throw new Error('invalid cursor: start again without one');
      start = at + 1;
    }
    const page = ids.slice(start, start + PAGE);
    const tasks = page.map((id) => this.view(this.entries.get(id)!));
    return start + PAGE < ids.length ? { tasks, nextCursor: page[page.length - 1]! } : { tasks };
  }

  // -------------------------------------------------------------------------------------------------------------

  private view(e: Entry): Task {
    const age = (e.finished ?? this.now()) - e.created;
    return {
      taskId: e.taskId,
      status: e.status,
      ttl: age + this.opts.keepMs,
      createdAt: new Date(e.created).toISOString(),
      lastUpdatedAt: new Date(e.lastUpdated).toISOString(),
      pollInterval: this.opts.pollIntervalMs,
      ...(e.statusMessage !== undefined ? { statusMessage: e.statusMessage } : {}),
    };
  }

  private set(e: Entry, status: Task['status'], statusMessage: string | undefined, at = this.now()): void {
    const changed = e.status !== status || e.statusMessage !== statusMessage;
    e.status = status;
    if (statusMessage === undefined) delete e.statusMessage;
    else e.statusMessage = statusMessage;
    e.lastUpdated = at;
    if (changed) this.opts.onStatus?.(this.view(e));
  }

  private end(e: Entry, status: Task['status'], statusMessage: string | undefined): void {
    // One reading of the clock: the reported ttl is exactly (lastUpdatedAt - createdAt) + keep.
    e.finished = this.now();
    this.set(e, status, statusMessage, e.finished);
    e.dropTimer = setTimeout(() => this.drop(e.taskId), this.opts.keepMs);
    e.dropTimer.unref?.();
  }

  private drop(taskId: string): void {
    if (!this.entries.delete(taskId)) return;
    this.dropped.set(taskId, this.now());
    while (this.dropped.size > TOMBSTONES) this.dropped.delete(this.dropped.keys().next().value!);
    this.opts.onDrop?.(taskId);
  }
}

function firstText(result: CallToolResult): string | undefined {
  const block = result.content.find((c) => c.type === 'text');
  return block && block.type === 'text' ? block.text.slice(0, 500) : undefined;
}
