// `wisp mcp`: an MCP server whose `respond` tool runs wisp's agent loop (design.md §8). Works over any transport:
// the CLI connects stdio, the tests an in-memory pair. Bad arguments are protocol errors (invalidParams) with a
// message that says what to send instead; a refused command is a normal result (not isError); a failure of the
// turn itself (the model unreachable, a script exhausted) is an isError result.
import { auditFailure } from '../audit/failure.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetTaskRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type CreateTaskResult,
  type RequestId,
  type ServerNotification,
  type ServerRequest,
  type Task,
  type TaskCreationParams,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { z } from 'zod';
import type { AuditContext } from '../audit/kinds.js';
import type { Config } from '../config/schema.js';
import { visible } from '../display/visible.js';
import type { ChannelName, Escalation, EscalationChannel } from '../escalation/types.js';
import { initParser } from '../gate/parse.js';
import { makeQueueChannel } from '../session/queue-wiring.js';
import type { TurnResult } from '../session/conversation.js';
import type { Session } from '../session/session.js';
import type { ToolEvent, WispTool } from '../tools/types.js';
import { VERSION } from '../version.js';
import { McpChannel } from './elicitation.js';
import { registerResources } from './resources.js';
import { TaskAwareChannel } from './task-channel.js';
import { TaskBook, TaskQueue } from './tasks.js';
import { THREAD_ID, ThreadManager, type Thread } from './threads.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface WispMcpOptions {
  /** The effective config (the same one the session is opened with). */
  readonly config: Config;
  /** The escalation channel, already resolved by the face (operator-only: no tool argument changes it). */
  readonly channel: ChannelName;
  /**
   * Opens the server's session. For the `elicitation` channel it is handed the channel to use, which must be
   * passed on as `SessionOptions.channelInstance`; `wrapChannel` must be passed on as `SessionOptions.wrapChannel`
   * (it lets a task show `input_required` while one of its escalations waits).
   */
  readonly openSession: (channelInstance?: EscalationChannel, wrapChannel?: (c: EscalationChannel) => EscalationChannel) => Promise<Session>;
  /** Interval of "still waiting" progress lines while a person is asked. @default 10000 */
  readonly progressIntervalMs?: number;
  /** The poll interval tasks suggest to clients (and the SDK's tasks/result waits between looks). @default 500 */
  readonly taskPollIntervalMs?: number;
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

// ---------------------------------------------------------------------------------------------------------------
// Arguments

const Answer = z.strictObject({
  id: z.string().min(1).max(64).describe('The pending id from a previous result'),
  text: z.string().max(65536).describe("The person's answer (at most 4 KiB)"),
  answeredBy: z.enum(['human', 'agent']).optional().describe('Who wrote the answer; recorded as given'),
});

const RespondArgs = z.strictObject({
  prompt: z.string().min(1).max(200_000).describe('What to ask or tell the agent'),
  thread_id: z
    .string()
    .regex(THREAD_ID)
    .optional()
    .describe('Continue this thread ([A-Za-z0-9._-], at most 64); omit for a new one, an unknown id starts a thread with that id'),
  instructions: z.string().max(20_000).optional().describe('Extra instructions for a new thread (only when it is created)'),
  tools: z
    .array(z.string())
    .max(16)
    .optional()
    .describe('Tools for a new thread (only when it is created); [] for text only; default all the server offers'),
  answers: z
    .array(Answer)
    .max(32)
    .optional()
    .describe('Answers to pending inquiries of this thread, from a previous result; approvals are never answered here'),
});
type RespondArgs = z.infer<typeof RespondArgs>;

const CloseArgs = z.strictObject({
  thread_id: z.string().min(1).max(64).describe('The thread to close'),
});

function jsonSchema(schema: z.ZodType): Tool['inputSchema'] {
  const out = z.toJSONSchema(schema) as Record<string, unknown>;
  delete out.$schema;
  return out as Tool['inputSchema'];
}

