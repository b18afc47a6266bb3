// The in-process backend (`-m llama:PATH.gguf`): llama.cpp through node-llama-cpp, on the CPU, no server.
// node-llama-cpp is imported on the first call only, so no other command pays for it. The model file is loaded once per
// process and shared; every conversation (fork) gets its own context sequence, and its calls run one at a time.
// The prompt is the model's own chat template rendered with the tools; the reply is plain generation, and tool calls
// are read out of its text (tool-call-text.ts). No grammar is forced on the model (ADR 0049).
import type { LlamaCompletion, LlamaModel as NativeModel, Token } from 'node-llama-cpp';
import type { ChatTemplate, PromptPiece } from './chat-template.js';
import { ReplySplitter } from './tool-call-text.js';
import { ModelError } from './types.js';
import type { ChatMessage, GenerateOptions, LanguageModel, ModelReply, ToolCall } from './types.js';
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

type Loaded = { model: NativeModel; lib: typeof import('node-llama-cpp'); template: ChatTemplate };

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
        const { ChatTemplate } = await import('./chat-template.js');
        const source = model.fileInfo.metadata.tokenizer?.chat_template;
        let template: ChatTemplate;
        try {
          template = new ChatTemplate(typeof source === 'string' ? source : undefined, {
            ...(model.tokens.bosString ? { bos: model.tokens.bosString } : {}),
            ...(model.tokens.eosString ? { eos: model.tokens.eosString } : {}),
          });
        } catch (err) {
          await model.dispose();
          throw new ModelError(
            'bad-reply',
            `The chat template in ${path} cannot be read: ${err instanceof Error ? err.message : String(err)}`,
            'Run this model behind llama-server --jinja --chat-template-file FILE, or use another model file',
          );
        }
        return { model, lib, template };
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

/**
 * The prompt's tokens. The template's text is read with special tokens; conversation content is too, unless reading it
 * that way would make a control token out of it (`<|im_start|>` in a file the model read): then every piece is
 * tokenized on its own and content never yields a special token. The common case keeps llama-server's exact tokens.
 */
export function tokenizePrompt(model: Pick<NativeModel, 'tokenize'>, pieces: PromptPiece[]): Token[] {
  const forged = pieces.some((p) => !p.trusted && !sameTokens(model.tokenize(p.text, true), model.tokenize(p.text, false)));
  if (!forged) return model.tokenize(pieces.map((p) => p.text).join(''), true);
  return pieces.flatMap((p) => model.tokenize(p.text, p.trusted));
}

function sameTokens(a: readonly Token[], b: readonly Token[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

interface Session {
  model: NativeModel;
  template: ChatTemplate;
  completion: LlamaCompletion;
  contextSize: number;
}

export class LlamaModel implements LanguageModel {
  readonly id: string;
  private sessionP: Promise<Session> | undefined;
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

  private async session(): Promise<Session> {
    if (!this.sessionP) {
      this.sessionP = (async () => {
        const { model, lib, template } = await loadShared(this.options.path, this.options.loadTimeoutMs);
        const contextSize = Math.min(this.options.contextSize, model.trainContextSize || this.options.contextSize);
        const context = await model.createContext({
          contextSize,
          sequences: 1,
          ...(this.options.threads > 0 ? { threads: this.options.threads } : {}),
        });
        // The sequence keeps what it evaluated: the next call re-reads only what changed after the common prefix.
        const completion = new lib.LlamaCompletion({ contextSequence: context.getSequence() });
        return { model, template, completion, contextSize: context.contextSize };
      })();
      this.sessionP.catch(() => {
        this.sessionP = undefined;
      });
    }
    return this.sessionP;
  }

  private async generateNow(messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply> {
    if (opts.signal?.aborted) throw aborted(opts.signal);
    const s = await this.session();
    if (opts.signal?.aborted) throw aborted(opts.signal);
    if (opts.tools.length > 0 && !s.template.callsAsBlocks) {
      throw new ModelError(
        'rejected',
        `The chat template of ${this.options.path} has no tool-call syntax wisp reads in-process (<tool_call> blocks)`,
        'Run it with --no-tools, or behind llama-server --jinja (-m openai:NAME), which knows more call formats',
      );
    }
    let pieces: PromptPiece[];
    try {
      pieces = s.template.render(messages, opts.tools);
    } catch (err) {
      throw new ModelError(
        'rejected',
        `The model's chat template refused this conversation: ${err instanceof Error ? err.message : String(err)}`,
        'Start a new conversation; if it repeats, run the model behind llama-server --jinja',
        { cause: err },
      );
    }
    const tokens = tokenizePrompt(s.model, pieces);
    // One token for the beginning of sequence and one kept free: node-llama-cpp would otherwise drop the start of the
    // prompt (the system message) to make it fit, silently.
    const room = s.contextSize - 2 - tokens.length;
    if (room < 1) {
      throw new ModelError(
        'rejected',
        `The conversation (${tokens.length} tokens) does not fit the model's context (${s.contextSize} tokens)`,
        'Raise models.contextSize (wisp config set models.contextSize 16384), or start a new conversation',
      );
    }
    const maxTokens = Math.min(this.options.maxTokens, room);
    const split = new ReplySplitter({
      ...(opts.onText ? { onText: opts.onText } : {}),
      ...(opts.onThinking ? { onThinking: opts.onThinking } : {}),
    });
    let generated = 0;
    let result;
    try {
      result = await s.completion.generateCompletionWithMeta(tokens, {
        maxTokens,
        ...(opts.signal ? { signal: opts.signal } : {}),
        stopOnAbortSignal: false,
        disableContextShift: true,
        contextShiftSize: 1,
        onToken: (t) => {
          generated += t.length;
        },
        onTextChunk: (chunk) => split.push(chunk),
      });
    } catch (err) {
      if (opts.signal?.aborted) throw aborted(opts.signal, err);
      const message = err instanceof Error ? err.message : String(err);
      throw new ModelError('server', `llama.cpp failed while answering: ${message}`, 'Try again; if it repeats, try another model file', { cause: err });
    }
    const reply = split.finish();
    const toolCalls: ToolCall[] = reply.calls.map((c) => ({ id: `call_${++this.calls}`, name: c.name, arguments: c.arguments }));
    return {
      text: reply.text,
      toolCalls,
      usage: { promptTokens: tokens.length, completionTokens: generated },
      finishReason: result.metadata.stopReason === 'maxTokens' ? 'length' : toolCalls.length > 0 ? 'tool_calls' : 'stop',
    };
  }
}
