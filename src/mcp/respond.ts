// The handlers of wisp's two MCP tools: `respond` (one turn on a thread, as a plain call or as a task) and
// `close_thread`. Bad arguments are protocol errors with a message that says what to send instead; a refused
// command is a normal result; a failure of the turn itself (the model unreachable, a script exhausted) is isError.
import type { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type CreateTaskResult,
  type RequestId,
  type ServerNotification,
  type ServerRequest,
  type TaskCreationParams,
} from '@modelcontextprotocol/sdk/types.js';
import { auditFailure } from '../audit/failure.js';
import type { AuditContext } from '../audit/kinds.js';
import { visible } from '../core/visible.js';
import { doneBeforeFailure } from '../session/conversation.js';
import type { Session } from '../session/session.js';
import { TurnReceipt, type ToolEvent, type WispTool } from '../tools/types.js';
import { describeIssues } from './arg-errors.js';
import { eventLine, noteFor, shape } from './result-shape.js';
import { CloseArgs, RespondArgs } from './schemas.js';
import type { TaskBook } from './tasks.js';
import { THREAD_ID, type Thread, type ThreadManager } from './threads.js';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The call a turn runs for: its request id, and its task when it runs as one (escalations relate to it). */
export interface CallScope {
  readonly requestId: RequestId;
  readonly taskId?: string;
}

export interface ToolCallDeps {
  readonly session: Session;
  readonly threads: ThreadManager;
  readonly tasks: TaskBook;
  /** Set around each turn, so the escalation channel knows which call (and task) is asking. */
  readonly callContext: AsyncLocalStorage<CallScope>;
}

export interface ToolCalls {
  respond(raw: Record<string, unknown>, extra: Extra, task?: TaskCreationParams): Promise<CallToolResult | CreateTaskResult>;
  closeThread(raw: Record<string, unknown>): Promise<CallToolResult>;
  /** Audits a refused call (request and result) and throws the protocol error. */
  refuse(tool: string, args: unknown, message: string, ctx?: AuditContext, code?: ErrorCode): never;
}

export function toolCalls(deps: ToolCallDeps): ToolCalls {
  const { session, threads, tasks, callContext } = deps;
  const serverCtx: AuditContext = { session: session.id };

  function refuse(tool: string, args: unknown, message: string, ctx: AuditContext = serverCtx, code = ErrorCode.InvalidParams): never {
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
    if (!parsed.success) refuse('respond', raw, describeIssues('respond', parsed.error), argCtx);
    const args: RespondArgs = parsed.data;

    let thread = args.thread_id !== undefined ? threads.get(args.thread_id) : undefined;
    if (thread && (args.instructions !== undefined || args.tools !== undefined)) {
      refuse(
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
        refuse('respond', raw, `invalid arguments for respond: ${(err as Error).message}`, argCtx);
      }
    }
    if (task && tasks.full) {
      refuse(
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
    call: CallScope,
  ): Promise<CallToolResult> {
    const task = call.taskId !== undefined ? { task: call.taskId } : {};
    const receipt = new TurnReceipt();
    try {
      const result = await t.serial(async () => {
        controller.signal.throwIfAborted();
        threads.touch(t);
        return callContext.run(call, () =>
          t.conversation.turn(args.prompt, {
            signal: controller.signal,
            ...(progress ? { onProgress: progress, onEvent: (e: ToolEvent) => progress(eventLine(e)) } : {}),
            ...(args.answers?.length ? { answers: args.answers } : {}),
            receipt,
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
      // What ran before the failure is said too: a caller told only that the turn failed may send it again.
      const done = doneBeforeFailure(receipt);
      return { content: [{ type: 'text', text: message }, ...(done ? [{ type: 'text' as const, text: done }] : [])], isError: true };
    }
  }

  async function closeThread(raw: Record<string, unknown>): Promise<CallToolResult> {
    const parsed = CloseArgs.safeParse(raw);
    if (!parsed.success) refuse('close_thread', raw, describeIssues('close_thread', parsed.error));
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

  return { respond, closeThread, refuse };
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

function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  if (typeof reason === 'string' && reason) return reason;
  return 'the call was withdrawn';
}

function seconds(started: number): number {
  return (Date.now() - started) / 1000;
}
