// Saved conversations of `wisp chat`, for `--resume` and `--continue`: one JSONL file per conversation in
// `$WISP_HOME/sessions/`, 0600. Line 1 says what it is (`start`); then `message` lines hold the model's context (the
// system prompt is not saved: it is rebuilt) and `shown` lines the transcript as it was drawn. Approvals are never
// written here, so none can come back from a file (ADR 0048). Read back, every line is checked with zod and the
// context must be whole (each tool call answered): a tampered or cut file is refused with the line that is wrong,
// and left as it is.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { ChatMessage } from '../model/types.js';
import { shortId } from '../core/ids.js';
import { appendPrivate, privateStat, readPrivate } from './private-file.js';

export const SAVED_VERSION = 1;
/** The largest saved conversation read back. */
export const SAVED_MAX_BYTES = 32 * 1024 * 1024;
/** How many of the newest files `listSaved` reads. */
export const LIST_MAX = 50;

const Text = z.string().max(1_000_000);
const Name = z.string().min(1).max(256);

const SavedMessage = z.discriminatedUnion('role', [
  z.strictObject({ role: z.literal('user'), content: Text }),
  z.strictObject({
    role: z.literal('assistant'),
    content: Text,
    toolCalls: z.array(z.strictObject({ id: Name, name: Name, arguments: z.unknown() })).max(64).optional(),
  }),
  z.strictObject({ role: z.literal('tool'), toolCallId: Name, name: Name, content: Text }),
]);

/** The transcript entries a saved conversation keeps (wisp's own notices and slash output are not kept). */
export const SavedShown = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('prompt'), text: Text }),
  z.strictObject({ kind: z.literal('reply'), text: Text }),
  z.strictObject({ kind: z.literal('gate'), tool: Name, subject: Text, allowed: z.boolean(), note: Text }),
  z.strictObject({ kind: z.literal('output'), text: Text }),
  z.strictObject({ kind: z.literal('inquiry'), question: Text, outcome: Text }),
  z.strictObject({ kind: z.literal('answer'), question: Text, text: Text }),
  z.strictObject({ kind: z.literal('failed'), tool: Name, error: Text }),
]);
export type SavedEntry = z.infer<typeof SavedShown>;

const ID = /^[0-9]{8}T[0-9]{6}-[0-9a-f]{8}$/;

const Start = z.strictObject({
  type: z.literal('start'),
  version: z.literal(SAVED_VERSION),
  id: z.string().regex(ID),
  directory: z.string().min(1).max(4096),
  model: Name,
  startedAt: z.iso.datetime(),
});
const Record = z.discriminatedUnion('type', [
  Start,
  z.strictObject({ type: z.literal('message'), message: SavedMessage }),
  z.strictObject({ type: z.literal('shown'), entry: SavedShown }),
]);

export interface SavedHeader {
  readonly id: string;
  readonly directory: string;
  readonly model: string;
  readonly startedAt: string;
}

export interface LoadedChat {
  readonly file: string;
  readonly header: SavedHeader;
  /** The model's context, without the system prompt. */
  readonly messages: readonly ChatMessage[];
  readonly shown: readonly SavedEntry[];
}

export class SavedChatError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`cannot resume ${file}: ${reason}; the file is left as it is`);
    this.name = 'SavedChatError';
  }
}

export function sessionsDir(home: string): string {
  return join(home, 'sessions');
}

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').slice(0, 15);
}

/** The file of saved conversation `id`, or undefined when `id` is not one wisp makes (no path tricks). */
export function savedFile(home: string, id: string): string | undefined {
  return ID.test(id) ? join(sessionsDir(home), `${id}.jsonl`) : undefined;
}

