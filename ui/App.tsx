// The chat: the transcript above (printed once, in <Static>), then the live part — the reply line being streamed,
// a dialog or the spinner, the input line and the status line. The engine emits data; this renders it and answers
// dialogs by id (style-anchors §3). Keys go to exactly one place at a time: the open dialog, else the input line.
import { Box, Text, useApp, useStdout, type Key } from 'ink';
import React, { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { ApprovalDialog } from './ApprovalDialog.js';
import { useKeys } from './use-keys.js';
import { Interruption, type DialogRequest, type DialogResult, type DialogStore } from './dialog-store.js';
import type { ChatEngine } from './engine.js';
import { draftKey, draftPaste, EMPTY_DRAFT, type DraftState } from './draft.js';
import { InquiryDialog } from './InquiryDialog.js';
import { KeyRhythm, QUIET_MS } from './key-rhythm.js';
import { PromptHistory } from '../src/session/prompt-history.js';
import { PromptInput } from './PromptInput.js';
import { isSlash } from './slash.js';
import { TurnActivity } from './activity.js';
import { LiveActivity } from './LiveActivity.js';
import { StatusLine } from './StatusLine.js';
import { shownLine, Transcript } from './Transcript.js';
import { entriesForEvent, ReplyLines, withAnswers, type Entry, type EntryBody } from './transcript-entries.js';

/** Entries that come from outside the App (the queue watcher, start-up warnings). */
export interface TranscriptFeed {
  subscribe(listener: (entry: EntryBody) => void): () => void;
}

export interface AppProps {
  readonly engine: ChatEngine;
  readonly store: DialogStore;
  readonly feed?: TranscriptFeed;
  /** Rings when a dialog opens. @default writes BEL to stdout */
  readonly bell?: () => void;
  /** Entries to start the transcript with (a greeting, warnings). */
  readonly initial?: readonly EntryBody[];
  /**
   * The pause (ms) that makes a key deliberate: a dialog ignores every key that comes less than this after the
   * previous key or after it opened (ui/key-rhythm.ts). @default 500
   */
  readonly quietMs?: number;
  /** Called when the person quits (after Ink unmounts). */
  readonly onQuit?: () => void;
  /** Earlier prompts for ↑/↓ and Ctrl+R, and where new ones are kept. @default this chat's, in memory */
  readonly history?: PromptHistory;
}

/** Erase the screen and put the cursor at the top (Ctrl+L, /clear). */
export const CLEAR_SCREEN = '\x1b[2J\x1b[H';

/** How long a first Ctrl+C on an empty line waits for the second. */
export const QUIT_WINDOW_MS = 2000;

export function App({ engine, store, feed, bell, initial = [], quietMs = QUIET_MS, onQuit, history: kept }: AppProps): React.ReactElement {
  const { exit } = useApp();
  const { write: writeOut } = useStdout();
  const nextId = useRef(0);
  /** Answers to this chat's own questions, held until the question's line is in the transcript, to go under it. */
  const heldAnswers = useRef<EntryBody[]>([]);
  const [entries, setEntries] = useState<Entry[]>(() => initial.map((e) => ({ ...e, id: nextId.current++ })));
  const [partial, setPartial] = useState('');
  const [busy, setBusy] = useState(false);
  const [prompts] = useState(() => kept ?? PromptHistory.memory());
  const [history, setHistory] = useState<readonly string[]>(() => [...prompts.entries()]);
  const [info, setInfo] = useState(() => engine.info());
  // An engine still starting behind the drawn input line (ui/deferred-engine.ts, ADR 0056): keys edit the line as
  // ever, and Enter queues what was typed until the session is open.
  const [starting, setStarting] = useState(() => engine.ready !== undefined);
  const startingRef = useRef(starting);
  useEffect(() => {
    if (engine.ready === undefined) return;
    let live = true;
    engine.ready.then(
      () => {
        if (!live) return;
        startingRef.current = false;
        setStarting(false);
        setInfo(engine.info());
      },
      // A start that failed ends the chat: whoever started it unmounts the App and reports why.
      () => {},
    );
    return () => {
      live = false;
    };
  }, [engine]);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const abortRef = useRef<AbortController | undefined>(undefined);
  const rhythm = useMemo(() => new KeyRhythm(quietMs), [quietMs]);
  const activity = useMemo(() => new TurnActivity(), []);
  const quitArmedAt = useRef(0);
  const noticeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(noticeTimer.current), []);
  // The input line and the queue live in refs as well as state: keys that arrive together are applied one after
  // another before React re-renders.
  const draftRef = useRef<DraftState>(EMPTY_DRAFT);
  const [draft, setDraftState] = useState<DraftState>(EMPTY_DRAFT);
  const setDraft = (next: DraftState) => {
    draftRef.current = next;
    setDraftState(next);
  };
  const queuedRef = useRef<string[]>([]);
  const [queued, setQueuedState] = useState<readonly string[]>([]);
  const setQueued = (next: string[]) => {
    queuedRef.current = next;
    setQueuedState(next);
  };
  const dialogs = useSyncExternalStore(store.subscribe, store.snapshot);
  const active = dialogs.active;

  const append = useCallback((...bodies: EntryBody[]) => {
    if (bodies.length === 0) return;
    setEntries((prev) => [...prev, ...bodies.map((b) => ({ ...b, id: nextId.current++ }) as Entry)]);
    const problem = engine.record?.(bodies);
    if (problem) setEntries((prev) => [...prev, { kind: 'error', text: problem, id: nextId.current++ }]);
  }, [engine]);

  useEffect(() => feed?.subscribe((entry) => append(entry)), [feed, append]);

  const activeId = active?.id;
  useEffect(() => {
    if (activeId === undefined) return;
    (bell ?? (() => process.stdout.write('\x07')))();
  }, [activeId, bell]);

  const say = (text: string | undefined, ms = QUIT_WINDOW_MS) => {
    clearTimeout(noticeTimer.current);
    setNotice(text);
    if (text !== undefined) noticeTimer.current = setTimeout(() => setNotice(undefined), ms);
  };

  const quit = useCallback(() => {
    abortRef.current?.abort(new Interruption('you quit the chat'));
    exit();
    onQuit?.();
  }, [exit, onQuit]);

  const answer = useCallback(
    (request: DialogRequest, result: DialogResult) => {
      // The transcript keeps what was answered, not only that it was (issue 14 point 9).
      if (store.settle(request.id, result) && request.verb === 'inquiry' && result.kind === 'answered') {
        const entry: EntryBody = { kind: 'answer', question: request.request.question, text: result.text };
        // The question's own line comes when the tool returns; the answer goes under it (see onEvent).
        if (request.source.kind === 'local' && abortRef.current) heldAnswers.current.push(entry);
        else append(entry);
      }
    },
    [store, append],
  );
  const runTurn = useCallback(
    async (prompt: string) => {
      const controller = new AbortController();
      abortRef.current = controller;
      activity.start();
      setBusy(true);
      const lines = new ReplyLines();
      let streamed = false;
      const flushReply = () => {
        append(...lines.flush().map((text) => ({ kind: 'reply' as const, text })));
        setPartial('');
      };
      try {
        const result = await engine.turn(prompt, {
          signal: controller.signal,
          onText: (delta) => {
            streamed = true;
            activity.thinking();
            append(...lines.push(delta).map((text) => ({ kind: 'reply' as const, text })));
            setPartial(lines.pending);
          },
          onEvent: (event) => {
            activity.event(event);
            flushReply();
            append(...withAnswers(entriesForEvent(event), heldAnswers.current));
          },
          onProgress: (message) => {
            activity.progress(message);
            append({ kind: 'info', text: message });
          },
          onLive: (event) => activity.live(event),
        });
        flushReply();
        if (!streamed && result.text) append(...result.text.split('\n').map((text) => ({ kind: 'reply' as const, text })));
      } catch (err) {
        flushReply();
        if (controller.signal.aborted) append({ kind: 'info', text: 'interrupted' });
        else append({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
      } finally {
        if (abortRef.current === controller) abortRef.current = undefined;
        // An answer whose question line never came (the turn ended first) is still shown.
        append(...heldAnswers.current.splice(0));
        setBusy(false);
      }
    },
    [engine, append, activity],
  );

  const submit = useCallback(
    (text: string) => {
      const problem = prompts.add(text);
      setHistory([...prompts.entries()]);
      if (problem) append({ kind: 'error', text: problem });
      if (isSlash(text)) {
        append({ kind: 'prompt', text });
        let result: ReturnType<ChatEngine['slash']>;
        try {
          result = engine.slash(text);
        } catch (err) {
          result = { kind: 'error', text: err instanceof Error ? err.message : String(err) };
        }
        if (result.kind === 'quit') return quit();
        if (result.kind === 'clear') {
          writeOut(CLEAR_SCREEN);
          append({ kind: 'info', text: result.text });
          setInfo(engine.info());
          return;
        }
        append(result.kind === 'print' ? { kind: 'info', text: result.text } : { kind: 'error', text: result.text });
        setInfo(engine.info());
        return;
      }
      append({ kind: 'prompt', text });
      void runTurn(text);
    },
    [append, engine, quit, runTurn, prompts, writeOut],
  );

  // A queued message goes as soon as the turn before it has ended (or the engine has started).
  useEffect(() => {
    if (busy || starting || queuedRef.current.length === 0) return;
    const [next, ...rest] = queuedRef.current;
    setQueued(rest);
    submit(next!);
  }, [busy, starting, submit, queued]);

  /** A key for the input line (typed with no dialog open, or refused by a dialog as typing). */
  const editDraft = (input: string, key: Key, paste = false): void => {
    if (paste) return setDraft(draftPaste(draftRef.current, input));
    // Enter and the next key can reach us in one read (a fast typist, a busy machine): "\rnext" is Enter, then
    // "next" — not a paste whose line break becomes a space and joins two messages.
    if (input.length > 1 && (input[0] === '\r' || input[0] === '\n')) {
      editDraft('', { ...key, return: true });
      return editDraft(input.slice(1), key);
    }
    const result = draftKey(draftRef.current, input, key, history);
    if (result.kind === 'ignored') return;
    setDraft(result.state);
    if (result.kind !== 'submit') return;
    if (abortRef.current || startingRef.current || queuedRef.current.length > 0) setQueued([...queuedRef.current, result.text]);
    else submit(result.text);
  };

  const ctrlC = () => {
    // With something typed, Ctrl+C clears it; during a turn it interrupts; otherwise a second press quits.
    if (draftRef.current.edit.value !== '' || queuedRef.current.length > 0) {
      setDraft(EMPTY_DRAFT);
      setQueued([]);
      quitArmedAt.current = 0;
      return say('cleared · Ctrl+C again on an empty line to quit', 1500);
    }
    if (abortRef.current) {
      abortRef.current.abort(new Interruption('you interrupted the turn (Ctrl+C)'));
      return;
    }
    const now = Date.now();
    if (quitArmedAt.current !== 0 && now - quitArmedAt.current <= QUIT_WINDOW_MS) return quit();
    quitArmedAt.current = now;
    say('press Ctrl+C again to quit');
  };

  // Keys for the whole App. With a dialog open only Ctrl+C is the App's (the dialog takes the rest, and hands back
  // keys that were typing rather than answers: onStrayKey). Otherwise keys edit the input line — also during a
  // turn, as type-ahead.
  useKeys((input, key, _together, paste) => {
    if (key.ctrl && input === 'c' && !paste) {
      rhythm.typed();
      return ctrlC();
    }
    if (active) return;
    rhythm.typed();
    quitArmedAt.current = 0;
    if (paste) return editDraft(input, key, true);
    if (key.ctrl && input === 'd') {
      if (draftRef.current.edit.value === '' && queuedRef.current.length === 0) quit();
      return;
    }
    if (key.escape && !draftRef.current.search) {
      // Esc clears what was typed ahead; with nothing typed it interrupts the turn.
      if (draftRef.current.edit.value !== '' || queuedRef.current.length > 0) {
        setDraft(EMPTY_DRAFT);
        setQueued([]);
      } else abortRef.current?.abort();
      return;
    }
    // Ctrl+L: clear the screen and draw the live part again at the top (the transcript stays in the scrollback).
    if (key.ctrl && input === 'l') return writeOut(CLEAR_SCREEN);
    editDraft(input, key);
  });

  const onStrayKey = (input: string, key: Key, paste = false) => {
    if (key.escape || key.ctrl) return;
    editDraft(input, key, paste);
  };

  return (
    <Box flexDirection="column">
      <Transcript entries={entries} />
      {partial ? <Text>{shownLine(partial)}</Text> : null}
      {active ? (
        active.verb === 'approval' ? (
          <ApprovalDialog
            key={active.id}
            request={active}
            onAnswer={(r) => answer(active, r)}
            rhythm={rhythm}
            onStrayKey={onStrayKey}
            persistDays={engine.persistDays}
          />
        ) : (
          <InquiryDialog key={active.id} request={active} onAnswer={(r) => answer(active, r)} rhythm={rhythm} onStrayKey={onStrayKey} />
        )
      ) : busy ? (
        <LiveActivity activity={activity} />
      ) : null}
      <PromptInput state={draft} busy={busy} starting={starting} dialogOpen={active !== undefined} queued={queued} history={history} />
      {notice ? <Text color="yellow">{notice}</Text> : null}
      <StatusLine info={info} dialogOpen={active !== undefined} waiting={dialogs.waiting} />
    </Box>
  );
}
