// The OpenAI-compatible backend (llama.cpp's llama-server, LM Studio, vLLM, Ollama's /v1): POST
// {baseURL}/chat/completions with `stream: true`; the reply is server-sent events, each `data:` a chunk whose
// `choices[0].delta` carries a piece of text or fragments of tool calls (joined by `index`), until `data: [DONE]`.
import { z } from 'zod';
import { ModelError } from './types.js';
import type { ChatMessage, GenerateOptions, LanguageModel, ModelReply, ToolCall, ToolSpec } from './types.js';
import { Exchange, errorMessageOf, excerpt, formatIssues, joinURL, parseArguments } from './wire.js';
import type { Peer } from './wire.js';

export interface OpenAIOptions {
  /** The model name the server knows (llama-server serves its one model whatever the name). */
  model: string;
  /** e.g. `http://127.0.0.1:8080/v1`; `/chat/completions` is appended. */
  baseURL: string;
  /** The longest silence allowed, in milliseconds (before the reply starts, and between two chunks). */
  timeoutMs: number;
  /** Sent as `Authorization: Bearer …` when set (from `OPENAI_API_KEY`). */
  apiKey?: string;
  /** Longest reply in tokens, sent as `max_tokens`; unset = the server's default. */
  maxTokens?: number;
}

// ---- wire shapes -------------------------------------------------------------------------------------------

type OpenAIToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };
export type OpenAIMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

const Usage = z
  .object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
  .nullish();
const StreamError = z.union([z.string(), z.object({ message: z.string() }).transform((e) => e.message)]).nullish();

const Chunk = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            content: z.string().nullish(),
            // llama-server and older vLLM say `reasoning_content`; newer servers say `reasoning`.
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(
                z.object({
                  index: z.number().int().min(0).nullish(),
                  id: z.string().nullish(),
                  function: z
                    .object({
                      name: z.string().nullish(),
                      // A string fragment per the protocol; a whole object from a few lax servers.
                      arguments: z
                        .union([z.string(), z.record(z.string(), z.unknown()).transform((o) => JSON.stringify(o))])
                        .nullish(),
                    })
                    .nullish(),
                }),
              )
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: Usage,
  error: StreamError,
});
type Chunk = z.infer<typeof Chunk>;

/** A whole (non-streamed) completion, for servers that ignore `stream: true`. */
const Completion = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          reasoning_content: z.string().nullish(),
          reasoning: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string().nullish(),
                function: z.object({
                  name: z.string().min(1),
                  arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
                }),
              }),
            )
            .nullish(),
        }),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: Usage,
});

/** wisp's messages in OpenAI's shape: assistant tool calls echoed with JSON-string arguments, results by call id. */
export function toOpenAIMessages(messages: ChatMessage[]): OpenAIMessage[] {
  return messages.map((m): OpenAIMessage => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant':
        if (!m.toolCalls || m.toolCalls.length === 0) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: m.content,
          tool_calls: m.toolCalls.map((c) => ({
            id: c.id,
            type: 'function',
            // Raw (invalid) arguments go back exactly as the model wrote them.
            function: {
              name: c.name,
              arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
            },
          })),
        };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    }
  });
}

export function toOpenAITools(tools: ToolSpec[]): unknown[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

type Fragment = NonNullable<NonNullable<NonNullable<Chunk['choices']>[number]['delta']>['tool_calls']>[number];

/** Tool-call fragments of a stream, gathered by their `index`. */
class CallAssembler {
  private readonly parts = new Map<number, { id: string; name: string; args: string }>();

  /** `position` (the fragment's place in its chunk) stands in for servers that send no `index`. */
  add(position: number, f: Fragment): void {
    const index = f.index ?? position;
    let part = this.parts.get(index);
    if (!part) {
      part = { id: '', name: '', args: '' };
      this.parts.set(index, part);
    }
    if (f.id) part.id = f.id;
    if (f.function?.name) part.name = f.function.name;
    if (f.function?.arguments) part.args += f.function.arguments;
  }

  finish(nextId: () => string): ToolCall[] {
    return [...this.parts.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, p]) => ({ id: p.id || nextId(), name: p.name, arguments: parseArguments(p.args) }));
  }
}

// ---- the backend -------------------------------------------------------------------------------------------

