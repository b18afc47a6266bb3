// The line under the transcript while a turn runs: a spinner saying what is happening — thinking, running `cmd`
// (its last lines of output in a box as they come), or waiting for an answer in the queue — with the time it has
// taken. It redraws on its own tick from TurnActivity, never once per chunk of output.
import { Box, Text } from 'ink';
import React, { useEffect, useState } from 'react';
import { visible } from '../src/core/visible.js';
import type { TurnActivity } from './activity.js';
import { columns as width, shortenMiddle } from './fit.js';
import { shownLine } from './Transcript.js';
import { useColumns } from './use-columns.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface LiveActivityProps {
  readonly activity: TurnActivity;
  /** @default 100 */
  readonly intervalMs?: number;
  /** @default Date.now */
  readonly now?: () => number;
}

export function LiveActivity({ activity, intervalMs = 100, now = Date.now }: LiveActivityProps): React.ReactElement {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => f + 1), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  const cols = useColumns();
  const view = activity.view();
  const seconds = Math.max(0, Math.floor((now() - view.since) / 1000));
  // A command shows its time from the first second: "it has run 0s" is news too.
  const time = view.kind === 'running' || seconds >= 2 ? ` · ${seconds}s` : '';
  const count = view.kind === 'running' && view.total > view.lines.length ? ` · ${view.total} lines` : '';
  // The line fits one row: what is shortened is the command (in the middle) or the queue message, never the time.
  const room = Math.max(12, cols - 1 - 2 - width(`${time}${count} · Esc interrupts`));
  const label =
    view.kind === 'thinking'
      ? 'thinking…'
      : view.kind === 'waiting'
        ? shortenMiddle(visible(view.text, { maxChars: 400 }), room)
        : `running \`${shortenMiddle(visible(view.command, { maxChars: 400 }), room - 10)}\``;
  return (
    <Box flexDirection="column">
      <Text>
        <Text color="cyan">{FRAMES[frame % FRAMES.length]}</Text> {label}
        <Text dimColor>
          {time}
          {count} · Esc interrupts
        </Text>
      </Text>
      {view.kind === 'running' && view.lines.length > 0 ? (
        <Box flexDirection="column" borderStyle="round" borderDimColor paddingX={1}>
          {view.lines.map((line, i) => (
            <Text key={i} dimColor wrap="truncate-end">
              {shownLine(line, 400)}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
