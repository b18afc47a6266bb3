// The input line's state as plain data: the text being edited (one line or several), where the person is in the
// history of earlier prompts, and a reverse history search (Ctrl+R) when one is open. Pure, so the App can apply
// keys from anywhere (its own handler, or keys a dialog refused because they were typed, not answered) and tests
// can call it directly.
import type { Key } from 'ink';
import { applyKey, EMPTY, type EditState } from './text-edit.js';

/** Ctrl+R: the text searched for, and the history entry it found (undefined: none). */
export interface HistorySearch {
  readonly query: string;
  readonly hit: number | undefined;
  /** The line as it was when the search began, back on Esc. */
  readonly before: EditState;
}

export interface DraftState {
  readonly edit: EditState;
  /** Position in the history while browsing it; history.length means the draft itself. */
  readonly index: number;
  /** The unfinished draft, kept while browsing the history. */
  readonly saved: string;
  readonly search?: HistorySearch;
}

export const EMPTY_DRAFT: DraftState = { edit: EMPTY, index: Number.MAX_SAFE_INTEGER, saved: '' };

export type DraftResult =
  | { readonly kind: 'edit'; readonly state: DraftState }
  | { readonly kind: 'submit'; readonly state: DraftState; readonly text: string }
  | { readonly kind: 'ignored' };

/** Line breaks of pasted text, as the draft keeps them. */
export function pastedText(text: string): string {
  return text.replace(/\r\n|\r/g, '\n');
}

/** Inserts pasted text at the cursor, line breaks kept: a paste is never Enter, whatever it ends with. */
export function draftPaste(cur: DraftState, text: string): DraftState {
  const base = cur.search ? { ...cur, search: undefined } : cur;
  const t = pastedText(text);
  const { value, cursor } = base.edit;
  const { search: _gone, ...rest } = base;
  return { ...rest, edit: { value: value.slice(0, cursor) + t + value.slice(cursor), cursor: cursor + t.length } };
}

/** The newest history entry at or before `from` that holds `query` (case-insensitive). */
export function searchHistory(history: readonly string[], query: string, from: number): number | undefined {
  const q = query.toLowerCase();
  for (let i = Math.min(from, history.length - 1); i >= 0; i--) if (history[i]!.toLowerCase().includes(q)) return i;
  return undefined;
}

/** The cursor one line up or down in a draft of several lines, or undefined at the first / last line. */
function lineMove(edit: EditState, dir: -1 | 1): number | undefined {
  const { value, cursor } = edit;
  const start = value.lastIndexOf('\n', cursor - 1) + 1;
  const column = cursor - start;
  if (dir < 0) {
    if (start === 0) return undefined;
    const prevStart = value.lastIndexOf('\n', start - 2) + 1;
    return Math.min(prevStart + column, start - 1);
  }
  const end = value.indexOf('\n', cursor);
  if (end < 0) return undefined;
  const nextEnd = value.indexOf('\n', end + 1);
  return Math.min(end + 1 + column, nextEnd < 0 ? value.length : nextEnd);
}

function searchKey(cur: DraftState, s: HistorySearch, input: string, key: Key, history: readonly string[]): DraftResult {
  const { search: _gone, ...rest } = cur;
  const found = (query: string, from: number): DraftResult => ({
    kind: 'edit',
    state: { ...cur, search: { ...s, query, hit: query === '' ? undefined : searchHistory(history, query, from) } },
  });
  if (key.ctrl && input === 'r') {
    if (s.query === '' || s.hit === undefined) return { kind: 'ignored' };
    const older = searchHistory(history, s.query, s.hit - 1);
    return older === undefined ? { kind: 'ignored' } : { kind: 'edit', state: { ...cur, search: { ...s, hit: older } } };
  }
  if (key.escape || (key.ctrl && input === 'g')) return { kind: 'edit', state: { ...rest, edit: s.before } };
  if (key.backspace || key.delete) return found([...s.query].slice(0, -1).join(''), history.length - 1);
  if (!key.ctrl && !key.meta && !key.return && !key.tab && input !== '' && !/^[\r\n]+$/.test(input) && !isMove(key)) {
    return found(s.query + input.replace(/[\r\n]+/g, ' '), history.length - 1);
  }
  // Any other key takes the line found (or the line as it was) into the input line; Enter stops there, as a
  // check before sending, and the other keys (arrows, Ctrl+A…) then act on it.
  const taken = s.hit !== undefined ? history[s.hit]! : s.before.value;
  const state: DraftState = { ...rest, edit: { value: taken, cursor: taken.length }, index: history.length, saved: '' };
  if (key.return) return { kind: 'edit', state };
  const next = draftKey(state, input, key, history);
  return next.kind === 'ignored' ? { kind: 'edit', state } : next;
}

function isMove(key: Key): boolean {
  return key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.home || key.end || key.pageUp || key.pageDown;
}

/**
 * Applies one key to the input line. ↑/↓ move between the lines of a draft of several lines, and past its first or
 * last line walk `history` (oldest first). Enter submits a non-blank draft; Alt+Enter or Shift+Enter (in terminals
 * that report it), or Enter right after a `\`, begins a new line instead. Ctrl+R searches the history.
 */
export function draftKey(cur: DraftState, input: string, key: Key, history: readonly string[]): DraftResult {
  if (cur.search) return searchKey(cur, cur.search, input, key, history);
  if (key.ctrl && input === 'r') {
    return { kind: 'edit', state: { ...cur, search: { query: '', hit: undefined, before: cur.edit } } };
  }
  const index = Math.min(cur.index, history.length);
  if (key.upArrow || key.downArrow) {
    const within = lineMove(cur.edit, key.upArrow ? -1 : 1);
    if (within !== undefined) return { kind: 'edit', state: { ...cur, edit: { ...cur.edit, cursor: within } } };
    const next = key.upArrow ? Math.max(0, index - 1) : Math.min(history.length, index + 1);
    if (next === index) return { kind: 'ignored' };
    const saved = index === history.length ? cur.edit.value : cur.saved;
    const value = next === history.length ? saved : history[next]!;
    return { kind: 'edit', state: { edit: { value, cursor: value.length }, index: next, saved } };
  }
  if (key.return && input.length <= 1) {
    const { value, cursor } = cur.edit;
    if (key.meta || key.shift) return { kind: 'edit', state: draftPaste(cur, '\n') };
    if (cursor > 0 && value[cursor - 1] === '\\') {
      const edit = { value: value.slice(0, cursor - 1) + '\n' + value.slice(cursor), cursor };
      return { kind: 'edit', state: { ...cur, edit } };
    }
  }
  const result = applyKey(cur.edit, input, key);
  if (result.kind === 'ignored') return result;
  if (result.kind === 'edit') return { kind: 'edit', state: { ...cur, edit: result.state } };
  const text = result.state.value;
  if (text.trim() === '') return { kind: 'edit', state: { ...cur, edit: EMPTY } };
  return { kind: 'submit', state: EMPTY_DRAFT, text };
}
