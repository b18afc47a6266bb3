// Tool calls written as text, the way Hermes/Qwen-style chat templates ask for them:
//   <tool_call>
//   {"name": "run_command", "arguments": {"command": "ls"}}
//   </tool_call>
// The in-process backend generates plain text and reads the calls out of it here (ADR 0049), so nothing forces the
// model off its own distribution. `<think>` blocks (reasoning models) go to their own stream and never into the reply.
import { z } from 'zod';

export const CALL_OPEN = '<tool_call>';
export const CALL_CLOSE = '</tool_call>';
const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/** A call as read from the text. `arguments` is the raw text when the block was not a readable JSON object. */
export interface TextToolCall {
  name: string;
  arguments: unknown;
}

export interface SplitReply {
  text: string;
  thinking: string;
  calls: TextToolCall[];
}

/** The envelope inside a block; `parameters` is the Llama 3 spelling of `arguments`. */
const Envelope = z.object({
  name: z.string().min(1).max(256),
  arguments: z.unknown().optional(),
  parameters: z.unknown().optional(),
});

/**
 * The string value of the first `"name": "…"` in text that is not JSON (at most 256 characters, no line break), as
 * written (escapes kept). A scan rather than a regular expression: it reads each character a bounded number of times
 * whatever the model wrote (ADR 0038).
 */
function nameInBroken(raw: string): string | undefined {
  const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
  for (let at = raw.indexOf('"name"'); at >= 0; at = raw.indexOf('"name"', at + 1)) {
    let i = at + 6;
    while (isSpace(raw[i])) i++;
    if (raw[i] !== ':') continue;
    i++;
    while (isSpace(raw[i])) i++;
    if (raw[i] !== '"') continue;
    const start = ++i;
    let count = 0;
    while (i < raw.length && count < 257) {
      const c = raw[i]!;
      if (c === '"') break;
      if (c === '\\') {
        if (i + 1 >= raw.length || raw[i + 1] === '\n') break;
        i += 2;
      } else if (c === '\n') break;
      else i++;
      count++;
    }
    if (raw[i] === '"' && count >= 1 && count <= 256) return raw.slice(start, i);
  }
  return undefined;
}

/**
 * One block's text → a call. A block that is not JSON keeps its raw text as `arguments` (the tool loop then tells the
 * model its call was malformed); the name is still read when it can be, so the error names the tool.
 */
export function parseCallBlock(block: string): TextToolCall {
  const raw = block.trim();
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    const found = nameInBroken(raw);
    let name = '(unreadable call)';
    if (found !== undefined) {
      try {
        name = JSON.parse(`"${found}"`) as string;
      } catch {
        name = found;
      }
    }
    return { name, arguments: raw };
  }
  const env = Envelope.safeParse(value);
  if (!env.success) return { name: '(unreadable call)', arguments: raw };
  let args: unknown = env.data.arguments ?? env.data.parameters ?? {};
  // Some templates ask for the arguments as a JSON string; read it, or pass it on raw when it is not JSON.
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch {
      // stays the raw string
    }
  }
  return { name: env.data.name, arguments: args };
}

type State = 'text' | 'call' | 'think';

/**
 * Reads a streamed reply: text goes to `onText` as it arrives, minus the call blocks and reasoning, and minus white space
 * that only separates blocks (held back until text follows, dropped at the end), so the pieces joined equal `text`.
 * A tag split across chunks is held back until it can be told apart from text.
 */
export class ReplySplitter {
  private state: State = 'text';
  private buf = '';
  private pendingSpace = '';
  private started = false;
  private text = '';
  private thinking = '';
  private callText = '';
  private readonly calls: TextToolCall[] = [];

  constructor(private readonly sinks: { onText?: (s: string) => void; onThinking?: (s: string) => void } = {}) {}

  push(chunk: string): void {
    this.buf += chunk;
    this.drain(false);
  }

  finish(): SplitReply {
    this.drain(true);
    if (this.state === 'call') this.calls.push(parseCallBlock(this.callText)); // cut off before its closing tag
    this.callText = '';
    return { text: this.text, thinking: this.thinking, calls: this.calls.slice() };
  }

  private drain(end: boolean): void {
    for (;;) {
      if (this.state === 'text') {
        const open = earliest(this.buf, [CALL_OPEN, THINK_OPEN]);
        if (open) {
          this.emitText(this.buf.slice(0, open.at));
          this.buf = this.buf.slice(open.at + open.tag.length);
          this.state = open.tag === CALL_OPEN ? 'call' : 'think';
          continue;
        }
        const keep = end ? 0 : heldBack(this.buf, [CALL_OPEN, THINK_OPEN]);
        this.emitText(this.buf.slice(0, this.buf.length - keep));
        this.buf = this.buf.slice(this.buf.length - keep);
        return;
      }
      const close = this.state === 'call' ? CALL_CLOSE : THINK_CLOSE;
      const at = this.buf.indexOf(close);
      if (at >= 0) {
        this.inside(this.buf.slice(0, at));
        if (this.state === 'call') {
          this.calls.push(parseCallBlock(this.callText));
          this.callText = '';
        }
        this.buf = this.buf.slice(at + close.length);
        this.state = 'text';
        continue;
      }
      const keep = end ? 0 : heldBack(this.buf, [close]);
      this.inside(this.buf.slice(0, this.buf.length - keep));
      this.buf = this.buf.slice(this.buf.length - keep);
      return;
    }
  }

  private inside(s: string): void {
    if (!s) return;
    if (this.state === 'call') this.callText += s;
    else {
      this.thinking += s;
      this.sinks.onThinking?.(s);
    }
  }

  private emitText(s: string): void {
    if (!s) return;
    if (/^\s*$/.test(s)) {
      // Leading white space and white space between blocks are not part of the reply unless text follows.
      if (this.started) this.pendingSpace += s;
      return;
    }
    let out = this.pendingSpace + s;
    if (!this.started) out = out.replace(/^\s+/, '');
    this.pendingSpace = '';
    // trimEnd, not /\s+$/: the regex is quadratic on a long run of white space (ADR 0038).
    const kept = out.trimEnd();
    if (kept.length < out.length) {
      this.pendingSpace = out.slice(kept.length);
      out = kept;
    }
    this.started = true;
    this.text += out;
    this.sinks.onText?.(out);
  }
}

function earliest(s: string, tags: string[]): { at: number; tag: string } | undefined {
  let best: { at: number; tag: string } | undefined;
  for (const tag of tags) {
    const at = s.indexOf(tag);
    if (at >= 0 && (!best || at < best.at)) best = { at, tag };
  }
  return best;
}

/** How many trailing characters of `s` could be the start of one of `tags` (and so must wait for the next chunk). */
function heldBack(s: string, tags: string[]): number {
  let keep = 0;
  for (const tag of tags) {
    for (let n = Math.min(tag.length - 1, s.length); n > keep; n--) {
      if (s.endsWith(tag.slice(0, n))) {
        keep = n;
        break;
      }
    }
  }
  return keep;
}