/** Reads and checks a saved conversation whole. Throws SavedChatError naming what is wrong. */
export function loadSaved(file: string): LoadedChat {
  const read = readPrivate(file, SAVED_MAX_BYTES);
  if (!read.ok) throw new SavedChatError(file, read.reason);
  if (read.text === '') throw new SavedChatError(file, 'it is empty');
  if (!read.text.endsWith('\n')) throw new SavedChatError(file, 'it is cut short (its last line is not whole)');
  const lines = read.text.slice(0, -1).split('\n');
  let header: SavedHeader | undefined;
  const messages: ChatMessage[] = [];
  const shown: SavedEntry[] = [];
  // Tool calls of the last assistant message that have no result yet: the context is whole only when none is left
  // at the next user or assistant message, and at the end.
  let open: string[] = [];
  for (const [i, line] of lines.entries()) {
    const where = `line ${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new SavedChatError(file, `${where} is not JSON`);
    }
    const parsed = Record.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new SavedChatError(file, `${where} is not a saved conversation record (${issue ? `${issue.path.join('.') || 'record'}: ${issue.message}` : 'invalid'})`);
    }
    const rec = parsed.data;
    if (i === 0) {
      if (rec.type !== 'start') throw new SavedChatError(file, 'line 1 does not start a saved conversation');
      header = { id: rec.id, directory: rec.directory, model: rec.model, startedAt: rec.startedAt };
      if (basename(file) !== `${rec.id}.jsonl`) {
        throw new SavedChatError(file, `line 1 names conversation ${rec.id}, not this file`);
      }
      continue;
    }
    if (rec.type === 'start') throw new SavedChatError(file, `${where} starts a second conversation`);
    if (rec.type === 'shown') {
      shown.push(rec.entry);
      continue;
    }
    const m = rec.message;
    if (m.role === 'tool') {
      const at = open.indexOf(m.toolCallId);
      if (at < 0) throw new SavedChatError(file, `${where} answers tool call ${m.toolCallId}, which was not asked for`);
      open.splice(at, 1);
      messages.push({ role: 'tool', toolCallId: m.toolCallId, name: m.name, content: m.content });
      continue;
    }
    if (open.length > 0) throw new SavedChatError(file, `${where}: tool call ${open[0]} has no result`);
    if (m.role === 'user') messages.push({ role: 'user', content: m.content });
    else {
      open = (m.toolCalls ?? []).map((c) => c.id);
      messages.push({ role: 'assistant', content: m.content, ...(m.toolCalls ? { toolCalls: m.toolCalls.map((c) => ({ ...c })) } : {}) });
    }
  }
  if (!header) throw new SavedChatError(file, 'it is empty');
  if (open.length > 0) throw new SavedChatError(file, `it is cut short (tool call ${open[0]} has no result)`);
  return { file, header, messages, shown };
}

export interface SavedSummary {
  readonly file: string;
  readonly header: SavedHeader;
  /** The first prompt, for the list. */
  readonly title: string;
  readonly prompts: number;
  /** Last written (ms since the epoch). */
  readonly modifiedAt: number;
}

export interface SavedList {
  /** Newest first. */
  readonly chats: readonly SavedSummary[];
  /** Files that failed their checks, with why. */
  readonly unreadable: ReadonlyArray<{ readonly file: string; readonly reason: string }>;
}

/** The newest saved conversations (at most LIST_MAX files are read), each checked whole. */
export function listSaved(home: string): SavedList {
  const dir = sessionsDir(home);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl') && ID.test(n.slice(0, -6)));
  } catch {
    return { chats: [], unreadable: [] };
  }
  const dated: Array<{ file: string; mtime: number }> = [];
  const unreadable: Array<{ file: string; reason: string }> = [];
  for (const name of names) {
    const file = join(dir, name);
    const st = privateStat(file);
    if (!st.ok) unreadable.push({ file, reason: st.reason });
    else dated.push({ file, mtime: st.stat.mtimeMs });
  }
  dated.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? 1 : -1));
  const chats: SavedSummary[] = [];
  for (const { file, mtime } of dated.slice(0, LIST_MAX)) {
    try {
      const loaded = loadSaved(file);
      const prompts = loaded.messages.filter((m) => m.role === 'user');
      chats.push({ file, header: loaded.header, title: prompts[0]?.content ?? '', prompts: prompts.length, modifiedAt: mtime });
    } catch (err) {
      unreadable.push({ file, reason: err instanceof Error ? err.message : String(err) });
    }
  }
  return { chats, unreadable };
}

/**
 * Writes one conversation as it goes. The file is made with the first thing worth keeping (a chat where nothing
 * was said leaves none). After a write fails, it writes nothing more and says so once.
 */
export class SavedChat {
  private started: boolean;
  private failed = false;

  private constructor(
    readonly file: string,
    private readonly header: SavedHeader,
    started: boolean,
  ) {
    this.started = started;
  }

  static create(home: string, opts: { readonly directory: string; readonly model: string; readonly now?: Date }): SavedChat {
    const now = opts.now ?? new Date();
    const id = `${stamp(now)}-${shortId()}`;
    const file = savedFile(home, id)!;
    return new SavedChat(file, { id, directory: opts.directory, model: opts.model, startedAt: now.toISOString() }, false);
  }

  /** Goes on writing a conversation that was read back. */
  static resume(loaded: LoadedChat): SavedChat {
    return new SavedChat(loaded.file, loaded.header, true);
  }

  get id(): string {
    return this.header.id;
  }

  /** Adds messages of the model's context (the system prompt is left out). Returns a warning on the first failure. */
  messages(messages: readonly ChatMessage[]): string | undefined {
    const kept = messages.filter((m) => m.role !== 'system').map((message) => ({ type: 'message' as const, message }));
    return this.write(kept);
  }

  /** Adds transcript entries; those a saved conversation does not keep are skipped. */
  shown(entries: readonly unknown[]): string | undefined {
    const kept: Array<{ type: 'shown'; entry: SavedEntry }> = [];
    for (const e of entries) {
      const ok = SavedShown.safeParse(e);
      if (ok.success) kept.push({ type: 'shown', entry: ok.data });
    }
    return this.write(kept);
  }

  private write(records: readonly object[]): string | undefined {
    if (this.failed || records.length === 0) return undefined;
    const lines = [...(this.started ? [] : [{ type: 'start', version: SAVED_VERSION, ...this.header }]), ...records];
    try {
      appendPrivate(this.file, lines.map((r) => JSON.stringify(r) + '\n').join(''));
      this.started = true;
      return undefined;
    } catch (err) {
      this.failed = true;
      return `this conversation is no longer saved: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
}
