// Text that is not wisp's (a model's question, a whole command) in a block of bounded height: every row starts with
// a gutter mark, so nothing inside can pass for the dialog around it, and however many lines it has, the dialog's
// title and wisp's own words stay on screen. The text must already be made visible (visible()). The caller owns the
// scroll offset; the block says what is above and below in wisp's words.
import { Box, Text } from 'ink';
import React from 'react';
import { wrapRows } from './command-view.js';

export interface ScrollBlockProps {
  readonly label: string;
  /** Already made visible. */
  readonly text: string;
  /** Columns for the text (the gutter is extra). */
  readonly width: number;
  /** Most rows shown at once. */
  readonly height: number;
  /** First row shown. */
  readonly offset: number;
  /** The keys that scroll, for the hint. */
  readonly scrollKeys: string;
  readonly color?: string;
}

/** Rows of `text` at `width`, for callers that need the count (to clamp the offset, to know the end was seen). */
export function blockRows(text: string, width: number): string[] {
  return wrapRows(text, width);
}

export function ScrollBlock({ label, text, width, height, offset, scrollKeys, color = 'cyan' }: ScrollBlockProps): React.ReactElement {
  const rows = blockRows(text, width);
  const top = Math.max(0, Math.min(offset, Math.max(0, rows.length - height)));
  const shown = rows.slice(top, top + height);
  const below = rows.length - top - shown.length;
  return (
    <Box flexDirection="column">
      <Text dimColor>{label}</Text>
      {top > 0 ? <Text dimColor>  ↑ {top} more rows above ({scrollKeys})</Text> : null}
      {shown.map((row, i) => (
        <Text key={i}>
          <Text dimColor>{'  │ '}</Text>
          <Text color={color}>{row}</Text>
        </Text>
      ))}
      {below > 0 ? <Text dimColor>  ↓ {below} more rows below ({scrollKeys})</Text> : null}
    </Box>
  );
}
