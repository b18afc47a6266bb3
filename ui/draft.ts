// The input line's state as plain data: the text being edited and where the person is in the history of earlier
// prompts. Pure, so the App can apply keys from anywhere (its own handler, or keys a dialog refused because they
// were typed, not answered) and tests can call it directly.
import type { Key } from 'ink';
import { applyKey, EMPTY, type EditState } from './text-edit.js';

export interface DraftState {
  readonly edit: EditState;
  /** Position in the history while browsing it; history.length means the draft itself. */
  readonly index: number;
  /** The unfinished draft, kept while browsing the history. */
  readonly saved: string;
}

export const EMPTY_DRAFT: DraftState = { edit: EMPTY, index: Number.MAX_SAFE_INTEGER, saved: '' };

export type DraftResult =
  | { readonly kind: 'edit'; readonly state: DraftState }
  | { readonly kind: 'submit'; readonly state: DraftState; readonly text: string }
  | { readonly kind: 'ignored' };

/** Applies one key to the input line. ↑/↓ walk `history` (oldest first); Enter submits a non-blank line. */
export function draftKey(cur: DraftState, input: string, key: Key, history: readonly string[]): DraftResult {
  const index = Math.min(cur.index, history.length);
  if (key.upArrow || key.downArrow) {
    const next = key.upArrow ? Math.max(0, index - 1) : Math.min(history.length, index + 1);
    if (next === index) return { kind: 'ignored' };
    const saved = index === history.length ? cur.edit.value : cur.saved;
    const value = next === history.length ? saved : history[next]!;
    return { kind: 'edit', state: { edit: { value, cursor: value.length }, index: next, saved } };
  }
  const result = applyKey(cur.edit, input, key);
  if (result.kind === 'ignored') return result;
  if (result.kind === 'edit') return { kind: 'edit', state: { ...cur, edit: result.state } };
  const text = result.state.value;
  if (text.trim() === '') return { kind: 'edit', state: { ...cur, edit: EMPTY } };
  return { kind: 'submit', state: EMPTY_DRAFT, text };
}
