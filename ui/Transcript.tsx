// The transcript: every entry printed once, above the live part of the screen (Ink's <Static>), so the scrollback
// is the terminal's own. All text from outside wisp — prompts, replies, commands, output — passes visible().
import { Box, Static, Text } from 'ink';
import React from 'react';
import { visible } from '../src/core/visible.js';
import type { Entry } from './transcript-entries.js';

export interface TranscriptProps {
  readonly entries: readonly Entry[];
}

// A reply line longer than this is cut with a count: long enough for any paragraph, short enough for a terminal.
const LINE_MAX = 8000;

// Memoised: the App re-renders on every key of the input line, and the transcript only changes when entries do.
export const Transcript = React.memo(function Transcript({ entries }: TranscriptProps): React.ReactElement {
  return <Static items={entries as Entry[]}>{(entry) => <Box key={entry.id}>{renderEntry(entry)}</Box>}</Static>;
});

/** A reply or output line: tabs become spaces (for code), everything else that could move the cursor is escaped. */
export function shownLine(text: string, maxChars = LINE_MAX): string {
  return visible(text.replace(/\t/g, '    '), { maxChars });
}

function renderEntry(entry: Entry): React.ReactElement {
  switch (entry.kind) {
    case 'prompt':
      return (
        <Text bold>
          <Text color="cyan">› </Text>
          {visible(entry.text, { maxChars: LINE_MAX, multiline: true })}
        </Text>
      );
    case 'reply':
      return <Text>{shownLine(entry.text)}</Text>;
    case 'gate':
      return (
        <Text>
          <Text color={entry.allowed ? 'green' : 'red'}>· </Text>
          <Text dimColor>{entry.tool}: </Text>
          {visible(entry.subject, { maxChars: 200 })}
          <Text color={entry.allowed ? 'green' : 'red'}> — {visible(entry.note, { maxChars: 400 })}</Text>
        </Text>
      );
    case 'output':
      return (
        <Box flexDirection="column">
          {entry.text.split('\n').map((line, i) => (
            <Text key={i} dimColor>
              {'  │ '}
              {shownLine(line, 200)}
            </Text>
          ))}
        </Box>
      );
    case 'inquiry':
      return (
        <Text>
          <Text color="magenta">? </Text>
          <Text dimColor>ask_operator: </Text>
          {visible(entry.question, { maxChars: 200 })}
          <Text color="magenta"> — {visible(entry.outcome, { maxChars: 200 })}</Text>
        </Text>
      );
    case 'answer':
      return (
        <Text>
          <Text color="magenta">  ↳ </Text>
          <Text dimColor>you answered: </Text>
          {visible(entry.text, { maxChars: 200 })}
        </Text>
      );
    case 'remote':
      return (
        <Text>
          <Text color="yellow">⇄ </Text>
          <Text dimColor>
            {visible(entry.client, { maxChars: 64 })}
            {entry.thread !== null ? `, thread ${visible(entry.thread, { maxChars: 64 })}` : ''}:{' '}
          </Text>
          {visible(entry.what, { maxChars: 200 })}
          <Text color="yellow"> — {visible(entry.outcome, { maxChars: 200 })}</Text>
        </Text>
      );
    case 'failed':
      return <Text color="red">{`${visible(entry.tool, { maxChars: 64 })} failed: ${visible(entry.error, { maxChars: 600 })}`}</Text>;
    case 'info':
      return <Text>{visible(entry.text, { maxChars: 20000, multiline: true })}</Text>;
    case 'error':
      return <Text color="red">{visible(entry.text, { maxChars: 4000, multiline: true })}</Text>;
  }
}
