// Editable text with a block cursor: one line, or — for a draft of several lines (Alt+Enter, `\` + Enter, a
// paste) — at most MAX_ROWS rows around the cursor, each later row indented under the first. Drawn through
// visible(), so a pasted escape sequence shows as `\x1b[…` instead of moving the terminal's cursor; the editing
// itself is in text-edit.ts and draft.ts.
import { Box, Text } from 'ink';
import React from 'react';
import { visible } from '../src/core/visible.js';
import type { EditState } from './text-edit.js';

export interface TextFieldProps {
  readonly state: EditState;
  /** Draw the cursor. @default true */
  readonly focused?: boolean;
  /** Shown dim when the value is empty. */
  readonly placeholder?: string;
  /** Draw the text dim (type-ahead while a turn runs). */
  readonly dim?: boolean;
}

const MAX_SHOWN = 4000;
/** Most rows of a draft of several lines drawn at once (the rest is counted). */
export const MAX_ROWS = 8;

export function TextField({ state, focused = true, placeholder, dim = false }: TextFieldProps): React.ReactElement {
  const { value, cursor } = state;
  if (value === '' && placeholder !== undefined) {
    return (
      <Text>
        {focused ? <Text inverse> </Text> : null}
        <Text dimColor>{placeholder}</Text>
      </Text>
    );
  }
  if (value.includes('\n')) return <Rows state={state} focused={focused} dim={dim} />;
  return <Line value={value} cursor={focused ? cursor : undefined} dim={dim} />;
}

function Line({ value, cursor, dim }: { readonly value: string; readonly cursor: number | undefined; readonly dim: boolean }): React.ReactElement {
  if (cursor === undefined) return <Text dimColor={dim}>{visible(value, { maxChars: MAX_SHOWN })}</Text>;
  const at = value.codePointAt(cursor);
  const width = at !== undefined && at > 0xffff ? 2 : 1;
  const before = visible(value.slice(0, cursor), { maxChars: MAX_SHOWN });
  const under = cursor < value.length ? visible(value.slice(cursor, cursor + width)) : ' ';
  const after = visible(value.slice(cursor + width), { maxChars: MAX_SHOWN });
  return (
    <Text dimColor={dim}>
      {before}
      <Text inverse>{under}</Text>
      {after}
    </Text>
  );
}

function Rows({ state, focused, dim }: { readonly state: EditState; readonly focused: boolean; readonly dim: boolean }): React.ReactElement {
  const lines = state.value.split('\n');
  let start = 0;
  let row = 0;
  for (let i = 0; i < lines.length; i++) {
    if (state.cursor <= start + lines[i]!.length) {
      row = i;
      break;
    }
    start += lines[i]!.length + 1;
  }
  const top = Math.max(0, Math.min(row - Math.floor(MAX_ROWS / 2), lines.length - MAX_ROWS));
  const shown = lines.slice(top, top + MAX_ROWS);
  const below = lines.length - top - shown.length;
  return (
    <Box flexDirection="column">
      {top > 0 ? <Text dimColor>… {top} more lines above</Text> : null}
      {shown.map((line, i) => (
        <Line key={top + i} value={line} cursor={focused && top + i === row ? state.cursor - start : undefined} dim={dim} />
      ))}
      {below > 0 ? <Text dimColor>… {below} more lines below</Text> : null}
    </Box>
  );
}