const RESPOND_OUTPUT: Tool['outputSchema'] = {
  type: 'object',
  properties: {
    thread_id: { type: 'string' },
    created: { type: 'boolean' },
    text: { type: 'string' },
    refusals: {
      type: 'array',
      items: {
        type: 'object',
        properties: { command: { type: 'string' }, reason: { type: 'string' }, escalationId: { type: 'string' } },
        required: ['command', 'reason'],
      },
    },
    pending: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          verb: { type: 'string', enum: ['approval', 'inquiry'] },
          command: { type: 'string' },
          question: { type: 'string' },
          pattern: { type: 'string' },
          level: { type: 'string' },
          reasons: { type: 'array', items: { type: 'string' } },
          expiresAt: { type: 'string' },
          answer: { type: 'string' },
        },
        required: ['id', 'verb', 'expiresAt', 'answer'],
      },
    },
    receipt: {
      type: 'object',
      properties: {
        commands: { type: 'array' },
        files: { type: 'array' },
        approvals: { type: 'array' },
        inquiries: { type: 'array' },
      },
      required: ['commands', 'files', 'approvals', 'inquiries'],
    },
  },
  required: ['thread_id', 'created', 'text', 'refusals', 'pending', 'receipt'],
};

export const RESPOND_DESCRIPTION =
  "Run wisp's agent on a prompt: a local model with tools (commands, file reads and edits, questions to the " +
  "operator), every action through wisp's gate. Pass thread_id to continue a conversation. Refused commands are " +
  'listed in refusals. When the result lists a pending inquiry, ask your person the question and call respond again ' +
  'on the same thread with answers: [{id, text}]. A pending approval is answered only by a person in a terminal ' +
  '(`wisp approvals approve ID`), never through answers.';

function toolList(): Tool[] {
  return [
    {
      name: 'respond',
      title: 'Ask wisp',
      description: RESPOND_DESCRIPTION,
      inputSchema: jsonSchema(RespondArgs),
      outputSchema: RESPOND_OUTPUT,
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
      // A client may run it as a task (poll, fetch the result later): no request timeout cuts a person's answer short.
      execution: { taskSupport: 'optional' },
    },
    {
      name: 'close_thread',
      title: 'Close a wisp thread',
      description: 'Drop a thread: its conversation is forgotten and its pending ids can no longer be answered.',
      inputSchema: jsonSchema(CloseArgs),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
  ];
}

function invalid(message: string): McpError {
  return new McpError(ErrorCode.InvalidParams, message);
}

function describeIssues(tool: string, error: z.ZodError): string {
  const parts = error.issues.map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : '(arguments)';
    if (issue.code === 'unrecognized_keys') {
      const keys = issue.keys;
      if (tool === 'respond' && keys.some((k) => ['escalation', 'channel', 'yes'].includes(k))) {
        return `${keys.join(', ')}: not an argument; the escalation channel is chosen by the operator (wisp mcp --escalation), never per call`;
      }
      if (tool === 'respond' && issue.path[0] === 'answers' && keys.includes('scope')) {
        return `${where}: answers carry {id, text}; an approval is answered only by a person in a terminal with \`wisp approvals approve ID\``;
      }
      return `${where}: unknown argument${keys.length > 1 ? 's' : ''} ${keys.join(', ')}`;
    }
    if (where === 'thread_id' && issue.code === 'invalid_format') {
      return 'thread_id: use 1 to 64 of A-Z a-z 0-9 . _ -';
    }
    return `${where}: ${issue.message}`;
  });
  const usage =
    tool === 'respond'
      ? 'respond takes {prompt, thread_id?, instructions?, tools?, answers?: [{id, text, answeredBy?}]}'
      : 'close_thread takes {thread_id}';
  return `invalid arguments for ${tool}: ${parts.join('; ')}. ${usage}`;
}

