// The per-task queue of an MCP task (spec 2025-11-25): messages — a task's elicitations — that the SDK delivers to
// the client on its tasks/result call. The tasks themselves are tasks.ts's book.
import type { QueuedMessage, TaskMessageQueue } from '@modelcontextprotocol/sdk/experimental/tasks';

/**
 * Messages for a task's requestor, delivered by the SDK when the client calls tasks/result. Only tasks the book
 * knows get a queue (a client cannot grow memory by naming made-up task ids), and an elicitation whose escalation
 * was settled elsewhere before delivery is taken back out, so the person never sees a dead form.
 */
export class TaskQueue implements TaskMessageQueue {
  private readonly queues = new Map<string, QueuedMessage[]>();

  constructor(private readonly known: (taskId: string) => boolean) {}

  async enqueue(taskId: string, message: QueuedMessage, _sessionId?: string, maxSize?: number): Promise<void> {
    if (!this.known(taskId)) throw new Error(`no running task ${taskId.slice(0, 64)}`);
    const queue = this.queues.get(taskId) ?? [];
    if (maxSize !== undefined && queue.length >= maxSize) throw new Error(`too many messages queued for task ${taskId}`);
    queue.push(message);
    this.queues.set(taskId, queue);
  }

  async dequeue(taskId: string): Promise<QueuedMessage | undefined> {
    const queue = this.queues.get(taskId);
    const message = queue?.shift();
    if (queue && queue.length === 0) this.queues.delete(taskId);
    return message;
  }

  async dequeueAll(taskId: string): Promise<QueuedMessage[]> {
    const queue = this.queues.get(taskId) ?? [];
    this.queues.delete(taskId);
    return queue;
  }

  /** Takes back an undelivered elicitation of `escalationId`; true when one was still queued. */
  withdraw(taskId: string, escalationId: string): boolean {
    const queue = this.queues.get(taskId);
    if (!queue) return false;
    const kept = queue.filter((m) => !(m.type === 'request' && escalationOf(m) === escalationId));
    if (kept.length === queue.length) return false;
    if (kept.length) this.queues.set(taskId, kept);
    else this.queues.delete(taskId);
    return true;
  }

  /** Messages waiting for delivery (tests, `wisp://pending`). */
  size(taskId: string): number {
    return this.queues.get(taskId)?.length ?? 0;
  }

  drop(taskId: string): void {
    this.queues.delete(taskId);
  }
}

function escalationOf(m: QueuedMessage): unknown {
  const params = (m.message as { params?: { _meta?: Record<string, unknown> } }).params;
  return params?._meta?.['wisp/escalation'];
}
