// A labelled block of untrusted text (design.md §10): the label in wisp's words, the text made visible and set
// apart, so nothing a model wrote can pass for part of the dialog around it.
import { Box, Text } from 'ink';
import React from 'react';
import { visible } from '../src/core/visible.js';

export function Labelled({
  label,
  text,
  maxChars = 1000,
  multiline = false,
  color = 'cyan',
}: {
  readonly label: string;
  readonly text: string;
  readonly maxChars?: number;
  readonly multiline?: boolean;
  readonly color?: string;
}): React.ReactElement {
  return (
    <Box flexDirection="column">
      <Text dimColor>{label}</Text>
      <Box paddingLeft={2}>
        <Text color={color}>{visible(text, { maxChars, multiline })}</Text>
      </Box>
    </Box>
  );
}
