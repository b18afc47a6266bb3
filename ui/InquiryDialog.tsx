// The inquiry dialog (`ask_operator`, design.md §2): the model's question made visible in a labelled block, then a
// text field — or, for a flat schema, one checked field per property. Enter sends, Esc declines.
import { Box, Text, type Key } from 'ink';
import { useKeys } from './use-keys.js';
import React, { useMemo, useRef, useState } from 'react';
import { INQUIRY_ANSWER_MAX_BYTES } from '../src/escalation/types.js';
import type { DialogRequest, DialogResult } from './dialog-store.js';
import { DialogFrame } from './DialogFrame.js';
import { FormFieldRow } from './FormFieldRow.js';
import { formFields, submitForm } from './inquiry-form.js';
import { KeyRhythm } from './key-rhythm.js';
import { Labelled } from './Labelled.js';
import { useKeyGuard } from './use-key-guard.js';
import { DECLINED_IN_CHAT } from './terminal-channel.js';
import { applyKey, EMPTY, type EditState } from './text-edit.js';
import { TextField } from './TextField.js';

export interface InquiryDialogProps {
  readonly request: DialogRequest & { readonly verb: 'inquiry' };
  readonly onAnswer: (result: DialogResult) => void;
  /** Judges whether a key came after a pause (ui/key-rhythm.ts). @default a fresh KeyRhythm (500 ms) */
  readonly rhythm?: KeyRhythm;
  /** Keys refused as typing are handed back here (the App puts them in the input line). */
  readonly onStrayKey?: (input: string, key: Key, paste?: boolean) => void;
}

interface FormState {
  readonly texts: readonly EditState[];
  readonly focus: number;
  readonly errors: ReadonlyMap<string, string>;
  readonly message?: string;
}

export function InquiryDialog({ request, onAnswer, rhythm, onStrayKey }: InquiryDialogProps): React.ReactElement {
  const [ownRhythm] = useState(() => rhythm ?? new KeyRhythm());
  const keys = rhythm ?? ownRhythm;
  const guard = useKeyGuard(keys);
  // The first key must come after a pause; from then on the person is answering, and types at any speed.
  const engaged = useRef(false);
  const fields = useMemo(() => formFields(request.request.schema), [request.request.schema]);
  const count = fields?.length ?? 1;
  // Kept in a ref as well as in state: keys that arrive together are applied one after another before a re-render.
  const ref = useRef<FormState>({ texts: Array.from({ length: count }, () => EMPTY), focus: 0, errors: new Map() });
  const [form, setFormState] = useState<FormState>(ref.current);
  const setForm = (next: FormState) => {
    ref.current = next;
    setFormState(next);
  };

  const submit = () => {
    const cur = ref.current;
    if (!fields) {
      const text = cur.texts[0]!.value;
      if (text.trim() === '') return setForm({ ...cur, message: 'type an answer, or press Esc to decline' });
      if (Buffer.byteLength(text, 'utf8') > INQUIRY_ANSWER_MAX_BYTES) {
        return setForm({ ...cur, message: `the answer is longer than ${INQUIRY_ANSWER_MAX_BYTES} bytes; shorten it` });
      }
      return onAnswer({ kind: 'answered', text });
    }
    const result = submitForm(fields, cur.texts.map((t) => t.value));
    if (result.ok) return onAnswer({ kind: 'answered', text: result.text });
    const firstBad = fields.findIndex((f) => result.errors.has(f.name));
    return setForm({
      ...cur,
      errors: result.errors,
      focus: firstBad >= 0 ? firstBad : cur.focus,
      ...(result.message ? { message: result.message } : {}),
    });
  };

  useKeys((input, key, together, paste) => {
    if (key.ctrl && input === 'c') return; // the App's
    if (!engaged.current) {
      if (!guard.judge() || input.length > 1 || together) return onStrayKey?.(input, key, paste);
      engaged.current = true;
    } else keys.typed();
    const cur = ref.current;
    if (key.escape) return onAnswer({ kind: 'declined', reason: DECLINED_IN_CHAT });
    const move = key.downArrow || (key.tab && !key.shift) ? 1 : key.upArrow || (key.tab && key.shift) ? -1 : 0;
    if (move !== 0) {
      return setForm({ ...cur, focus: Math.min(count - 1, Math.max(0, cur.focus + move)) });
    }
    // A paste is text for the field, never Enter: its line breaks become spaces, and it sends nothing.
    const result = applyKey(cur.texts[cur.focus]!, paste ? input.replace(/\r\n|\r|\n/g, ' ') : input, key);
    if (result.kind === 'ignored') return;
    const texts = cur.texts.map((t, i) => (i === cur.focus ? result.state : t));
    const { message: _dropped, ...rest } = cur;
    const next: FormState = { ...rest, texts };
    if (result.kind === 'edit') return setForm(next);
    if (fields && cur.focus < count - 1) return setForm({ ...next, focus: cur.focus + 1 });
    setForm(next);
    submit();
  });

  return (
    <DialogFrame request={request} title="? the model asks you" then="no answer" holding={guard.holding}>
      <Labelled label="Question:" text={request.request.question} multiline maxChars={2000} />
      {fields ? <Text dimColor>Your answer:</Text> : null}
      {fields ? (
        fields.map((field, i) => <FormFieldRow key={field.name} field={field} state={form.texts[i]!} focused={i === form.focus} error={form.errors.get(field.name)} />)
      ) : (
        <Box>
          <Text dimColor>Answer: </Text>
          <TextField state={form.texts[0]!} placeholder="type your answer" />
        </Box>
      )}
      {form.message ? <Text color="red">{form.message}</Text> : null}
      <Text dimColor>{fields ? 'Enter next field / send · ↑/↓ move · Esc decline' : 'Enter send · Esc decline'}</Text>
    </DialogFrame>
  );
}
