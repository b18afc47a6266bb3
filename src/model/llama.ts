// The in-process backend (`-m llama:PATH.gguf`): llama.cpp through node-llama-cpp, on the CPU, no server.
// node-llama-cpp is imported on the first call only, so no other command pays for it. The model file is loaded once per
// process and shared; every conversation (fork) gets its own context sequence, and its calls run one at a time.
import type {
  ChatHistoryItem,
  ChatModelFunctionCall,
  ChatModelFunctions,
  ChatModelResponse,
  LlamaChat,
  LlamaModel as NativeModel,
} from 'node-llama-cpp';
import { toGrammarSchema } from './llama-schema.js';
import { ModelError } from './types.js';
import type { ChatMessage, GenerateOptions, LanguageModel, ModelReply, ToolCall, ToolSpec } from './types.js';
import { aborted } from './wire.js';

export interface LlamaOptions {
  /** The spec as written (`llama:…`), for messages and the model id. */
  spec: string;
  /** Absolute path of a checked GGUF file. */
  path: string;
  /** Tokens of context per conversation (capped at the model's training context). */
  contextSize: number;
  /** Longest reply, in tokens. */
  maxTokens: number;
  /** CPU threads for evaluation; 0 = llama.cpp's own choice. */
  threads: number;
  /** Loading that takes longer fails (a truncated file can make llama.cpp hang). */
  loadTimeoutMs: number;
}

type Loaded = { model: NativeModel; lib: typeof import('node-llama-cpp') };

/** One load per file per process. A failed load is forgotten, so a later call may try again. */
const loads = new Map<string, Promise<Loaded>>();

export function loadShared(path: string, timeoutMs: number): Promise<Loaded> {
  let p = loads.get(path);
  if (!p) {
    p = loadOnce(path, timeoutMs);
    loads.set(path, p);
    p.catch(() => loads.delete(path));
  }
  return p;
}

async function loadOnce(path: string, timeoutMs: number): Promise<Loaded> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ModelError(
            'timeout',
            `Loading ${path} took longer than ${Math.round(timeoutMs / 1000)} s`,
            'The file may be truncated or damaged (download it again: wisp models pull), or raise models.loadTimeoutSeconds',
          ),
        ),
      timeoutMs,
    );
    timer.unref();
  });
  try {
    return await Promise.race([
      (async () => {
        const lib = await import('node-llama-cpp');
        // CPU only and never a build or a download (ADR 0032); llama.cpp's own chatter stays quiet.
        const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: lib.LlamaLogLevel.error, usePrebuiltBinaries: true });
        const model = await llama.loadModel({ modelPath: path });
        return { model, lib };
      })(),
      timeout,
    ]);
  } catch (err) {
    if (err instanceof ModelError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new ModelError('bad-reply', `llama.cpp could not load ${path}: ${message}`, 'Check that it is a complete GGUF model file (wisp models pull fetches one)', { cause: err });
  } finally {
    if (timer) clearTimeout(timer);
  }
}

/** wisp's messages as node-llama-cpp's chat history: tool results ride on the call they answer. */
export function toLlamaHistory(messages: ChatMessage[], tools: ToolSpec[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  const results = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') results.set(m.toolCallId, m.content);
  const descriptions = new Map(tools.map((t) => [t.name, t.description]));
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        history.push({ type: 'system', text: m.content });
        break;
      case 'user':
        history.push({ type: 'user', text: m.content });
        break;
      case 'assistant': {
        const response: ChatModelResponse['response'] = [];
        if (m.content) response.push(m.content);
        for (const c of m.toolCalls ?? []) {
          const call: ChatModelFunctionCall = {
            type: 'functionCall',
            name: c.name,
            params: c.arguments,
            result: results.get(c.id) ?? '(no result)',
          };
          const description = descriptions.get(c.name);
          if (description) call.description = description;
          response.push(call);
        }
        history.push({ type: 'model', response });
        break;
      }
      case 'tool':
        break; // carried on its call above
    }
  }
  // The model continues a response it started (after tool results) or begins a new one.
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  return history;
}

export class LlamaModel implements LanguageModel {
  readonly id: string;
  private chat: Promise<LlamaChat> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private calls = 0;

  constructor(private readonly options: LlamaOptions) {
    this.id = options.spec;
  }

  /** A new conversation: the same loaded model, a sequence of its own. */
  fork(): LanguageModel {
    return new LlamaModel(this.options);
  }

  generate(messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply> {
    // Serial per conversation: a sequence evaluates one thing at a time.
    const run = this.queue.then(() => this.generateNow(messages, opts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async session(): Promise<LlamaChat> {
    if (!this.chat) {
      this.chat = (async () => {
        const { model, lib } = await loadShared(this.options.path, this.options.loadTimeoutMs);
        const contextSize = Math.min(this.options.contextSize, model.trainContextSize || this.options.contextSize);
        const context = await model.createContext({
          contextSize,
          sequences: 1,
          ...(this.options.threads > 0 ? { threads: this.options.threads } : {}),
        });
        return new lib.LlamaChat({ contextSequence: context.getSequence(), autoDisposeSequence: true });
      })();
      this.chat.catch(() => {
        this.chat = undefined;
      });
    }
    return this.chat;
  }

  private async generateNow(messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply> {
    if (opts.signal?.aborted) throw aborted(opts.signal);
    const chat = await this.session();
    if (opts.signal?.aborted) throw aborted(opts.signal);
    const functions: ChatModelFunctions = Object.fromEntries(
      opts.tools.map((t) => [t.name, { description: t.description, params: toGrammarSchema(t.parameters) as never }]),
    );
    const history = toLlamaHistory(messages, opts.tools);
    let text = '';
    let result;
    try {
      result = await chat.generateResponse(history, {
        ...(opts.tools.length > 0 ? { functions } : {}),
        maxTokens: this.options.maxTokens,
        ...(opts.signal ? { signal: opts.signal } : {}),
        stopOnAbortSignal: false,
        onTextChunk: (chunk: string) => {
          text += chunk;
          opts.onText?.(chunk);
        },
        onResponseChunk: (chunk) => {
          if (chunk.type === 'segment' && chunk.segmentType === 'thought' && chunk.text) opts.onThinking?.(chunk.text);
        },
      });
    } catch (err) {
      if (opts.signal?.aborted) throw aborted(opts.signal, err);
      const message = err instanceof Error ? err.message : String(err);
      if (/context|too long|exceed/i.test(message)) {
        throw new ModelError(
          'rejected',
          `The conversation does not fit the model's context (${message})`,
          'Raise models.contextSize (wisp config set models.contextSize 16384), or start a new conversation',
          { cause: err },
        );
      }
      throw new ModelError('server', `llama.cpp failed while answering: ${message}`, 'Try again; if it repeats, try another model file', { cause: err });
    }
    const toolCalls: ToolCall[] = (result.functionCalls ?? []).map((c) => ({
      id: `call_${++this.calls}`,
      name: c.functionName,
      arguments: c.params === undefined ? {} : c.params,
    }));
    const stop = result.metadata.stopReason;
    const reply: ModelReply = {
      text: text || (toolCalls.length === 0 ? result.response : ''),
      toolCalls,
      finishReason: stop === 'maxTokens' ? 'length' : stop === 'functionCalls' ? 'tool_calls' : 'stop',
    };
    return reply;
  }
}
