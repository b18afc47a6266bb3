// `wisp mcp`: an MCP server whose `respond` tool runs wisp's agent loop (design.md §8). Works over any transport:
// the CLI connects stdio, the tests an in-memory pair. This module wires the parts: the SDK server and its task
// store, the session and its escalation channel, threads, resources, and the tool handlers (respond.ts), whose
// contract is schemas.ts and whose results are shaped in result-shape.ts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type Task,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuditContext } from '../audit/kinds.js';
import type { Config } from '../config/schema.js';
import { visible } from '../core/visible.js';
import type { ChannelName } from '../core/channels.js';
import type { Escalation, EscalationChannel } from '../escalation/types.js';
import { initParser } from '../gate/parse.js';
import type { FaceChannel } from '../session/build-channel.js';
import type { Session } from '../session/session.js';
import { VERSION } from '../core/version.js';
import { McpChannel } from './mcp-channel.js';
import { registerResources } from './resources.js';
import { toolCalls, type CallScope } from './respond.js';
import { toolList } from './schemas.js';
import { TaskAwareChannel } from './task-channel.js';
import { TaskQueue } from './task-queue.js';
import { TaskBook } from './tasks.js';
import { ThreadManager } from './threads.js';

export type { RespondStructured } from './schemas.js';
export { RESPOND_DESCRIPTION } from './schemas.js';

export interface WispMcpOptions {
  /** The effective config (the same one the session is opened with). */
  readonly config: Config;
  /** The escalation channel, already resolved by the face (operator-only: no tool argument changes it). */
  readonly channel: ChannelName;
  /**
   * Opens the server's session. For the `elicitation` channel it is handed the server's channel factory, which must
   * be passed on as `SessionOptions.faceChannel`; `wrapChannel` must be passed on as `SessionOptions.wrapChannel`
   * (it lets a task show `input_required` while one of its escalations waits).
   */
  readonly openSession: (faceChannel?: FaceChannel, wrapChannel?: (c: EscalationChannel) => EscalationChannel) => Promise<Session>;
  /** Interval of "still waiting" progress lines while a person is asked. @default 10000 */
  readonly progressIntervalMs?: number;
  /** The poll interval tasks suggest to clients (and the SDK's tasks/result waits between looks). @default 500 */
  readonly taskPollIntervalMs?: number;
  /** Where a wait a person can answer in a terminal is announced (`wisp mcp`: stderr). */
  readonly notice?: (line: string) => void;
}

export interface WispMcp {
  readonly mcp: McpServer;
  readonly session: Session;
  readonly threads: ThreadManager;
  /** Tasks opened by `respond` calls that asked for one, and their message queues. */
  readonly tasks: TaskBook;
  readonly taskQueue: TaskQueue;
  /** The elicitation channel, when the server uses it. */
  readonly channel?: McpChannel;
  connect(transport: Transport): Promise<void>;
  /** Withdraws what is running, ends every thread and the server's session, and closes the transport. */
  close(reason?: string): Promise<void>;
}

/** Messages a task may have waiting for delivery; an escalation needs one at a time. */
const TASK_QUEUE_MAX = 16;

