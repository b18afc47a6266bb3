// The status line under the input: model, channel, sandbox, and how many dialogs are open or waiting. Fitted to the
// terminal's width (ui/fit.ts): long parts shortened (a model spec in the middle), and when that is not enough,
// broken into rows between parts — never cut mid-word by the terminal.
import { Box, Text } from 'ink';
import React from 'react';
import { visible } from '../src/core/visible.js';
import type { StatusInfo } from './engine.js';
import { layoutParts, SEPARATOR, type Part } from './fit.js';
import { useColumns } from './use-columns.js';

export type { StatusInfo };

export interface StatusLineProps {
  readonly info: StatusInfo;
  /** A dialog is on screen. */
  readonly dialogOpen: boolean;
  /** Dialogs queued behind the one on screen. */
  readonly waiting: number;
  /** Note for the right-hand side (e.g. "Esc interrupts"). */
  readonly hint?: string;
  /** The width to fit. @default the terminal's */
  readonly columns?: number;
}

/** The parts of the status line, in order. */
export function statusParts(info: StatusInfo, dialogOpen: boolean, waiting: number, hint?: string): Part[] {
  const pending = (dialogOpen ? 1 : 0) + waiting;
  const parts: Part[] = [
    { text: visible(info.model, { maxChars: 400 }), tone: 'plain', cut: 'middle', min: 24 },
    { text: info.channel, tone: 'plain', cut: 'end', min: 8 },
    { text: `sandbox ${visible(info.sandbox, { maxChars: 200 })}`, tone: info.sandboxOk ? 'plain' : 'bad', cut: 'end', min: 13 },
    pending === 0
      ? { text: 'no requests pending', short: 'none pending', tone: 'plain', cut: 'end', min: 12 }
      : {
          text: `${pending} pending${waiting > 0 ? ` (+${waiting} waiting)` : ''}`,
          ...(waiting > 0 ? { short: `${pending} pending (+${waiting})` } : {}),
          tone: 'warn',
          cut: 'end',
          min: 9,
        },
  ];
  if (hint) parts.push({ text: hint, tone: 'plain', cut: 'end', min: 8 });
  return parts;
}

export function StatusLine({ info, dialogOpen, waiting, hint, columns }: StatusLineProps): React.ReactElement {
  const terminal = useColumns();
  // One column spare: a row exactly as wide as the terminal makes some terminals wrap the cursor onto a new row.
  const rows = layoutParts(statusParts(info, dialogOpen, waiting, hint), (columns ?? terminal) - 1);
  return (
    <Box flexDirection="column">
      {rows.map((row, r) => (
        <Text key={r} wrap="truncate-end">
          {row.map((p, i) => (
            <React.Fragment key={i}>
              {i > 0 ? <Text dimColor>{SEPARATOR}</Text> : null}
              {p.tone === 'plain' ? <Text dimColor>{p.text}</Text> : <Text color={p.tone === 'bad' ? 'red' : 'yellow'}>{p.text}</Text>}
            </React.Fragment>
          ))}
        </Text>
      ))}
    </Box>
  );
}
