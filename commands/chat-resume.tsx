// `wisp chat --resume [ID]` and `--continue`: which saved conversation the chat goes on with. Decided before the
// chat starts, so a missing or bad file is a clear error (exit 64) and nothing is written. Loaded with Ink (the
// list to pick from), so only from chat-run.
import { render } from 'ink';
import React from 'react';
import { listSaved, loadSaved, savedFile, SavedChatError, sessionsDir, type LoadedChat, type SavedSummary } from '../src/session/saved-chat.js';
import { UsageError } from '../src/core/errors.js';
import { SessionPicker } from '../ui/SessionPicker.js';
import type { EntryBody } from '../ui/transcript-entries.js';
import type { ChatFlags } from './chat-flags.js';

export interface Resumed {
  readonly chat: LoadedChat;
  /** What the chat says about it, after the restored transcript. */
  readonly notes: EntryBody[];
}

function load(file: string): LoadedChat {
  try {
    return loadSaved(file);
  } catch (err) {
    if (err instanceof SavedChatError) throw new UsageError(err.message);
    throw err;
  }
}

function resumed(chat: LoadedChat, cwd: string): Resumed {
  const h = chat.header;
  const prompts = chat.messages.filter((m) => m.role === 'user').length;
  const notes: EntryBody[] = [
    {
      kind: 'info',
      text:
        `resumed conversation ${h.id} (started ${h.startedAt.slice(0, 16).replace('T', ' ')} UTC, ${prompts} prompt${prompts === 1 ? '' : 's'}): ` +
        'the model has its context again. Approvals were not restored: a command approved for that session asks again.',
    },
  ];
  if (h.directory !== cwd) notes.push({ kind: 'info', text: `it was started in ${h.directory}; commands now run in ${cwd}` });
  return { chat, notes };
}

async function pick(chats: readonly SavedSummary[], unreadable: number): Promise<SavedSummary | undefined> {
  let chosen: SavedSummary | undefined;
  const instance = render(
    <SessionPicker
      chats={chats}
      unreadable={unreadable}
      onPick={(c) => {
        chosen = c;
        instance.clear();
        instance.unmount();
      }}
    />,
    { exitOnCtrlC: false },
  );
  await instance.waitUntilExit();
  return chosen;
}

/** The conversation to go on with; undefined for a new one; 'left' when the person left the list. */
export async function findResume(flags: ChatFlags, home: string, cwd: string): Promise<Resumed | 'left' | undefined> {
  if (typeof flags.resume === 'string') {
    const file = savedFile(home, flags.resume);
    if (!file) throw new UsageError(`--resume ${flags.resume}: not a saved conversation id (they look like 20261201T191500-1a2b3c4d); wisp chat --resume lists them`);
    return resumed(load(file), cwd);
  }
  if (flags.resume !== true && !flags.continue) return undefined;
  const list = listSaved(home);
  if (flags.continue) {
    const here = list.chats.find((c) => c.header.directory === cwd);
    if (!here) {
      throw new UsageError(
        `no saved conversation to continue in ${cwd}` +
          (list.unreadable.length ? ` (${list.unreadable.length} saved file(s) fail their checks; wisp chat --resume lists the others)` : ''),
      );
    }
    return resumed(load(here.file), cwd);
  }
  if (list.chats.length === 0) {
    throw new UsageError(
      `no saved conversations in ${sessionsDir(home)}` +
        (list.unreadable.length ? `; ${list.unreadable.length} file(s) there fail their checks: ${list.unreadable[0]!.reason}` : ''),
    );
  }
  const chosen = await pick(list.chats, list.unreadable.length);
  return chosen ? resumed(load(chosen.file), cwd) : 'left';
}
