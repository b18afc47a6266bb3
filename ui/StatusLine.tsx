// The status line under the input: model, channel, sandbox, and how many dialogs are open or waiting.
import { Box, Text } from 'ink';
import React from 'react';
import { visible } from '../src/display/visible.js';

export interface StatusInfo {
  readonly model: string;
  readonly channel: string;
  /** `bwrap`, `sandbox-exec`, `off`, or why none works. */
  readonly sandbox: string;
  readonly sandboxOk: boolean;
}

export interface StatusLineProps {
  readonly info: StatusInfo;
  /** A dialog is on screen. */
  readonly dialogOpen: boolean;
  /** Dialogs queued behind the one on screen. */
  readonly waiting: number;
  /** Note for the right-hand side (e.g. "Esc interrupts"). */
  readonly hint?: string;
}

export function StatusLine({ info, dialogOpen, waiting, hint }: StatusLineProps): React.ReactElement {
  const pending = (dialogOpen ? 1 : 0) + waiting;
  return (
    <Box>
      <Text dimColor>
        {visible(info.model, { maxChars: 60 })} · {info.channel} ·{' '}
      </Text>
      <Text color={info.sandboxOk ? undefined : 'red'} dimColor={info.sandboxOk}>
        sandbox {visible(info.sandbox, { maxChars: 60 })}
      </Text>
      <Text dimColor> · </Text>
      {pending === 0 ? (
        <Text dimColor>no requests pending</Text>
      ) : (
        <Text color="yellow">
          {pending} pending{waiting > 0 ? ` (+${waiting} waiting)` : ''}
        </Text>
      )}
      {hint ? <Text dimColor> · {hint}</Text> : null}
    </Box>
  );
}
