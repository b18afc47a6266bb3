// The Ollama backend: POST {baseURL}/api/chat with `stream: true`; the reply is NDJSON, one object a line, text in
// `message.content` pieces, tool calls whole (arguments as JSON objects), and a last line with `done: true`.
import { z } from 'zod';
import { ModelError } from './types.js';
import type { ChatMessage, GenerateOptions, LanguageModel, ModelReply, ToolCall, ToolSpec } from './types.js';
import { Exchange, errorMessageOf, excerpt, formatIssues, joinURL, parseArguments } from './wire.js';
import type { Peer } from './wire.js';

export interface OllamaOptions {
  /** The model as Ollama names it: `qwen3:8b`, `llama3.1`, `hf.co/user/repo:Q4_K_M`. */
  model: string;
  /** e.g. `http://127.0.0.1:11434` (no `/api`, no `/v1`). */
  baseURL: string;
  /** The longest silence allowed, in milliseconds (before the reply starts, and between two chunks). */
  timeoutMs: number;
  /** The spec the user wrote, when it had no `ollama:` prefix (error messages then say how it was read). */
  impliedFrom?: string;
  /** Longest reply in tokens (`options.num_predict`); unset = the server's default. */
  maxTokens?: number;
}

// ---- wire shapes -------------------------------------------------------------------------------------------

type OllamaToolCall = { id?: string; function: { name: string; arguments: Record<string, unknown> } };
export type OllamaMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: OllamaToolCall[] }
  | { role: 'tool'; content: string; tool_name: string; tool_call_id: string };

const Arguments = z.union([z.record(z.string(), z.unknown()), z.string()]);

const Chunk = z.object({
  message: z
    .object({
      content: z.string().nullish(),
      thinking: z.string().nullish(),
      tool_calls: z
        .array(
          z.object({
            id: z.string().nullish(),
            function: z.object({ name: z.string().min(1), arguments: Arguments.nullish() }),
          }),
        )
        .nullish(),
    })
    .nullish(),
  done: z.boolean().nullish(),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().nullish(),
  eval_count: z.number().nullish(),
  error: z.string().nullish(),
});
type Chunk = z.infer<typeof Chunk>;

/** wisp's messages in Ollama's shape. Tool results go back as `{role:'tool', tool_name, content}`. */
export function toOllamaMessages(messages: ChatMessage[]): OllamaMessage[] {
  return messages.map((m): OllamaMessage => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant': {
        if (!m.toolCalls || m.toolCalls.length === 0) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: m.content,
          tool_calls: m.toolCalls.map((c) => ({ id: c.id, function: { name: c.name, arguments: argumentsObject(c) } })),
        };
      }
      case 'tool':
        // `tool_call_id` is read by Ollama versions that give calls ids and ignored by older ones.
        return { role: 'tool', content: m.content, tool_name: m.name, tool_call_id: m.toolCallId };
    }
  });
}

/**
 * Ollama wants arguments as an object. A call whose arguments were not a JSON object (the raw text of invalid JSON)
 * is echoed with `{}`: the tool result that follows carries the error the model needs to see.
 */
function argumentsObject(call: ToolCall): Record<string, unknown> {
  const a = typeof call.arguments === 'string' ? parseArguments(call.arguments) : call.arguments;
  return a !== null && typeof a === 'object' && !Array.isArray(a) ? (a as Record<string, unknown>) : {};
}