// ---------------------------------------------------------------------------------------------------------------

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
  const callContext = new AsyncLocalStorage<{ requestId: RequestId; taskId?: string }>();
  const clientName = () => mcp.server.getClientVersion()?.name;

  let channel: McpChannel | undefined;
  if (opts.channel === 'elicitation') {
    channel = new McpChannel({
      server: mcp.server,
      persistDays: opts.config.approval.persistDays,
      outOfBand: opts.config.escalation.outOfBand,
      currentRequestId: () => callContext.getStore()?.requestId,
      currentTask: () => callContext.getStore()?.taskId,
      clientName,
      ...(opts.progressIntervalMs !== undefined ? { progressIntervalMs: opts.progressIntervalMs } : {}),
    });
  }
  // Channels that make a turn wait for a person report the wait to the turn's task (input_required).
  const waits = opts.channel === 'elicitation' || opts.channel === 'queue';
  const wrap = (inner: EscalationChannel): EscalationChannel =>
    waits
      ? new TaskAwareChannel(inner, {
          book: tasks,
          queue: taskQueue,
          currentTask: () => callContext.getStore()?.taskId,
          describe: (e, id) => waitingLine(e, id),
        })
      : inner;
  const session = await opts.openSession(channel, wrap);
  if (channel) {
    const client = session.opts.client;
    const queue = makeQueueChannel({ paths: session.paths, audit: session.audit, config: session.config, ...(client ? { client } : {}) });
    channel.attach({ audit: session.audit, queue: queue.channel });
  }
  const threads = new ThreadManager(session, session.config.mcp.maxThreads, clientName);
  const serverCtx: AuditContext = { session: session.id };

  registerResources(mcp, {
    session,
    threads,
    ...(channel ? { channel } : {}),
    clientElicits: () => Boolean(mcp.server.getClientCapabilities()?.elicitation),
    clientName,
  });

  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const task = request.params.task;
    if (name === 'respond') return respond(args, extra, task);
    if (name === 'close_thread') {
      if (task !== undefined) {
        refuseArgs('close_thread', args, 'close_thread does not run as a task (only respond does); call it without task', serverCtx, ErrorCode.MethodNotFound);
      }
      return closeThread(args);
    }
    const message = `unknown tool '${visible(name, { maxChars: 64 })}'; wisp offers respond and close_thread`;
    session.audit.write('mcp.request', { tool: name, arguments: args }, serverCtx);
    session.audit.write('mcp.result', { tool: name, isError: true, text: message, seconds: 0 }, serverCtx);
    throw invalid(message);
  });

  // A client cancels request 0 in vain (SDK bug #2283); spend id 0 on a ping so the first dialog can be withdrawn.
  mcp.server.oninitialized = () => {
    mcp.server.ping().catch(() => undefined);
  };
  // tasks/get, with an error that says whether the task expired or never existed (the SDK's says neither).
  mcp.server.setRequestHandler(GetTaskRequestSchema, async (request) => {
    const task = await tasks.getTask(request.params.taskId);
    if (!task) throw invalid(tasks.missing(request.params.taskId));
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

  function refuseArgs(tool: string, args: unknown, message: string, ctx: AuditContext = serverCtx, code = ErrorCode.InvalidParams): never {
    session.audit.write('mcp.request', { tool, arguments: args }, ctx);
    session.audit.write('mcp.result', { tool, isError: true, text: message, seconds: 0 }, ctx);
    throw new McpError(code, message);
  }

  function pickTools(names: readonly string[]): WispTool[] {
    const offered = new Map(session.tools.map((t) => [t.name, t]));
    const unknown = names.filter((n) => !offered.has(n));
    if (unknown.length) {
      const list = session.tools.map((t) => t.name).join(', ') || 'none';
      throw new Error(`tools: ${unknown.map((n) => visible(n, { maxChars: 64 })).join(', ')} not offered by this server; it offers ${list} ([] for none)`);
    }
    return [...new Set(names)].map((n) => offered.get(n)!);
  }

  async function respond(raw: Record<string, unknown>, extra: Extra, task?: TaskCreationParams): Promise<CallToolResult | CreateTaskResult> {
    const started = Date.now();
    const parsed = RespondArgs.safeParse(raw);
    const givenThread = typeof raw.thread_id === 'string' && THREAD_ID.test(raw.thread_id) ? raw.thread_id : undefined;
    const argCtx: AuditContext = givenThread ? { ...serverCtx, thread: givenThread } : serverCtx;
    if (!parsed.success) refuseArgs('respond', raw, describeIssues('respond', parsed.error), argCtx);
    const args: RespondArgs = parsed.data;

    let thread = args.thread_id !== undefined ? threads.get(args.thread_id) : undefined;
    if (thread && (args.instructions !== undefined || args.tools !== undefined)) {
      refuseArgs(
        'respond',
        raw,
        `instructions and tools apply only when a thread is created; thread ${thread.id} already exists (leave them out, or start a new thread_id)`,
        thread.ctx,
      );
    }
    let tools: WispTool[] | undefined;
    if (args.tools !== undefined) {
      try {
        tools = pickTools(args.tools);
      } catch (err) {
        refuseArgs('respond', raw, `invalid arguments for respond: ${(err as Error).message}`, argCtx);
      }
    }
    if (task && tasks.full) {
      refuseArgs(
        'respond',
        raw,
        `too many running tasks: ${tasks.maxRunning} (mcp.maxThreads) are still working; wait for one to finish or cancel one with tasks/cancel`,
        thread?.ctx ?? argCtx,
        ErrorCode.InvalidRequest,
      );
    }
    const created = !thread;
    if (!thread) {
      thread = threads.create(args.thread_id, {
        ...(args.instructions !== undefined ? { instructions: args.instructions } : {}),
        ...(tools ? { tools } : {}),
      });
    }
    const t: Thread = thread;

    // Withdrawn when the client cancels this call (or its task), disconnects, or the thread is closed.
    const controller = new AbortController();
    const hold = () => {
      t.controllers.add(controller);
      t.busy++;
    };
    const release = () => {
      t.controllers.delete(controller);
      t.busy--;
      if (threads.get(t.id) === t) threads.touch(t);
    };

    if (!task) {
      session.audit.write('mcp.request', { tool: 'respond', arguments: raw, ...(created ? { created } : {}) }, t.ctx);
      hold();
      const onCancel = () => controller.abort(extra.signal.reason ?? new Error('the client cancelled the call'));
      if (extra.signal.aborted) onCancel();
      else extra.signal.addEventListener('abort', onCancel, { once: true });
      try {
        return await runTurn(t, args, created, controller, started, progressSender(extra), { requestId: extra.requestId });
      } finally {
        extra.signal.removeEventListener('abort', onCancel);
        release();
      }
    }

    // A task: answered at once; the turn runs in the background on its thread, and its result waits for tasks/result.
    // Only tasks/cancel (or a closed thread, a disconnect, shutdown) stops it: this request is already answered.
    const opened = tasks.open(t.id, controller);
    const taskId = opened.taskId;
    try {
      session.audit.write('mcp.request', { tool: 'respond', arguments: raw, task: taskId, ...(created ? { created } : {}) }, t.ctx);
    } catch (err) {
      tasks.cancel(taskId, 'the audit log could not be written'); // fail closed: no unrecorded work
      throw err;
    }
    hold();
    const progress = progressSender(extra);
    const taskProgress = progress && ((message: string) => void (tasks.isTerminal(taskId) || progress(message)));
    void runTurn(t, args, created, controller, started, taskProgress, { requestId: extra.requestId, taskId })
      .catch((err: unknown): CallToolResult => ({
        content: [{ type: 'text', text: `wisp could not finish this turn: ${err instanceof Error ? err.message : String(err)}` }],
        isError: true,
      }))
      .then((result) => tasks.finish(taskId, result))
      .finally(release);
    return { task: opened };
  }

  /** One turn on a thread, after the calls queued before it; what a plain call returns and a task stores. */
  async function runTurn(
    t: Thread,
    args: RespondArgs,
    created: boolean,
    controller: AbortController,
    started: number,
    progress: ((message: string) => void) | undefined,
    call: { requestId: RequestId; taskId?: string },
  ): Promise<CallToolResult> {
    const task = call.taskId !== undefined ? { task: call.taskId } : {};
    try {
      const result = await t.serial(async () => {
        controller.signal.throwIfAborted();
        threads.touch(t);
        return callContext.run(call, () =>
          t.conversation.turn(args.prompt, {
            signal: controller.signal,
            ...(progress ? { onProgress: progress, onEvent: (e: ToolEvent) => progress(eventLine(e)) } : {}),
            ...(args.answers?.length ? { answers: args.answers } : {}),
          }),
        );
      });
      const structured = shape(t.id, created, result);
      const content: CallToolResult['content'] = [{ type: 'text', text: result.text }];
      const note = noteFor(t.id, structured);
      if (note) content.push({ type: 'text', text: note });
      session.audit.write('mcp.result', { tool: 'respond', isError: false, text: result.text, seconds: seconds(started), ...task }, t.ctx);
      return { content, structuredContent: structured };
    } catch (err) {
      const cancelled = controller.signal.aborted;
      if (!cancelled) auditFailure(session.audit, err, { context: 'mcp', model: session.model.id }, t.ctx); // once: a model failure was recorded in the turn
      const message = cancelled
        ? `cancelled: ${reasonText(controller.signal.reason)}`
        : `wisp could not finish this turn: ${err instanceof Error ? err.message : String(err)}`;
      session.audit.write(
        'mcp.result',
        { tool: 'respond', isError: true, text: message, seconds: seconds(started), ...(cancelled ? { cancelled } : {}), ...task },
        t.ctx,
      );
      return { content: [{ type: 'text', text: message }], isError: true };
    }
  }

  async function closeThread(raw: Record<string, unknown>): Promise<CallToolResult> {
    const parsed = CloseArgs.safeParse(raw);
    if (!parsed.success) refuseArgs('close_thread', raw, describeIssues('close_thread', parsed.error));
    const id = parsed.data.thread_id;
    const thread = threads.get(id);
    if (!thread) {
      const text = `no thread ${visible(id, { maxChars: 64 })}: it was closed, evicted (beyond mcp.maxThreads), or never opened`;
      session.audit.write('mcp.request', { tool: 'close_thread', arguments: raw }, { ...serverCtx, thread: id });
      session.audit.write('mcp.result', { tool: 'close_thread', isError: true, text, seconds: 0 }, { ...serverCtx, thread: id });
      return { content: [{ type: 'text', text }], isError: true };
    }
    const ctx = thread.ctx;
    session.audit.write('mcp.request', { tool: 'close_thread', arguments: raw }, ctx);
    const dropped = threads.drop(id, 'closed') ?? [];
    const text = `closed ${id}${dropped.length ? ` (dropped pending ${dropped.join(', ')})` : ''}`;
    session.audit.write('mcp.result', { tool: 'close_thread', isError: false, text, seconds: 0 }, ctx);
    return { content: [{ type: 'text', text }], structuredContent: { thread_id: id, closed: true, dropped } };
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
      threads.dropAll('shutdown');
      session.end(reason);
      await mcp.close().catch(() => undefined);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Results

export interface RespondStructured {
  [key: string]: unknown;
  thread_id: string;
  created: boolean;
  text: string;
  refusals: Array<{ command: string; reason: string; escalationId?: string }>;
  pending: Array<Record<string, unknown>>;
  receipt: { commands: unknown[]; files: unknown[]; approvals: unknown[]; inquiries: unknown[] };
}

function shape(threadId: string, created: boolean, result: TurnResult): RespondStructured {
  return {
    thread_id: threadId,
    created,
    text: result.text,
    refusals: result.refusals.map((r) => ({ command: r.command, reason: r.reason, ...(r.escalationId ? { escalationId: r.escalationId } : {}) })),
    pending: result.pending.map((p) =>
      p.verb === 'approval'
        ? { id: p.id, verb: p.verb, command: p.command, pattern: p.pattern, level: p.level, reasons: [...p.reasons], expiresAt: p.expiresAt, answer: p.answer }
        : { id: p.id, verb: p.verb, question: p.question, expiresAt: p.expiresAt, answer: p.answer },
    ),
    receipt: {
      commands: result.receipt.commands,
      files: result.receipt.files,
      approvals: result.receipt.approvals,
      inquiries: result.receipt.inquiries,
    },
  };
}

/** A second text block for agents that read only `content`: what is pending and what was refused. */
function noteFor(threadId: string, s: RespondStructured): string | undefined {
  const lines: string[] = [];
  for (const p of s.pending) {
    if (p.verb === 'inquiry') {
      lines.push(
        `wisp: pending inquiry ${p.id as string}: ${visible(String(p.question), { maxChars: 300 })} — ask your person, then call respond ` +
          `with thread_id "${threadId}" and answers: [{"id": "${p.id as string}", "text": "<their answer>"}]`,
      );
    } else {
      lines.push(
        `wisp: pending approval ${p.id as string} for ${visible(String(p.command), { maxChars: 200 })} — only a person can answer it, ` +
          `in a terminal: wisp approvals approve ${p.id as string}; then call respond again on thread "${threadId}"`,
      );
    }
  }
  for (const r of s.refusals) {
    if (s.pending.some((p) => p.id === r.escalationId)) continue;
    lines.push(`wisp: refused ${visible(r.command, { maxChars: 200 })}: ${visible(r.reason, { maxChars: 600 })}`); // a reason may quote a part
  }
  return lines.length ? lines.join('\n') : undefined;
}

function progressSender(extra: Extra): ((message: string) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  let n = 0;
  return (message: string) => {
    if (extra.signal.aborted) return;
    extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: ++n, message } })
      .catch(() => undefined);
  };
}

function eventLine(event: ToolEvent): string {
  switch (event.type) {
    case 'gate': {
      const how = event.allowed ? event.notes.join('; ') : (event.notes[event.notes.length - 1] ?? event.reason ?? 'refused');
      return `${event.tool}: ${visible(event.subject, { maxChars: 160 })} — ${visible(how, { maxChars: 400 })}`;
    }
    case 'output':
      return `${event.tool}: ${visible(event.subject, { maxChars: 80 })} finished`;
    case 'inquiry':
      return `ask_operator: ${visible(event.question, { maxChars: 160 })} — ${event.outcome}`;
  }
}

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  if (typeof reason === 'string' && reason) return reason;
  return 'the call was withdrawn';
}

function seconds(started: number): number {
  return (Date.now() - started) / 1000;
}