export async function createWispMcp(opts: WispMcpOptions): Promise<WispMcp> {
  await initParser(); // the gate parses synchronously once this is done (idempotent)
  const config = opts.config;
  // Tasks need the server to exist (status notifications), the server needs the book: tie them through `notify`.
  let notify: (task: Task) => void = () => undefined;
  const tasks = new TaskBook({
    keepMs: config.mcp.taskKeepSeconds * 1000,
    pollIntervalMs: opts.taskPollIntervalMs ?? 500,
    maxRunning: config.mcp.maxThreads,
    onStatus: (task) => notify(task),
    onDrop: (taskId) => taskQueue.drop(taskId),
  });
  const taskQueue = new TaskQueue((taskId) => !tasks.isTerminal(taskId));
  const mcp = new McpServer(
    { name: 'wisp', title: 'wisp', version: VERSION },
    {
      capabilities: {
        tools: { listChanged: false },
        resources: {},
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: tasks,
      taskMessageQueue: taskQueue,
      maxTaskQueueSize: TASK_QUEUE_MAX,
      instructions:
        "wisp runs a local model with tools behind a gate. Use the respond tool; when its result lists pending inquiries, ask your person and answer them with respond's answers on the same thread. Approvals are answered by a person in a terminal, never by you.",
    },
  );
  notify = (task) => {
    mcp.server.notification({ method: 'notifications/tasks/status', params: task }).catch(() => undefined);
  };
  const callContext = new AsyncLocalStorage<CallScope>();
  const clientName = () => mcp.server.getClientVersion()?.name;

  // The server's channel is built by the session's one channel builder, from the session's audit log and queue.
  let channel: McpChannel | undefined;
  const face: FaceChannel | undefined =
    opts.channel === 'elicitation'
      ? (parts, queue) =>
          (channel = new McpChannel({
            server: mcp.server,
            audit: parts.audit,
            queue: queue(),
            persistDays: parts.config.approval.persistDays,
            outOfBand: parts.config.escalation.outOfBand,
            currentRequestId: () => callContext.getStore()?.requestId,
            currentTask: () => callContext.getStore()?.taskId,
            clientName,
            ...(opts.progressIntervalMs !== undefined ? { progressIntervalMs: opts.progressIntervalMs } : {}),
          }))
      : undefined;
  // Channels that make a turn wait for a person report the wait to the turn's task (input_required).
  const waits = opts.channel === 'elicitation' || opts.channel === 'queue';
  const wrap = (inner: EscalationChannel): EscalationChannel =>
    waits
      ? new TaskAwareChannel(inner, {
          book: tasks,
          queue: taskQueue,
          currentTask: () => callContext.getStore()?.taskId,
          describe: (e, id) => waitingLine(e, id),
          ...(opts.notice ? { notice: (e: Escalation, id: string) => terminalNotice(e, id, opts.notice!) } : {}),
        })
      : inner;
  const session = await opts.openSession(face, wrap);
  const threads = new ThreadManager(session, session.config.mcp.maxThreads, clientName);
  const serverCtx: AuditContext = { session: session.id };

  registerResources(mcp, {
    session,
    threads,
    ...(channel ? { channel } : {}),
    clientElicits: () => Boolean(mcp.server.getClientCapabilities()?.elicitation),
    clientName,
  });

  const calls = toolCalls({ session, threads, tasks, callContext });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const task = request.params.task;
    if (name === 'respond') return calls.respond(args, extra, task);
    if (name === 'close_thread') {
      if (task !== undefined) {
        calls.refuse('close_thread', args, 'close_thread does not run as a task (only respond does); call it without task', serverCtx, ErrorCode.MethodNotFound);
      }
      return calls.closeThread(args);
    }
    const message = `unknown tool '${visible(name, { maxChars: 64 })}'; wisp offers respond and close_thread`;
    session.audit.write('mcp.request', { tool: name, arguments: args }, serverCtx);
    session.audit.write('mcp.result', { tool: name, isError: true, text: message, seconds: 0 }, serverCtx);
    throw new McpError(ErrorCode.InvalidParams, message);
  });

  // A client cancels request 0 in vain (SDK bug #2283); spend id 0 on a ping so the first dialog can be withdrawn.
  mcp.server.oninitialized = () => {
    mcp.server.ping().catch(() => undefined);
  };
  // tasks/get, with an error that says whether the task expired or never existed (the SDK's says neither).
  mcp.server.setRequestHandler(GetTaskRequestSchema, async (request) => {
    const task = await tasks.getTask(request.params.taskId);
    if (!task) throw new McpError(ErrorCode.InvalidParams, tasks.missing(request.params.taskId));
    return task;
  });

  // A client that goes away withdraws everything it was waiting for, its tasks included.
  mcp.server.onclose = () => {
    tasks.cancelAll('the client disconnected');
    threads.abortAll('the client disconnected');
  };

  /** A task's status line while one of its escalations waits: what, and where a person can answer. */
  function waitingLine(e: Escalation, id: string): string {
    const what = e.verb === 'approval' ? `approval of ${visible(e.request.command, { maxChars: 120 })}` : "an answer to the model's question";
    const routes: string[] = [];
    if (channel?.dialog.available) routes.push('in the form this task sends with tasks/result');
    if (opts.channel === 'queue' || (channel && config.escalation.outOfBand)) {
      routes.push(`in a terminal: wisp ${e.verb === 'approval' ? 'approvals approve' : 'inquiries answer'} ${id}`);
    }
    return `waiting for ${what} (${id})${routes.length ? `; answer ${routes.join(', or ')}` : ''}`;
  }

  /** The wait, said where the operator sees it, when it can be answered in a terminal (the queue is a leg). */
  function terminalNotice(e: Escalation, id: string, say: (line: string) => void): void {
    if (!(opts.channel === 'queue' || (channel && config.escalation.outOfBand))) return;
    const what = e.verb === 'approval' ? `approval of ${visible(e.request.command, { maxChars: 120 })}` : "an answer to the model's question";
    say(`waiting for ${what} (${id}); answer in a terminal: wisp ${e.verb === 'approval' ? 'approvals approve' : 'inquiries answer'} ${id}`);
  }

  let closed = false;
  return {
    mcp,
    session,
    threads,
    tasks,
    taskQueue,
    ...(channel ? { channel } : {}),
    connect: (transport) => mcp.connect(transport),
    async close(reason = 'done') {
      if (closed) return;
      closed = true;
      tasks.cancelAll('the server is shutting down');
      tasks.clear();
      threads.abortAll('the server is shutting down');
      threads.dropAll('shutdown', SHUTDOWN_WORDS[reason] ?? `wisp mcp shut down (${reason})`);
      session.end(reason);
      await mcp.close().catch(() => undefined);
    },
  };
}

/** Why the server closed, by the reason `wisp mcp` gives, for the escalations its threads leave waiting (ADR 0102). */
const SHUTDOWN_WORDS: Readonly<Record<string, string>> = {
  done: 'the MCP client disconnected (its end of standard input closed)',
  disconnected: 'the MCP client disconnected',
  terminated: 'wisp mcp was stopped (SIGTERM)',
  interrupted: 'wisp mcp was interrupted (SIGINT)',
  hangup: 'the terminal of wisp mcp was closed (SIGHUP)',
};
