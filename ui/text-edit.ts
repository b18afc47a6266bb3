// Editing one line of text from Ink key events: pure, so the prompt and the inquiry fields share it and tests
// call it directly. A chunk of several characters is a paste (or keys that arrived together): its line breaks
// become spaces, and a break at its very end is Enter.
import type { Key } from 'ink';

export interface EditState {
  readonly value: string;
  /** Index into `value` (UTF-16 units, kept on code-point boundaries). */
  readonly cursor: number;
}

export type EditResult =
  | { readonly kind: 'edit'; readonly state: EditState }
  | { readonly kind: 'submit'; readonly state: EditState }
  | { readonly kind: 'ignored' };

export const EMPTY: EditState = { value: '', cursor: 0 };

/** Applies one key event. Arrows up/down, Esc, Tab and Ctrl keys other than the editing ones are left to the caller. */
export function applyKey(state: EditState, input: string, key: Key): EditResult {
  const { value, cursor } = state;
  if (key.return) return { kind: 'submit', state };
  if (key.backspace || key.delete) {
    if (cursor === 0) return { kind: 'ignored' };
    const from = prevBoundary(value, cursor);
    return edit(value.slice(0, from) + value.slice(cursor), from);
  }
  if (key.leftArrow) return edit(value, prevBoundary(value, cursor));
  if (key.rightArrow) return edit(value, nextBoundary(value, cursor));
  if (key.home || (key.ctrl && input === 'a')) return edit(value, 0);
  if (key.end || (key.ctrl && input === 'e')) return edit(value, value.length);
  if (key.ctrl && input === 'u') return edit(value.slice(cursor), 0);
  if (key.ctrl && input === 'k') return edit(value.slice(0, cursor), cursor);
  if (key.ctrl && input === 'w') {
    const from = value.slice(0, cursor).replace(/\S+\s*$/, '').length;
    return edit(value.slice(0, from) + value.slice(cursor), from);
  }
  if (key.ctrl || key.meta || key.escape || key.tab || key.upArrow || key.downArrow || key.pageUp || key.pageDown) {
    return { kind: 'ignored' };
  }
  if (input === '') return { kind: 'ignored' };
  const submit = input.length > 1 && /[\r\n]$/.test(input);
  const text = input.replace(/[\r\n]+$/, '').replace(/\r\n|\r|\n/g, ' ');
  const next = { value: value.slice(0, cursor) + text + value.slice(cursor), cursor: cursor + text.length };
  return submit ? { kind: 'submit', state: next } : { kind: 'edit', state: next };
}

function edit(value: string, cursor: number): EditResult {
  return { kind: 'edit', state: { value, cursor } };
}

function prevBoundary(s: string, i: number): number {
  if (i <= 0) return 0;
  const lo = s.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
    const hi = s.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return i - 2;
  }
  return i - 1;
}

function nextBoundary(s: string, i: number): number {
  if (i >= s.length) return s.length;
  const hi = s.charCodeAt(i);
  if (hi >= 0xd800 && hi <= 0xdbff && i + 1 < s.length) {
    const lo = s.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) return i + 2;
  }
  return i + 1;
}
