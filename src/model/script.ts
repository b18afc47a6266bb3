// The script backend (`-m script:PATH`): a JSON file of canned responses, played in order, one per model call of a
// conversation. It is how tests, demos and benchmarks run without a model (design.md §6).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ModelError } from './types.js';
import type { ChatMessage, GenerateOptions, LanguageModel, ModelReply, ToolCall } from './types.js';
import { aborted, formatIssues } from './wire.js';

const ScriptToolCall = z.strictObject({
  name: z.string().min(1),
  /** An object; a string stands for arguments the model got wrong (not JSON) and reaches the loop as that raw text. */
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).default({}),
});

const ScriptResponse = z
  .strictObject({
    text: z.string().optional(),
    toolCalls: z.array(ScriptToolCall).optional(),
    /** Wait this long before answering (a slow model, for timeouts and progress in tests). */
    delayMs: z.number().int().min(0).max(3_600_000).optional(),
  })
  .refine((r) => r.text !== undefined || r.toolCalls !== undefined, {
    message: 'a response needs "text", "toolCalls" or both',
  });

export const ScriptFileSchema = z.strictObject({
  /** Free text for the reader of the file; ignored. */
  description: z.string().optional(),
  responses: z.array(ScriptResponse).min(1, 'a script needs at least one response'),
});
export type ScriptFile = z.infer<typeof ScriptFileSchema>;
export type ScriptResponse = z.infer<typeof ScriptResponse>;

const FORMAT_HINT =
  'A script is {"responses": [R, …]} where R is {"text": "…"}, ' +
  '{"toolCalls": [{"name": "…", "arguments": {…}}]} or both; see docs/models.md';

/** Reads and checks a script file; any problem is a usage error naming the file. */
export function loadScript(path: string, cwd: string = process.cwd()): { path: string; script: ScriptFile } {
  const file = resolve(cwd, path.startsWith('~/') ? homedir() + path.slice(1) : path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (err as Error).message;
    const hint = 'Check the path in -m script:PATH (a relative path starts at the current directory)';
    throw new ModelError('usage', `Cannot read the script ${file}: ${why}`, hint, { cause: err });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const what = `The script ${file} is not valid JSON: ${(err as Error).message}`;
    throw new ModelError('usage', what, FORMAT_HINT, { cause: err });
  }
  const parsed = ScriptFileSchema.safeParse(value);
  if (!parsed.success) {
    const what = `The script ${file} does not fit the script format: ${formatIssues(parsed.error)}`;
    throw new ModelError('usage', what, FORMAT_HINT);
  }
  return { path: file, script: parsed.data };
}

export class ScriptModel implements LanguageModel {
  readonly id: string;
  private next = 0;
  private calls = 0;

  constructor(
    private readonly script: ScriptFile,
    private readonly path: string,
  ) {
    this.id = `script:${path}`;
  }

  /** A fresh conversation: it starts again at the first response. */
  fork(): LanguageModel {
    return new ScriptModel(this.script, this.path);
  }

  async generate(_messages: ChatMessage[], opts: GenerateOptions): Promise<ModelReply> {
    if (opts.signal?.aborted) throw aborted(opts.signal);
    const { responses } = this.script;
    if (this.next >= responses.length) {
      throw new ModelError(
        'script-exhausted',
        `The script ${this.path} has no response left: this conversation used all ${responses.length}`,
        'Add responses to the script: each model call of a conversation takes the next one, ' +
          'and a new conversation starts again at the first',
      );
    }
    const r = responses[this.next++];
    if (r.delayMs) {
      try {
        await sleep(r.delayMs, undefined, opts.signal ? { signal: opts.signal } : {});
      } catch (err) {
        throw aborted(opts.signal, err);
      }
    }
    const text = r.text ?? '';
    for (const piece of pieces(text)) {
      if (opts.signal?.aborted) throw aborted(opts.signal);
      opts.onText?.(piece);
      // Let other work run between pieces, as a real stream would.
      await Promise.resolve();
    }
    const toolCalls: ToolCall[] = (r.toolCalls ?? []).map((c) => ({
      id: `call_${++this.calls}`,
      name: c.name,
      arguments: structuredClone(c.arguments),
    }));
    return { text, toolCalls, finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop' };
  }
}

/** The text in up to three pieces (cut between code points), so consumers see a stream, not one blob. */
export function pieces(text: string): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const n = Math.min(3, chars.length);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(chars.slice(Math.floor((i * chars.length) / n), Math.floor(((i + 1) * chars.length) / n)).join(''));
  }
  return out;
}