export class OpenAIModel implements LanguageModel {
  readonly id: string;
  private readonly url: string;
  private readonly peer: Peer;
  private calls = 0;

  constructor(private readonly options: OpenAIOptions) {
    this.id = `openai:${options.model}`;
    this.url = joinURL(options.baseURL, '/chat/completions');
    this.peer = {
      label: 'the OpenAI-compatible server',
      timeoutKey: 'openai.timeoutSeconds',
      unreachableHint:
        'Start the server (llama.cpp: `llama-server -m MODEL.gguf --jinja --port 8080`; LM Studio: its local server; ' +
        'vLLM: `vllm serve MODEL`); if it listens elsewhere, set openai.baseURL ' +
        '(wisp config set openai.baseURL http://HOST:PORT/v1); or pick another backend: -m ollama:NAME, -m script:PATH',
    };
  }

  /** The server keeps no conversation state: every call sends the whole history. */
  fork(): LanguageModel {
    return this;
  }

  async generate(messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply> {
    const body: Record<string, unknown> = {
      model: this.options.model,
      messages: toOpenAIMessages(messages),
      stream: true,
    };
    if (this.options.maxTokens !== undefined) body.max_tokens = this.options.maxTokens;
    // Some servers refuse `tools: []`; leave the key out when no tool is offered.
    if (opts.tools.length > 0) body.tools = toOpenAITools(opts.tools);
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const exchange = new Exchange({
      peer: this.peer,
      url: this.url,
      headers,
      body,
      timeoutMs: this.options.timeoutMs,
      signal: opts.signal,
    });
    try {
      const res = await exchange.open();
      if (!res.ok) throw this.statusError(res.status, await exchange.text(res, 64 * 1024));
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('text/html')) throw this.badReply(`an HTML page (content-type ${type}) instead of events`);
      if (type.includes('application/json')) return this.whole(await exchange.text(res), opts);
      return await this.stream(exchange, res, opts);
    } finally {
      exchange.close();
    }
  }

  private async stream(exchange: Exchange, res: Response, opts: GenerateOptions): Promise<ModelReply> {
    let text = '';
    const calls = new CallAssembler();
    let finishReason: string | undefined;
    let usage: ModelReply['usage'];
    let sawDone = false;
    let data: string[] = [];

    const dispatch = (payload: string): void => {
      if (payload.trim() === '[DONE]') {
        sawDone = true;
        return;
      }
      const chunk = this.parse(payload);
      if (chunk.error) {
        const what = `The OpenAI-compatible server failed while answering: ${chunk.error}`;
        throw new ModelError('server', what, serverHint(chunk.error));
      }
      if (chunk.usage) usage = toUsage(chunk.usage);
      const choice = chunk.choices?.[0];
      if (!choice) return;
      const delta = choice.delta;
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      if (reasoning) opts.onThinking?.(reasoning);
      if (delta?.content) {
        text += delta.content;
        opts.onText?.(delta.content);
      }
      (delta?.tool_calls ?? []).forEach((f, position) => calls.add(position, f));
      if (choice.finish_reason) finishReason = choice.finish_reason;
    };

    // Server-sent events: `data:` lines gather until a blank line ends the event; `:` lines are comments.
    for await (const line of exchange.lines(res)) {
      if (line === '') {
        if (data.length > 0) dispatch(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      } else if (!line.startsWith(':') && !/^(event|id|retry):/.test(line)) {
        throw this.badReply(`a line that is not a server-sent event: ${excerpt(line)}`);
      }
      if (sawDone) break;
    }
    if (!sawDone && data.length > 0) dispatch(data.join('\n'));
    if (!sawDone && finishReason === undefined) {
      throw new ModelError(
        'server',
        `The reply from ${this.url} ended before it was complete (no finish_reason, no [DONE])`,
        'The server may have stopped in the middle of the reply: check its log, then try again',
      );
    }
    const reply: ModelReply = { text, toolCalls: calls.finish(() => `call_${++this.calls}`) };
    if (finishReason) reply.finishReason = finishReason;
    if (usage) reply.usage = usage;
    return reply;
  }

  private whole(body: string, opts: GenerateOptions): ModelReply {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw this.badReply(`a body that is not JSON: ${excerpt(body)}`);
    }
    const parsed = Completion.safeParse(value);
    if (!parsed.success) {
      throw this.badReply(`a completion wisp cannot read (${formatIssues(parsed.error)}): ${excerpt(body)}`);
    }
    const choice = parsed.data.choices[0];
    const text = choice.message.content ?? '';
    const reasoning = choice.message.reasoning_content ?? choice.message.reasoning;
    if (reasoning) opts.onThinking?.(reasoning);
    if (text) opts.onText?.(text);
    const toolCalls = (choice.message.tool_calls ?? []).map((c) => {
      const raw = c.function.arguments;
      return {
        id: c.id || `call_${++this.calls}`,
        name: c.function.name,
        arguments: raw === undefined || raw === null ? {} : typeof raw === 'string' ? parseArguments(raw) : raw,
      };
    });
    const reply: ModelReply = { text, toolCalls };
    if (choice.finish_reason) reply.finishReason = choice.finish_reason;
    if (parsed.data.usage) reply.usage = toUsage(parsed.data.usage);
    return reply;
  }