export function toOllamaTools(tools: ToolSpec[]): unknown[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

// ---- the backend -------------------------------------------------------------------------------------------

export class OllamaModel implements LanguageModel {
  readonly id: string;
  private readonly url: string;
  private readonly peer: Peer;
  private calls = 0;

  constructor(private readonly options: OllamaOptions) {
    this.id = `ollama:${options.model}`;
    this.url = joinURL(options.baseURL, '/api/chat');
    this.peer = {
      label: 'Ollama',
      timeoutKey: 'ollama.timeoutSeconds',
      unreachableHint:
        'Start it with `ollama serve` (or open the Ollama app); if it listens elsewhere, set ollama.baseURL ' +
        '(wisp config set ollama.baseURL http://HOST:11434); or pick another backend: -m openai:NAME, -m script:PATH',
    };
  }

  /** Ollama keeps no conversation state: every call sends the whole history. */
  fork(): LanguageModel {
    return this;
  }

  async generate(messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply> {
    const body: Record<string, unknown> = {
      model: this.options.model,
      messages: toOllamaMessages(messages),
      stream: true,
    };
    if (this.options.maxTokens !== undefined) body.options = { num_predict: this.options.maxTokens };
    if (opts.tools.length > 0) body.tools = toOllamaTools(opts.tools);
    const exchange = new Exchange({
      peer: this.peer,
      url: this.url,
      headers: { accept: 'application/x-ndjson' },
      body,
      timeoutMs: this.options.timeoutMs,
      signal: opts.signal,
    });
    try {
      const res = await exchange.open();
      if (!res.ok) throw this.statusError(res.status, await exchange.text(res, 64 * 1024));
      const type = res.headers.get('content-type') ?? '';
      if (type.includes('text/html')) {
        throw this.badReply(`an HTML page (content-type ${type}) instead of NDJSON`);
      }
      return await this.read(exchange, res, opts);
    } finally {
      exchange.close();
    }
  }

  private async read(exchange: Exchange, res: Response, opts: GenerateOptions): Promise<ModelReply> {
    let text = '';
    const toolCalls: ToolCall[] = [];
    let done: Chunk | undefined;
    // Ollama streams one JSON object a line; `stream: false` servers send one (possibly pretty-printed) object.
    const json = (res.headers.get('content-type') ?? '').includes('application/json');
    const source = json ? single(exchange.text(res)) : exchange.lines(res);
    for await (const line of source) {
      if (line.trim() === '') continue;
      const chunk = this.parse(line);
      if (chunk.error) {
        throw new ModelError('server', `Ollama failed while answering: ${chunk.error}`, serverHint(chunk.error));
      }
      const m = chunk.message;
      if (m?.thinking) opts.onThinking?.(m.thinking);
      if (m?.content) {
        text += m.content;
        opts.onText?.(m.content);
      }
      for (const call of m?.tool_calls ?? []) {
        const raw = call.function.arguments;
        toolCalls.push({
          id: call.id || `call_${++this.calls}`,
          name: call.function.name,
          arguments: raw === undefined || raw === null ? {} : typeof raw === 'string' ? parseArguments(raw) : raw,
        });
      }
      if (chunk.done) {
        done = chunk;
        break;
      }
    }
    if (!done) {
      throw new ModelError(
        'server',
        `Ollama's reply from ${this.url} ended before its last line ("done": true)`,
        'The server may have stopped in the middle of the reply: check its log, then try again',
      );
    }
    const reply: ModelReply = { text, toolCalls };
    if (done.done_reason) reply.finishReason = done.done_reason;
    if (typeof done.prompt_eval_count === 'number' || typeof done.eval_count === 'number') {
      reply.usage = {};
      if (typeof done.prompt_eval_count === 'number') reply.usage.promptTokens = done.prompt_eval_count;
      if (typeof done.eval_count === 'number') reply.usage.completionTokens = done.eval_count;
    }
    return reply;
  }

  private parse(line: string): Chunk {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw this.badReply(`a line that is not JSON: ${excerpt(line)}`);
    }
    const parsed = Chunk.safeParse(value);
    if (!parsed.success) {
      throw this.badReply(`a line wisp cannot read (${formatIssues(parsed.error)}): ${excerpt(line)}`);
    }
    return parsed.data;
  }

  private badReply(what: string): ModelError {
    return new ModelError(
      'bad-reply',
      `Ollama at ${this.url} sent ${what}`,
      'Check that ollama.baseURL points at Ollama itself (an OpenAI-compatible /v1 server is -m openai:NAME), ' +
        'and update Ollama if it is old',
    );
  }

  private statusError(status: number, body: string): ModelError {
    const message = errorMessageOf(body);
    const model = this.options.model;
    const read = this.options.impliedFrom
      ? ` (wisp read -m ${this.options.impliedFrom} as an Ollama model; ` +
        'other backends are written openai:NAME or script:PATH)'
      : '';
    if (status === 404) {
      if (/model/i.test(message)) {
        return new ModelError(
          'not-found',
          `Ollama has no model "${model}" (${message})`,
          `Download it with \`ollama pull ${model}\` (\`ollama list\` shows the ones you have), ` +
            `or choose another with -m${read}`,
          { status },
        );
      }
      return new ModelError(
        'not-found',
        `Nothing answers at ${this.url} (HTTP 404: ${message})`,
        'Check that ollama.baseURL is the address of Ollama itself, e.g. http://127.0.0.1:11434 (no /api, no /v1)',
        { status },
      );
    }
    if (status === 401 || status === 403) {
      return new ModelError(
        'auth',
        `Ollama at ${this.url} refused the request (HTTP ${status}: ${message})`,
        'Ollama itself takes no key: check the proxy in front of it, or point ollama.baseURL at Ollama directly',
        { status },
      );
    }
    if (status >= 500) {
      return new ModelError('server', `Ollama failed (HTTP ${status}: ${message})`, serverHint(message), { status });
    }
    if (/does not support tools/i.test(message)) {
      return new ModelError(
        'rejected',
        `Ollama's model "${model}" cannot call tools (${message})`,
        `Choose a model with tool support, e.g. -m ollama:${model.startsWith('qwen3') ? 'llama3.1:8b' : 'qwen3:8b'} ` +
          '(ollama.com/search?c=tools lists them)',
        { status },
      );
    }
    return new ModelError(
      'rejected',
      `Ollama refused the request (HTTP ${status}: ${message})`,
      `Check the model name "${model}", and update Ollama if it is old${read}`,
      { status },
    );
  }
}

function serverHint(message: string): string {
  if (/memory|out of memory|OOM|cuda|alloc/i.test(message)) {
    return (
      "The model may not fit in this machine's memory: choose a smaller one (e.g. -m ollama:qwen3:4b), " +
      'or close other programs'
    );
  }
  return "Check Ollama's log (journalctl -u ollama, or ~/.ollama/logs/server.log), then try again";
}

async function* single(text: Promise<string>): AsyncGenerator<string> {
  const whole = (await text).trim();
  // One JSON object (pretty-printed or not) or NDJSON served under the wrong content-type.
  if (whole.startsWith('{') && !whole.includes('\n{')) {
    yield whole;
  } else {
    yield* whole.split('\n');
  }
}
