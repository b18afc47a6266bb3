// The chat's prompt history, kept across chats in `$WISP_HOME/history`: one JSON string per line (so a prompt of
// several lines stays one entry), 0600, the newest HISTORY_MAX kept. A prompt that starts with a space is not kept,
// as in shells (HISTCONTROL=ignorespace): the way to type something that must not be written down (ADR 0047).
// A file that fails its checks (not ours, not 0600, a line that is not a saved prompt) is reported once and left
// as it is: the chat then keeps this session's prompts in memory only.
import { join } from 'node:path';
import { z } from 'zod';
import { appendPrivate, readPrivate, replacePrivate } from './private-file.js';

/** Most prompts kept in the file (the oldest go first). */
export const HISTORY_MAX = 1000;
/** A prompt longer than this (UTF-8 bytes) is not kept: a pasted file has no place in the history. */
export const HISTORY_ENTRY_MAX_BYTES = 8192;
const FILE_MAX_BYTES = 2 * HISTORY_MAX * (HISTORY_ENTRY_MAX_BYTES + 64);

const Line = z.string().min(1).max(HISTORY_ENTRY_MAX_BYTES);

export function historyFile(home: string): string {
  return join(home, 'history');
}

/** Whether a prompt may be written to the history file. */
export function keepable(text: string): boolean {
  return text.trim() !== '' && !/^\s/.test(text) && Buffer.byteLength(text, 'utf8') <= HISTORY_ENTRY_MAX_BYTES;
}

export class PromptHistory {
  private readonly items: string[];

  private constructor(
    items: string[],
    /** Where new prompts are appended; undefined = memory only. */
    private readonly file: string | undefined,
    /** Why the file is not used, said once by the chat. */
    readonly warning: string | undefined,
  ) {
    this.items = items;
  }

  /** History in memory only (tests, or no WISP_HOME). */
  static memory(items: readonly string[] = []): PromptHistory {
    return new PromptHistory([...items], undefined, undefined);
  }

  /** Reads the file (missing is fine: it is created with the first prompt kept). */
  static load(file: string): PromptHistory {
    const read = readPrivate(file, FILE_MAX_BYTES);
    if (!read.ok) {
      if (read.missing) return new PromptHistory([], file, undefined);
      return new PromptHistory([], undefined, `prompt history ${file} not used (${read.reason}); prompts are kept for this chat only`);
    }
    const items: string[] = [];
    const lines = read.text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (const [i, line] of lines.entries()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      const ok = Line.safeParse(parsed);
      if (!ok.success) {
        return new PromptHistory(
          [],
          undefined,
          `prompt history ${file} not used: line ${i + 1} is not a saved prompt (the file is left as it is; remove it to start afresh); prompts are kept for this chat only`,
        );
      }
      items.push(ok.data);
    }
    if (items.length > HISTORY_MAX) {
      items.splice(0, items.length - HISTORY_MAX);
      try {
        replacePrivate(file, items.map((t) => JSON.stringify(t) + '\n').join(''));
      } catch {
        // Trimming is housekeeping; the next chat tries again.
      }
    }
    return new PromptHistory(items, file, undefined);
  }

  /** Oldest first. */
  entries(): readonly string[] {
    return this.items;
  }

  /**
   * Records a sent prompt, unless it repeats the last one or starts with a space (then it is not kept at all, not
   * even for ↑ in this chat, as in shells). A prompt too long for the file is kept in memory only. Returns a
   * warning when the file could not be written.
   */
  add(text: string): string | undefined {
    if (text.trim() === '' || /^\s/.test(text) || this.items[this.items.length - 1] === text) return undefined;
    this.items.push(text);
    if (this.items.length > HISTORY_MAX) this.items.shift();
    if (!this.file || !keepable(text)) return undefined;
    try {
      appendPrivate(this.file, JSON.stringify(text) + '\n');
      return undefined;
    } catch (err) {
      return `cannot write the prompt history: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}
