// The model layer's contract (design.md §6): one interface, three backends (ollama, openai, script).
// Everything here is backend-neutral; each backend translates to and from its own wire shape.
import { WispError } from '../core/errors.js';

/** One message of a conversation, in wisp's own shape (never a backend's). */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/** A tool call the model asked for. */
export interface ToolCall {
  /** Unique within the conversation; backends that send none get `call_1`, `call_2`, … */
  id: string;
  name: string;
  /**
   * The parsed JSON arguments. When the backend sent text that is not valid JSON, this is that raw string,
   * unchanged: the tool loop reports it to the model as an error instead of crashing.
   */
  arguments: unknown;
}

/** A tool offered to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelReply {
  /** The reply's text (possibly empty when the model only called tools). */
  text: string;
  toolCalls: ToolCall[];
  usage?: { promptTokens?: number; completionTokens?: number };
  /** Why the model stopped, as the backend said it (`stop`, `tool_calls`, `length`, …), when it said. */
  finishReason?: string;
}

export interface GenerateOptions {
  /** Tools the model may call; empty = none offered (the field is then left out of the request). */
  tools: ToolSpec[];
  /** Cancels the call; it then rejects with `ModelError` kind `aborted`. */
  signal?: AbortSignal;
  /** Each piece of reply text as it arrives. The pieces joined equal `ModelReply.text`. */
  onText?: (delta: string) => void;
  /** Each piece of the model's reasoning, for models that send it apart from the reply (never part of `text`). */
  onThinking?: (delta: string) => void;
}

export interface LanguageModel {
  /** The spec it was made from, e.g. `ollama:qwen3:8b`, `openai:local`, `script:/abs/path.json`. */
  readonly id: string;
  generate(messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply>;
  /** A model for a fresh conversation: the script backend restarts at its first response; the others are stateless. */
  fork(): LanguageModel;
}

export const MODEL_ERROR_KINDS = [
  'unreachable', // nothing listening, DNS failure, connection refused
  'not-found', // the server has no such model (or no such endpoint)
  'auth', // 401/403: the key is missing or refused
  'rejected', // another 4xx: the server refused the request (e.g. the model cannot use tools)
  'timeout', // no byte for longer than the configured bound
  'bad-reply', // a body wisp cannot read
  'server', // 5xx, an error inside the stream, or the connection dropped mid-reply
  'aborted', // the caller's signal fired
  'script-exhausted', // a script has no response left for this conversation
  'usage', // a bad `-m` spec or script file (the CLI exits 64)
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

export interface ModelErrorOptions {
  /** HTTP status, when the server answered with one. */
  status?: number;
  cause?: unknown;
}

/**
 * Every failure of the model layer. `message` says what happened and then what to do (it is what the CLI prints);
 * `summary` and `hint` are the two halves, for faces that lay them out apart.
 */
export class ModelError extends WispError {
  readonly kind: ModelErrorKind;
  readonly summary: string;
  readonly hint: string;
  readonly status?: number;

  constructor(kind: ModelErrorKind, summary: string, hint: string, options: ModelErrorOptions = {}) {
    super(hint ? `${sentence(summary)} ${sentence(hint)}` : sentence(summary), kind === 'usage' ? 64 : 1);
    this.name = 'ModelError';
    this.kind = kind;
    this.summary = summary;
    this.hint = hint;
    if (options.status !== undefined) this.status = options.status;
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** Capitalised, with a full stop: the two halves of a message read as sentences. */
function sentence(s: string): string {
  const t = s.trim();
  const c = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(c) ? c : `${c}.`;
}

export function isModelError(err: unknown, kind?: ModelErrorKind): err is ModelError {
  return err instanceof ModelError && (kind === undefined || err.kind === kind);
}

/**
 * What the backends read of the config. The model layer sits below config (the config checks model specs, the
 * backends know nothing of the config file), so this is a shape the config's `Config` satisfies, not an import.
 */
export interface ModelSettings {
  readonly model: string;
  readonly models: {
    readonly maxTokens: number;
    readonly contextSize: number;
    readonly threads: number;
    readonly loadTimeoutSeconds: number;
    readonly download: { readonly name: string; readonly url: string };
  };
  readonly ollama: { readonly baseURL: string; readonly timeoutSeconds: number };
  readonly openai: { readonly baseURL: string; readonly timeoutSeconds: number };
}
