// `wisp chat --resume`: the saved conversations, newest first, to pick one with ↑/↓ and Enter (Esc leaves). Each
// row: when it was last written, its directory, how many prompts, and its first prompt (made visible, cut).
import { Box, Text } from 'ink';
import React, { useRef, useState } from 'react';
import { visible } from '../src/core/visible.js';
import type { SavedSummary } from '../src/session/saved-chat.js';
import { useKeys } from './use-keys.js';

export interface SessionPickerProps {
  readonly chats: readonly SavedSummary[];
  /** Files left out because they failed their checks. */
  readonly unreadable: number;
  readonly onPick: (chat: SavedSummary | undefined) => void;
  /** Rows shown at once. @default 10 */
  readonly height?: number;
}

function when(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

export function SessionPicker({ chats, unreadable, onPick, height = 10 }: SessionPickerProps): React.ReactElement {
  const [focus, setFocusState] = useState(0);
  const focusRef = useRef(0);
  const done = useRef(false);
  const setFocus = (n: number) => {
    focusRef.current = Math.max(0, Math.min(chats.length - 1, n));
    setFocusState(focusRef.current);
  };
  const pick = (chat: SavedSummary | undefined) => {
    if (done.current) return;
    done.current = true;
    onPick(chat);
  };
  useKeys((input, key, together, paste) => {
    if (paste) return;
    if (key.escape || (key.ctrl && (input === 'c' || input === 'd')) || input === 'q') return pick(undefined);
    if (key.upArrow) return setFocus(focusRef.current - 1);
    if (key.downArrow) return setFocus(focusRef.current + 1);
    if (key.pageUp) return setFocus(focusRef.current - height);
    if (key.pageDown) return setFocus(focusRef.current + height);
    // Enter read together with other keys is typing, not a choice.
    if (key.return && !together && input.length <= 1) return pick(chats[focusRef.current]);
  });
  const top = Math.max(0, Math.min(focus - Math.floor(height / 2), chats.length - height));
  const shown = chats.slice(top, top + height);
  return (
    <Box flexDirection="column">
      <Text bold>Resume a conversation (newest first):</Text>
      {top > 0 ? <Text dimColor>  ↑ {top} more</Text> : null}
      {shown.map((c, i) => {
        const at = top + i;
        const on = at === focus;
        return (
          <Text key={c.file} {...(on ? { color: 'cyan' } : {})}>
            {on ? '▸ ' : '  '}
            {when(c.modifiedAt)} · {visible(c.header.directory, { maxChars: 50 })} · {c.prompts} prompt{c.prompts === 1 ? '' : 's'} ·{' '}
            {visible(c.title, { maxChars: 60 })}
          </Text>
        );
      })}
      {top + shown.length < chats.length ? <Text dimColor>  ↓ {chats.length - top - shown.length} more</Text> : null}
      {unreadable > 0 ? (
        <Text color="yellow">
          {unreadable} saved file{unreadable === 1 ? '' : 's'} left out: {unreadable === 1 ? 'it fails' : 'they fail'} the checks (wisp chat --resume ID names the problem)
        </Text>
      ) : null}
      <Text dimColor>↑/↓ choose · Enter resume · Esc leave</Text>
    </Box>
  );
}
