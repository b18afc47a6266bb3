// The session's escalation channel as seen from a task: while an escalation of a task's turn waits for a person,
// the task shows `input_required` with a line saying what it waits for and where to answer; when the escalation
// settles (answered anywhere, timed out, withdrawn) the task goes back to `working`, and an elicitation that was
// never delivered is taken out of the task's queue. Outside a task it is the inner channel, untouched.
import type { ChannelName } from '../core/channels.js';
import type { Escalation, EscalationChannel, EscalationOutcome, RaiseContext } from '../escalation/types.js';
import type { TaskQueue } from './task-queue.js';
import type { TaskBook } from './tasks.js';

export interface TaskChannelDeps {
  readonly book: TaskBook;
  readonly queue: TaskQueue;
  /** The task whose turn is raising, if any (from the server's call context). */
  readonly currentTask: () => string | undefined;
  /** The status line for a waiting escalation. */
  readonly describe: (e: Escalation, escalationId: string) => string;
  /**
   * Told once per escalation, in or out of a task, when a person can answer it in a terminal: `wisp mcp` writes it
   * to stderr, so a wait is never silent where the client shows no progress (ADR 0097).
   */
  readonly notice?: (e: Escalation, escalationId: string) => void;
}

export class TaskAwareChannel implements EscalationChannel {
  constructor(
    private readonly inner: EscalationChannel,
    private readonly deps: TaskChannelDeps,
  ) {}

  get name(): EscalationChannel['name'] {
    return this.inner.name;
  }

  route(e: Escalation): ChannelName {
    return this.inner.route?.(e) ?? this.inner.name;
  }

  resumes(e: Escalation, thread: string | undefined): string | undefined {
    return this.inner.resumes?.(e, thread);
  }

  async raise(e: Escalation, ctx: RaiseContext): Promise<EscalationOutcome> {
    this.deps.notice?.(e, ctx.escalationId);
    const taskId = this.deps.currentTask();
    if (taskId === undefined) return this.inner.raise(e, ctx);
    const { book, queue } = this.deps;
    book.beginWait(taskId, ctx.escalationId, this.deps.describe(e, ctx.escalationId));
    try {
      return await this.inner.raise(e, ctx);
    } finally {
      queue.withdraw(taskId, ctx.escalationId);
      book.endWait(taskId, ctx.escalationId);
    }
  }
}
