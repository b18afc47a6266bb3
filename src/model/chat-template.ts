// Renders a conversation with the model's own chat template (the Jinja text in its GGUF file), as llama-server --jinja
// and Hugging Face do: messages in OpenAI's shape, tools as `{type: "function", function: {...}}`. Loaded lazily with
// node-llama-cpp (llama.ts), never at start-up.
//
// Everything that is not the template's own text (every message, the model's earlier call names and arguments) is
// rendered as a slot marker and comes back as an untrusted piece, so the caller can tokenize it without turning
// `<|im_start|>` written in a file or a command's output into a real control token.
import { randomBytes } from 'node:crypto';
import { Template } from '@huggingface/jinja';
import { CALL_OPEN } from './tool-call-text.js';
import type { ChatMessage, ToolSpec } from './types.js';

export interface PromptPiece {
  text: string;
  /** True for the template's own text (special tokens are read in it); false for conversation content. */
  trusted: boolean;
}

/**
 * Used when a GGUF file carries no template: ChatML with Hermes-style tool calls, the format most small instruct models
 * (Qwen, SmolLM, Hermes) were tuned on. Written for wisp.
 */
export const FALLBACK_TEMPLATE = [
  "{%- if messages and messages[0].role == 'system' %}{%- set system = messages[0].content %}{%- set first = 1 %}",
  "{%- else %}{%- set system = 'You are a helpful assistant.' %}{%- set first = 0 %}{%- endif %}",
  "{{- '<|im_start|>system\\n' + system }}",
  '{%- if tools %}',
  "{{- '\\n\\n# Tools\\n\\nYou may call functions. Their signatures are inside <tools></tools>:\\n<tools>' }}",
  "{%- for tool in tools %}{{- '\\n' }}{{- tool | tojson }}{%- endfor %}",
  "{{- '\\n</tools>\\n\\nTo call one, write a JSON object with the function name and arguments inside <tool_call></tool_call>:\\n' }}",
  "{{- '<tool_call>\\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\\n</tool_call>' }}",
  '{%- endif %}',
  "{{- '<|im_end|>\\n' }}",
  '{%- for m in messages[first:] %}',
  "{%- if m.role == 'tool' %}",
  "{{- '<|im_start|>user\\n<tool_response>\\n' + m.content + '\\n</tool_response><|im_end|>\\n' }}",
  "{%- elif m.role == 'assistant' and m.tool_calls %}",
  "{{- '<|im_start|>assistant' }}{%- if m.content %}{{- '\\n' + m.content }}{%- endif %}",
  '{%- for c in m.tool_calls %}',
  "{{- '\\n<tool_call>\\n{\"name\": \"' + c.function.name + '\", \"arguments\": ' }}{{- c.function.arguments | tojson }}{{- '}\\n</tool_call>' }}",
  '{%- endfor %}',
  "{{- '<|im_end|>\\n' }}",
  '{%- else %}',
  "{{- '<|im_start|>' + m.role + '\\n' + m.content + '<|im_end|>\\n' }}",
  '{%- endif %}',
  '{%- endfor %}',
  "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}",
].join('\n');

export interface TemplateTokens {
  bos?: string;
  eos?: string;
}

export class ChatTemplate {
  private readonly template: Template;
  /** True when the template writes calls as `<tool_call>` blocks, the one syntax wisp reads back in-process. */
  readonly callsAsBlocks: boolean;
  readonly source: string;

  constructor(source: string | undefined, private readonly tokens: TemplateTokens = {}) {
    this.source = source && source.trim() !== '' ? source : FALLBACK_TEMPLATE;
    this.template = new Template(this.source);
    this.callsAsBlocks = this.source.includes(CALL_OPEN);
  }

  /** The prompt for the next assistant reply, as template text and content pieces in order. */
  render(messages: ChatMessage[], tools: ToolSpec[]): PromptPiece[] {
    const nonce = randomBytes(8).toString('hex');
    const slots: string[] = [];
    const slot = (content: string): string => {
      slots.push(content);
      return `@@wisp_${nonce}_${slots.length - 1}@@`;
    };
    // Inside tojson a string slot must come back JSON-escaped, exactly as tojson would have written it.
    const jsonSlot = (value: unknown): unknown => {
      if (typeof value === 'string') return slot(JSON.stringify(value).slice(1, -1));
      if (Array.isArray(value)) return value.map(jsonSlot);
      if (value && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [slot(JSON.stringify(k).slice(1, -1)), jsonSlot(v)]));
      }
      return value;
    };
    const text = (s: string): string => (s === '' ? '' : slot(s));
    const rendered = messages.map((m) => {
      switch (m.role) {
        case 'system':
        case 'user':
          return { role: m.role, content: text(m.content) };
        case 'assistant':
          return {
            role: 'assistant',
            content: text(m.content),
            ...(m.toolCalls?.length
              ? {
                  tool_calls: m.toolCalls.map((c) => ({
                    id: c.id,
                    type: 'function',
                    function: { name: slot(c.name), arguments: jsonSlot(c.arguments ?? {}) },
                  })),
                }
              : {}),
          };
        case 'tool':
          return { role: 'tool', tool_call_id: m.toolCallId, name: m.name, content: text(m.content) };
      }
    });
    const out = this.template.render({
      messages: rendered,
      ...(tools.length > 0
        ? { tools: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) }
        : {}),
      add_generation_prompt: true,
      bos_token: this.tokens.bos ?? '',
      eos_token: this.tokens.eos ?? '',
    });
    // The beginning-of-sequence token is added by the tokenizer step; a template that writes it would double it.
    const body = this.tokens.bos && out.startsWith(this.tokens.bos) ? out.slice(this.tokens.bos.length) : out;
    const pieces: PromptPiece[] = [];
    const marker = new RegExp(`@@wisp_${nonce}_(\\d+)@@`, 'g');
    let last = 0;
    for (const m of body.matchAll(marker)) {
      if (m.index > last) pieces.push({ text: body.slice(last, m.index), trusted: true });
      const content = slots[Number(m[1])];
      if (content) pieces.push({ text: content, trusted: false });
      last = m.index + m[0].length;
    }
    if (last < body.length) pieces.push({ text: body.slice(last), trusted: true });
    return pieces;
  }
}
