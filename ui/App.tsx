// The chat: the transcript above (printed once, in <Static>), then the live part — the reply line being streamed,
// a dialog or the spinner, the input line and the status line. The engine emits data; this renders it and answers
// dialogs by id (style-anchors §3). Keys go to exactly one place at a time: the open dialog, else the input line.
import { Box, Text, useApp, useInput } from 'ink';
import React, { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ApprovalDialog } from './ApprovalDialog.js';
import type { DialogRequest, DialogResult, DialogStore } from './dialog-store.js';
import type { ChatEngine } from './engine.js';
import { InquiryDialog } from './InquiryDialog.js';
import { PromptInput } from './PromptInput.js';
import { isSlash } from './slash.js';
import { Spinner } from './Spinner.js';
import { StatusLine } from './StatusLine.js';
import { shownLine, Transcript } from './Transcript.js';
import { entriesForEvent, ReplyLines, type Entry, type EntryBody } from './transcript.js';

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
   * A dialog that appears while someone is typing (or right after they answered the previous one) ignores keys for
   * this long, so a keystroke meant for the input line or the last dialog cannot answer it. @default 400
   */
  readonly graceMs?: number;
  /** Called when the person quits (after Ink unmounts). */
  readonly onQuit?: () => void;
}

export function App({ engine, store, feed, bell, initial = [], graceMs = 400, onQuit }: AppProps): React.ReactElement {
  const { exit } = useApp();
  const nextId = useRef(0);
  const [entries, setEntries] = useState<Entry[]>(() => initial.map((e) => ({ ...e, id: nextId.current++ })));
  const [partial, setPartial] = useState('');
  const [busy, setBusy] = useState(false);
  const [history, setHistory] = useState<string[]>([]);
  const [info, setInfo] = useState(() => engine.info());
  const abortRef = useRef<AbortController | undefined>(undefined);
  const lastKeyAt = useRef(0);
  const graceRef = useRef<{ id: string | undefined; until: number }>({ id: undefined, until: 0 });
  const dialogs = useSyncExternalStore(store.subscribe, store.snapshot);
  const active = dialogs.active;

  const append = useCallback((...bodies: EntryBody[]) => {
    if (bodies.length === 0) return;
    setEntries((prev) => [...prev, ...bodies.map((b) => ({ ...b, id: nextId.current++ }) as Entry)]);
  }, []);

  useEffect(() => feed?.subscribe((entry) => append(entry)), [feed, append]);

  // A new dialog on screen: ring, and decide whether keys are held back for a moment (see graceMs).
  if (active && graceRef.current.id !== active.id) {
    const now = Date.now();
    graceRef.current = { id: active.id, until: now - lastKeyAt.current < graceMs ? now + graceMs : 0 };
  }
  const activeId = active?.id;
  useEffect(() => {
    if (activeId === undefined) return;
    (bell ?? (() => process.stdout.write('\x07')))();
  }, [activeId, bell]);

  const quit = useCallback(() => {
    abortRef.current?.abort();
    exit();
    onQuit?.();
  }, [exit, onQuit]);

  const answer = useCallback(
    (request: DialogRequest, result: DialogResult) => {
      lastKeyAt.current = Date.now();
      store.settle(request.id, result);
    },
    [store],
  );

  const runTurn = useCallback(
    async (prompt: string) => {
      const controller = new AbortController();
      abortRef.current = controller;
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
            append(...lines.push(delta).map((text) => ({ kind: 'reply' as const, text })));
            setPartial(lines.pending);
          },
          onEvent: (event) => {
            flushReply();
            append(...entriesForEvent(event));
          },
          onProgress: (message) => append({ kind: 'info', text: message }),
        });
        flushReply();
        if (!streamed && result.text) append(...result.text.split('\n').map((text) => ({ kind: 'reply' as const, text })));
      } catch (err) {
        flushReply();
        if (controller.signal.aborted) append({ kind: 'info', text: 'interrupted' });
        else append({ kind: 'error', text: err instanceof Error ? err.message : String(err) });
      } finally {
        if (abortRef.current === controller) abortRef.current = undefined;
        setBusy(false);
      }
    },
    [engine, append],
  );

  const submit = useCallback(
    (text: string) => {
      setHistory((h) => (h[h.length - 1] === text ? h : [...h, text]));
      if (isSlash(text)) {
        append({ kind: 'prompt', text });
        let result: ReturnType<ChatEngine['slash']>;
        try {
          result = engine.slash(text);
        } catch (err) {
          result = { kind: 'error', text: err instanceof Error ? err.message : String(err) };
        }
        if (result.kind === 'quit') return quit();
        append(result.kind === 'print' ? { kind: 'info', text: result.text } : { kind: 'error', text: result.text });
        setInfo(engine.info());
        return;
      }
      append({ kind: 'prompt', text });
      void runTurn(text);
    },
    [append, engine, quit, runTurn],
  );

  // Keys for the whole App: Ctrl+C interrupts a turn (which withdraws its dialog) or, when idle, quits; Esc
  // interrupts a turn when no dialog is open (in a dialog, Esc means no).
  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      if (abortRef.current) abortRef.current.abort();
      else quit();
      return;
    }
    if (key.escape && !active && abortRef.current) abortRef.current.abort();
    // Typing with no dialog open — into the input line, or ahead while the model thinks — makes the next dialog
    // hold keys back for a moment. Enter (alone, or ending a pasted line) sends the prompt and ends the typing.
    if (!active) lastKeyAt.current = key.return || /[\r\n]$/.test(input) ? 0 : Date.now();
  });

  const holdUntil = graceRef.current.id === active?.id ? graceRef.current.until : 0;
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
            ignoreKeysUntil={holdUntil}
            persistDays={engine.persistDays}
          />
        ) : (
          <InquiryDialog key={active.id} request={active} onAnswer={(r) => answer(active, r)} ignoreKeysUntil={holdUntil} />
        )
      ) : busy ? (
        <Spinner label="thinking…" />
      ) : null}
      <PromptInput
        history={history}
        onSubmit={submit}
        onEnd={quit}
        isActive={!busy && !active}
      />
      <StatusLine info={info} dialogOpen={active !== undefined} waiting={dialogs.waiting} />
    </Box>
  );
}