  private parse(payload: string): Chunk {
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      throw this.badReply(`an event that is not JSON: ${excerpt(payload)}`);
    }
    const parsed = Chunk.safeParse(value);
    if (!parsed.success) {
      throw this.badReply(`an event wisp cannot read (${formatIssues(parsed.error)}): ${excerpt(payload)}`);
    }
    return parsed.data;
  }

  private badReply(what: string): ModelError {
    return new ModelError(
      'bad-reply',
      `The server at ${this.url} sent ${what}`,
      'Check that openai.baseURL points at an OpenAI-compatible server and ends in /v1 ' +
        '(an Ollama address is -m ollama:NAME)',
    );
  }

  private statusError(status: number, body: string): ModelError {
    const message = errorMessageOf(body);
    const model = this.options.model;
    const base = this.options.baseURL.replace(/\/+$/, '');
    if (status === 401 || status === 403) {
      return this.options.apiKey
        ? new ModelError(
            'auth',
            `The server at ${this.url} refused the key in OPENAI_API_KEY (HTTP ${status}: ${message})`,
            'Check the key, or unset OPENAI_API_KEY if this server needs none',
            { status },
          )
        : new ModelError(
            'auth',
            `The server at ${this.url} wants an API key (HTTP ${status}: ${message})`,
            'Set it in the environment before running wisp: export OPENAI_API_KEY=…',
            { status },
          );
    }
    if (status === 404) {
      if (/model/i.test(message)) {
        return new ModelError(
          'not-found',
          `The server at ${base} has no model "${model}" (${message})`,
          `See the names it serves with \`curl ${base}/models\` and use one: -m openai:NAME`,
          { status },
        );
      }
      return new ModelError(
        'not-found',
        `Nothing answers at ${this.url} (HTTP 404: ${message})`,
        'Check openai.baseURL: it usually ends in /v1 (llama-server http://127.0.0.1:8080/v1, ' +
          'LM Studio http://127.0.0.1:1234/v1, vLLM http://127.0.0.1:8000/v1)',
        { status },
      );
    }
    if (status >= 500) {
      return new ModelError(
        'server',
        `The OpenAI-compatible server failed (HTTP ${status}: ${message})`,
        serverHint(message),
        { status },
      );
    }
    return new ModelError(
      'rejected',
      `The OpenAI-compatible server said: ${message} (HTTP ${status}, request refused)`,
      /tool/i.test(message)
        ? 'The model or server may not support tool calling: for llama-server add --jinja; ' +
          'else choose a model with tool support'
        : `Check the model name "${model}" and the server's settings (context size, tool support)`,
      { status },
    );
  }
}

function serverHint(message: string): string {
  if (/jinja/i.test(message)) return 'Restart llama-server with --jinja: tool calling needs it';
  if (/context|too long|exceeds/i.test(message)) {
    return "The conversation may not fit the server's context: start it with a larger context (llama-server -c 16384)";
  }
  return "Check the server's log, then try again";
}

function toUsage(u: NonNullable<z.infer<typeof Usage>>): NonNullable<ModelReply['usage']> {
  const out: NonNullable<ModelReply['usage']> = {};
  if (typeof u.prompt_tokens === 'number') out.promptTokens = u.prompt_tokens;
  if (typeof u.completion_tokens === 'number') out.completionTokens = u.completion_tokens;
  return out;
}
