// Ink hands a component one event per read from the terminal, and a read is not a key: a fast typist, a paste or a
// machine that was busy for a moment delivers "\x03/quit\r" or "ab\x7fc" as one string, with its control keys
// buried in the text (Ink splits out escape sequences only). Taken whole, Ctrl+C in such a chunk would be typed into
// the input line instead of interrupting. useKeys splits a chunk at its control characters, so each control key is
// its own event, and tells the handler which events arrived together with an earlier one: those were typed with it,
// so a dialog must never take them as answers, whatever their order.
//
// Bracketed paste (the chat turns it on: ESC[?2004h): the terminal wraps pasted text in ESC[200~ … ESC[201~. What
// comes between the markers is delivered once, whole, as a paste — line breaks, control characters and escape
// sequences included, as text — never as keys: a pasted "\x03" does not interrupt and a pasted "y" answers nothing.
import { useInput, useStdin, type Key } from 'ink';
import { useEffect, useRef } from 'react';

/** Control characters that are keys of their own. Line breaks stay in the text: in a paste they are not Enter. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/;
const CONTROL_ALL = /([\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f])/;

export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
/** Turns bracketed paste on / off in the terminal. */
export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';
/** A paste whose end marker never comes (a terminal that lost it) is delivered after this long without input. */
export const PASTE_IDLE_MS = 1000;
/** Most characters of one paste; the rest is dropped and the paste says so (a pasted file has no place here). */
export const PASTE_MAX_CHARS = 100_000;

/**
 * `together`: the event arrived in one read with an earlier one (so it was typed, not answered). `paste`: the event
 * is the whole text of a bracketed paste (`together` is then true as well).
 */
export type KeyHandler = (input: string, key: Key, together: boolean, paste: boolean) => void;

/** The pieces of one read: runs of text, and each control character alone. Escape sequences are never split. */
export function splitChunk(input: string): string[] {
  if (input.length <= 1 || input.startsWith('\x1b') || !CONTROL.test(input)) return [input];
  return input.split(CONTROL_ALL).filter((p) => p !== '');
}

/** The key event Ink would have given for `piece` read alone; `base` is the chunk's own (plain text) key. */
export function keyOf(piece: string, base: Key): { input: string; key: Key } {
  const plain: Key = { ...base, ctrl: false, shift: false, backspace: false, delete: false, return: false, tab: false };
  if (piece.length !== 1 || !CONTROL.test(piece)) {
    return { input: piece, key: { ...plain, shift: piece.length === 1 && /[A-Z]/.test(piece) } };
  }
  const code = piece.charCodeAt(0);
  if (piece === '\b') return { input: '', key: { ...plain, backspace: true } };
  if (piece === '\x7f') return { input: '', key: { ...plain, delete: true } };
  // Ctrl+A … Ctrl+Z arrive as 1 … 26, named by their letter as Ink names them.
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ...plain, ctrl: true } };
  return { input: '', key: { ...plain, ctrl: true } };
}

/** The key a paste is delivered with: no modifier, no named key. */
export const PASTE_KEY: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false,
  end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false,
  meta: false, super: false, hyper: false, capsLock: false, numLock: false,
};

/** Collects the raw events of a bracketed paste. Pure state, so tests can drive it without a terminal. */
export class PasteCollector {
  private text: string | undefined;
  private dropped = 0;

  get active(): boolean {
    return this.text !== undefined;
  }

  /**
   * Takes one raw event. 'start' and 'part' are swallowed; 'end' carries the pasted text; 'key' is an ordinary key.
   */
  take(raw: string): { kind: 'start' | 'part' | 'key' } | { kind: 'end'; text: string } {
    if (raw === PASTE_START) {
      // A second start inside a paste: the first never ended; its text is kept and the new one appended.
      if (this.text === undefined) this.text = '';
      return { kind: 'start' };
    }
    if (raw === PASTE_END) {
      if (this.text === undefined) return { kind: 'part' }; // a stray end marker is no key
      return { kind: 'end', text: this.finish() };
    }
    if (this.text === undefined) return { kind: 'key' };
    const room = PASTE_MAX_CHARS - this.text.length;
    this.text += raw.slice(0, Math.max(0, room));
    this.dropped += Math.max(0, raw.length - Math.max(0, room));
    return { kind: 'part' };
  }

  /** Ends the paste now (its end marker did not come). */
  finish(): string {
    const text = (this.text ?? '') + (this.dropped > 0 ? ` … [paste cut: ${this.dropped} more characters]` : '');
    this.text = undefined;
    this.dropped = 0;
    return text;
  }
}

/**
 * useInput, one event per key: control keys inside a chunk come out as their own events, in order, and a bracketed
 * paste comes out as one event with `paste` set.
 */
export function useKeys(handler: KeyHandler, options?: { isActive?: boolean }): void {
  const { internal_eventEmitter: emitter } = useStdin();
  // The raw event Ink is about to hand to useInput: Ink's own parsing drops the ESC of the paste markers (so a
  // marker and typed "[200~" look alike), so the raw string is taken first, from the same event.
  const raw = useRef<string | undefined>(undefined);
  const paste = useRef(new PasteCollector());
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const handlerRef = useRef(handler);
  handlerRef.current = handler;
  const active = options?.isActive !== false;

  useEffect(() => {
    if (!active || !emitter) return;
    const onRaw = (data: string) => {
      raw.current = data;
    };
    // Prepended: it must see each event before useInput's listener does, whenever either was registered.
    emitter.prependListener('input', onRaw);
    return () => {
      emitter.removeListener('input', onRaw);
    };
  }, [emitter, active]);
  useEffect(() => () => clearTimeout(idle.current), []);

  useInput((input, key) => {
    const data = raw.current ?? input;
    raw.current = undefined;
    const step = paste.current.take(data);
    clearTimeout(idle.current);
    if (step.kind === 'end') return handlerRef.current(step.text, PASTE_KEY, true, true);
    if (step.kind !== 'key') {
      if (paste.current.active) {
        idle.current = setTimeout(() => {
          if (paste.current.active) handlerRef.current(paste.current.finish(), PASTE_KEY, true, true);
        }, PASTE_IDLE_MS);
      }
      return;
    }
    const pieces = splitChunk(input);
    if (pieces.length === 1) return handler(input, key, false, false);
    pieces.forEach((piece, i) => {
      const k = keyOf(piece, key);
      handler(k.input, k.key, i > 0, false);
    });
  }, options);
}
