// Ink hands a component one event per read from the terminal, and a read is not a key: a fast typist, a paste or a
// machine that was busy for a moment delivers "\x03/quit\r" or "ab\x7fc" as one string, with its control keys
// buried in the text (Ink splits out escape sequences only). Taken whole, Ctrl+C in such a chunk would be typed into
// the input line instead of interrupting. useKeys splits a chunk at its control characters, so each control key is
// its own event, and tells the handler which events arrived together with an earlier one: those were typed with it,
// so a dialog must never take them as answers, whatever their order.
import { useInput, type Key } from 'ink';

/** Control characters that are keys of their own. Line breaks stay in the text: in a paste they are not Enter. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/;
const CONTROL_ALL = /([\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f])/;

export type KeyHandler = (input: string, key: Key, together: boolean) => void;

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

/** useInput, one event per key: control keys inside a chunk come out as their own events, in order. */
export function useKeys(handler: KeyHandler, options?: { isActive?: boolean }): void {
  useInput((input, key) => {
    const pieces = splitChunk(input);
    if (pieces.length === 1) return handler(input, key, false);
    pieces.forEach((piece, i) => {
      const k = keyOf(piece, key);
      handler(k.input, k.key, i > 0);
    });
  }, options);
}
