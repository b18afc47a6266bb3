// The input line. It holds what the person types at any time: while a turn runs the text is drawn dim and Enter
// queues it as the next message (shown above the line), so nothing typed ahead is lost and none of it can reach a
// dialog. The App owns the state (ui/draft.ts) and routes the keys.
import { Box, Text } from 'ink';
import React from 'react';
import { visible } from '../src/core/visible.js';
import type { DraftState } from './draft.js';
import { TextField } from './TextField.js';

export interface PromptInputProps {
  readonly state: DraftState;
  /** A turn is running: the draft is type-ahead, drawn dim. */
  readonly busy: boolean;
  /** A dialog has the keys: no cursor here. */
  readonly dialogOpen: boolean;
  /** The session is still starting (ADR 0056): messages sent now wait for it. */
  readonly starting?: boolean;
  /** Messages sent during the turn, waiting to go when it ends (oldest first). */
  readonly queued: readonly string[];
  /** Earlier prompts, for the line a history search (Ctrl+R) found. */
  readonly history?: readonly string[];
}

export function PromptInput({ state, busy, starting = false, dialogOpen, queued, history = [] }: PromptInputProps): React.ReactElement {
  const idle = !busy && !dialogOpen;
  const search = state.search;
  // While searching, the line shows what the search found (the draft comes back on Esc).
  const found = search?.hit !== undefined ? history[search.hit] : undefined;
  const edit = search ? { value: found ?? '', cursor: (found ?? '').length } : state.edit;
  return (
    <Box flexDirection="column">
      {queued.map((text, i) => (
        <Text key={i} dimColor>
          {'queued › '}
          {visible(text, { maxChars: 200 })}
        </Text>
      ))}
      {queued.length > 0 ? <Text dimColor>{starting && !busy ? 'sent when wisp has started' : 'sent when this turn ends'} · Esc clears the queue</Text> : null}
      <Box>
        <Text color="cyan" bold>
          {'› '}
        </Text>
        {idle ? (
          <TextField state={edit} placeholder={search ? '' : 'type a prompt, or /help'} />
        ) : (
          <TextField state={edit} focused={!dialogOpen} dim />
        )}
      </Box>
      {search ? (
        <Text>
          <Text color="cyan">{'  history search: '}</Text>
          {visible(search.query, { maxChars: 200 })}
          <Text dimColor>
            {search.query !== '' && found === undefined ? '  (no match)' : ''}
            {'  · Ctrl+R older · Enter take · Esc cancel'}
          </Text>
        </Text>
      ) : state.edit.value.includes('\n') ? (
        <Text dimColor>{'  Enter sends · Alt+Enter or \\ then Enter: new line'}</Text>
      ) : null}
    </Box>
  );
}
