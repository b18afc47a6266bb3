// The input line: one line of text, Enter sends, ↑/↓ walk the history of this chat's prompts (the draft is kept),
// Ctrl+D on an empty line quits. Inactive while a turn runs or a dialog is open, so no key meant for one lands in
// the other.
import { Box, Text, useInput } from 'ink';
import React, { useRef, useState } from 'react';
import { applyKey, EMPTY, type EditState } from './text-edit.js';
import { TextField } from './TextField.js';

export interface PromptInputProps {
  /** Earlier prompts, oldest first. */
  readonly history: readonly string[];
  readonly onSubmit: (text: string) => void;
  /** Ctrl+D on an empty line. */
  readonly onEnd?: () => void;
  /** @default true */
  readonly isActive?: boolean;
}

interface State {
  readonly edit: EditState;
  /** Position in the history while browsing it; history.length = the draft. */
  readonly index: number;
  readonly draft: string;
}

export function PromptInput({ history, onSubmit, onEnd, isActive = true }: PromptInputProps): React.ReactElement {
  const ref = useRef<State>({ edit: EMPTY, index: history.length, draft: '' });
  const [state, setStateValue] = useState<State>(ref.current);
  const setState = (next: State) => {
    ref.current = next;
    setStateValue(next);
  };

  useInput(
    (input, key) => {
      const cur = ref.current;
      const index = Math.min(cur.index, history.length);
      if (key.ctrl && input === 'd') {
        if (cur.edit.value === '') onEnd?.();
        return;
      }
      if (key.upArrow || key.downArrow) {
        const next = key.upArrow ? Math.max(0, index - 1) : Math.min(history.length, index + 1);
        if (next === index) return;
        const draft = index === history.length ? cur.edit.value : cur.draft;
        const value = next === history.length ? draft : history[next]!;
        return setState({ edit: { value, cursor: value.length }, index: next, draft });
      }
      const result = applyKey(cur.edit, input, key);
      if (result.kind === 'ignored') return;
      if (result.kind === 'edit') return setState({ ...cur, edit: result.state });
      const text = result.state.value;
      if (text.trim() === '') return setState({ ...cur, edit: EMPTY });
      setState({ edit: EMPTY, index: history.length + 1, draft: '' });
      onSubmit(text);
    },
    { isActive },
  );

  return (
    <Box>
      <Text color="cyan" bold>
        {'› '}
      </Text>
      <TextField state={state.edit} focused={isActive} placeholder={isActive ? 'type a prompt, or /help' : undefined} />
    </Box>
  );
}
