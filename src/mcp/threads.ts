// Threads of `wisp mcp`: one conversation each, in memory. Calls on one thread run one after another; threads run
// side by side. Beyond `mcp.maxThreads` the least recently used idle thread is dropped (`session.end` evicted).
// Each thread is an audit session of its own whose `session.start` names the server's session as its parent.
import type { AuditContext } from '../audit/kinds.js';
import { abandonInFlight, settleAbandoned } from '../escalation/escalate.js';
import type { ChannelName } from '../core/channels.js';
import type { Conversation } from '../session/conversation.js';
import type { Session } from '../session/session.js';
import type { WispTool } from '../tools/types.js';
import { shortId } from '../core/ids.js';

export const THREAD_ID = /^[A-Za-z0-9._-]{1,64}$/;

export class Thread {
  readonly createdAt = Date.now();
  lastUsed = Date.now();
  /** Calls queued or running on this thread. */
  busy = 0;
  /** Controllers of the calls queued or running here: aborting one withdraws its escalations. */
  readonly controllers = new Set<AbortController>();
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    readonly id: string,
    /** The thread's own audit session. */
    readonly session: string,
    readonly conversation: Conversation,
    readonly tools: readonly string[],
    readonly instructions?: string,
  ) {}

  get ctx(): AuditContext {
    return { session: this.session, thread: this.id };
  }

  get turns(): number {
    return this.conversation.turns;
  }

  /** Runs `fn` after every call queued before it on this thread. */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

export interface ThreadInfo {
  readonly thread_id: string;
  readonly session: string;
  readonly turns: number;
  readonly busy: boolean;
  readonly tools: readonly string[];
  readonly instructions?: string;
  readonly createdAt: string;
  readonly lastUsed: string;
}

export class ThreadManager {
  /** Insertion order is recency: a used thread is moved to the end. */
  private readonly threads = new Map<string, Thread>();

  constructor(
    private readonly session: Session,
    private readonly maxThreads: number,
    /** The connected client's name, recorded in each thread's session.start. */
    private readonly clientName: () => string | undefined = () => undefined,
  ) {}

  get size(): number {
    return this.threads.size;
  }

  get(id: string): Thread | undefined {
    return this.threads.get(id);
  }

  /** Moves a thread to the most-recently-used end. */
  touch(thread: Thread): void {
    thread.lastUsed = Date.now();
    if (this.threads.get(thread.id) === thread) {
      this.threads.delete(thread.id);
      this.threads.set(thread.id, thread);
    }
  }

  create(id: string | undefined, opts: { instructions?: string; tools?: readonly WispTool[] } = {}): Thread {
    const threadId = id ?? this.freshId();
    this.makeRoom();
    const tools = opts.tools ?? this.session.tools;
    const auditSession = shortId(8);
    const conversation = this.session.conversation({
      thread: threadId,
      session: auditSession,
      tools,
      ...(opts.instructions ? { instructions: opts.instructions } : {}),
    });
    const thread = new Thread(threadId, auditSession, conversation, tools.map((t) => t.name), opts.instructions);
    const client = this.clientName() ?? this.session.opts.client;
    this.session.audit.write(
      'session.start',
      {
        entryPoint: 'mcp',
        parent: this.session.id,
        model: this.session.model.id,
        tools: thread.tools,
        channel: this.session.channel.name,
        ...(opts.instructions ? { instructions: opts.instructions } : {}),
        ...(client ? { client } : {}),
      },
      thread.ctx,
    );
    this.threads.set(threadId, thread);
    return thread;
  }

  /**
   * Drops a thread: its running calls are withdrawn, its pending ids can never be redeemed, and its audit session
   * ends with `reason`. Returns the dropped pending ids, or undefined for an unknown thread.
   */
  drop(id: string, reason: 'closed' | 'evicted' | 'shutdown', why?: string): string[] | undefined {
    const thread = this.threads.get(id);
    if (!thread) return undefined;
    this.threads.delete(id);
    // What its running calls still wait for is settled now, saying why (ADR 0102): the withdrawn calls' own
    // settlement comes later, after this thread's session.end, and would only say "cancelled".
    const dropped: string[] = abandonInFlight(thread.ctx.session, `${why ?? THREAD_ENDED[reason]} before an answer came`);
    for (const c of thread.controllers) c.abort(new Error(`thread ${id} ${reason}`));
    const settle = (escalationId: string, verb: 'approval' | 'inquiry', channel: ChannelName) => {
      dropped.push(escalationId);
      settleAbandoned(this.session.audit, thread.ctx, { escalationId, verb, channel }, `thread ${reason}`);
    };
    for (const p of this.session.pendingInquiries.dropThread(id)) settle(p.id, 'inquiry', 'result');
    for (const a of this.session.resultChannel?.dropThread(id) ?? []) settle(a, 'approval', 'queue');
    this.session.audit.write('session.end', { reason, turns: thread.turns, ...(dropped.length ? { dropped } : {}) }, thread.ctx);
    return dropped;
  }

  /** Withdraws every running call (the client went away). */
  abortAll(reason: string): void {
    for (const thread of this.threads.values()) for (const c of thread.controllers) c.abort(new Error(reason));
  }

  /** Ends every thread (server shutdown). */
  /** `why`: what ended the server, in a person's words (the client disconnected, a signal). */
  dropAll(reason: 'shutdown' = 'shutdown', why?: string): void {
    for (const id of [...this.threads.keys()]) this.drop(id, reason, why);
  }

  list(): ThreadInfo[] {
    return [...this.threads.values()].map((t) => ({
      thread_id: t.id,
      session: t.session,
      turns: t.turns,
      busy: t.busy > 0,
      tools: t.tools,
      ...(t.instructions ? { instructions: t.instructions } : {}),
      createdAt: new Date(t.createdAt).toISOString(),
      lastUsed: new Date(t.lastUsed).toISOString(),
    }));
  }

  private freshId(): string {
    let id: string;
    do id = `t-${shortId(4)}`;
    while (this.threads.has(id));
    return id;
  }

  /** Evicts least recently used idle threads until one more fits. A busy thread is never evicted mid-call. */
  private makeRoom(): void {
    while (this.threads.size >= this.maxThreads) {
      const victim = [...this.threads.values()].find((t) => t.busy === 0);
      if (!victim) return; // every thread is working: go over the cap until one finishes
      this.drop(victim.id, 'evicted');
    }
  }
}

/** Why a thread's waiting escalations were abandoned, by how the thread ended. */
const THREAD_ENDED: Readonly<Record<'closed' | 'evicted' | 'shutdown', string>> = {
  closed: 'the thread was closed (close_thread)',
  evicted: 'the thread was evicted (the server keeps a bounded number of threads)',
  shutdown: 'wisp mcp shut down',
};
