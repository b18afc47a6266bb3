// The box around a dialog: an authored title, who is asking (for requests from other wisp processes), the body,
// the key hints and the timeout bar. Every string from outside wisp passes through visible() before it is drawn.
import { Box, Text } from 'ink';
import React from 'react';
import { visible } from '../src/core/visible.js';
import type { DialogRequest } from './dialog-store.js';
import { TimeoutBar } from './TimeoutBar.js';

export interface DialogFrameProps {
  readonly request: DialogRequest;
  /** Fixed words from wisp, never model text. */
  readonly title: string;
  /** What happens when the time runs out, for the bar. */
  readonly then: string;
  /** Keys are being ignored as typing, not answers (ui/key-rhythm.ts); the frame says so until a pause. */
  readonly holding?: boolean;
  readonly children: React.ReactNode;
}

export function DialogFrame({ request, title, then, holding, children }: DialogFrameProps): React.ReactElement {
  const source = request.source;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        {title}
      </Text>
      {source.kind === 'queue' ? (
        <Text>
          <Text dimColor>Asked by: </Text>
          <Text>
            {visible(source.client, { maxChars: 64 })}
            {source.thread !== null ? `, thread ${visible(source.thread, { maxChars: 64 })}` : ''}
          </Text>
          <Text dimColor>
            {source.pid === process.pid ? ' (this chat, through the queue' : ` (another wisp process, pid ${source.pid}`}; request{' '}
            {request.id})
          </Text>
        </Text>
      ) : null}
      {children}
      <TimeoutBar deadline={request.deadline} since={request.raisedAt} then={then} />
      {holding ? (
        <Text color="magenta" bold>
          typing detected: keys are ignored until you pause (what you typed went to the input line)
        </Text>
      ) : null}
    </Box>
  );
}
