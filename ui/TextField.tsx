// One line of editable text with a block cursor. Drawn through visible(), so a pasted escape sequence shows as
// `\x1b[…` instead of moving the terminal's cursor; the editing itself is in text-edit.ts.
import { Text } from 'ink';
import React from 'react';
import { visible } from '../src/display/visible.js';
import type { EditState } from './text-edit.js';

export interface TextFieldProps {
  readonly state: EditState;
  /** Draw the cursor. @default true */
  readonly focused?: boolean;
  /** Shown dim when the value is empty. */
  readonly placeholder?: string;
}

const MAX_SHOWN = 4000;

export function TextField({ state, focused = true, placeholder }: TextFieldProps): React.ReactElement {
  const { value, cursor } = state;
  if (value === '' && placeholder !== undefined) {
    return (
      <Text>
        {focused ? <Text inverse> </Text> : null}
        <Text dimColor>{placeholder}</Text>
      </Text>
    );
  }
  const at = value.codePointAt(cursor);
  const width = at !== undefined && at > 0xffff ? 2 : 1;
  const before = visible(value.slice(0, cursor), { maxChars: MAX_SHOWN });
  const under = cursor < value.length ? visible(value.slice(cursor, cursor + width)) : ' ';
  const after = visible(value.slice(cursor + width), { maxChars: MAX_SHOWN });
  if (!focused) return <Text>{visible(value, { maxChars: MAX_SHOWN })}</Text>;
  return (
    <Text>
      {before}
      <Text inverse>{under}</Text>
      {after}
    </Text>
  );
}
