// The inquiry dialog (`ask_operator`, design.md §2): the model's question made visible in a labelled block, then a
// text field — or, for a flat schema, one checked field per property. Enter sends, Esc declines.
import { Box, Text, useStdout, type Key } from 'ink';
import { useKeys } from './use-keys.js';
import React, { useEffect, useMemo, useRef, useState } from 'react';
import type { AnswerCheck } from '../src/escalation/answer-schema.js';
import { INQUIRY_ANSWER_MAX_BYTES } from '../src/escalation/types.js';
import type { DialogRequest, DialogResult } from './dialog-store.js';
import { DialogFrame } from './DialogFrame.js';
import { FormFieldRow } from './FormFieldRow.js';
import { checkField, fieldChoices, formFields, stepChoice, submitForm } from './inquiry-form.js';
import { KeyRhythm } from './key-rhythm.js';
import { visible } from '../src/core/visible.js';
import { blockRows, ScrollBlock } from './ScrollBlock.js';
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

/** Most rows of the question shown at once (the rest scrolls with PgUp/PgDn). */
export const QUESTION_ROWS = 8;

export function InquiryDialog({ request, onAnswer, rhythm, onStrayKey }: InquiryDialogProps): React.ReactElement {
  const [ownRhythm] = useState(() => rhythm ?? new KeyRhythm());
  const keys = rhythm ?? ownRhythm;
  const guard = useKeyGuard(keys);
  // The first key must come after a pause; from then on the person is answering, and types at any speed.
  const engaged = useRef(false);
  const fields = useMemo(() => formFields(request.request.schema), [request.request.schema]);
  const choices = useMemo(() => fields?.map(fieldChoices), [fields]);
  // A schema that is not flat is answered as text, which must be JSON fitting it, as in every face (ADR 0097). The
  // checker is loaded when such a question opens (ajv is not light); until it is there, nothing is sent.
  const schema = fields ? undefined : request.request.schema;
  const checker = useRef<AnswerCheck | undefined>(undefined);
  useEffect(() => {
    if (!schema) return;
    let live = true;
    void import('../src/escalation/answer-schema.js').then((m) => {
      if (live) checker.current = m.answerChecker(schema);
    });
    return () => {
      live = false;
    };
  }, [schema]);
  // The model's question in a block of bounded height behind a gutter, long blank runs collapsed: however many lines
  // it has, the dialog's title and wisp's own words stay on screen, and nothing in it can pass for them.
  const { stdout } = useStdout();
  const width = Math.max(20, (stdout.columns || 80) - 8);
  const height = Math.max(3, Math.min(QUESTION_ROWS, (stdout.rows || 24) - 14));
  const question = useMemo(
    () => visible(request.request.question, { maxChars: 2000, multiline: true, collapseRuns: true }),
    [request.request.question],
  );
  const questionRows = useMemo(() => blockRows(question, width).length, [question, width]);
  // A question longer than the dialog keeps is cut, and the dialog says so in its own words, outside the block.
  const cut = /… \[\+(\d+) chars\]$/.exec(question)?.[1];
  const [offset, setOffset] = useState(0);
  const offsetRef = useRef(0);
  const scroll = (by: number) => {
    offsetRef.current = Math.max(0, Math.min(offsetRef.current + by, questionRows - height));
    setOffset(offsetRef.current);
  };
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
      if (schema) {
        if (!checker.current) return setForm({ ...cur, message: 'still reading the schema the answer must fit; press Enter again' });
        const fit = checker.current(text);
        // The reason may quote the model's schema: made visible like the rest of its text.
        if (!fit.ok) return setForm({ ...cur, message: `${visible(fit.reason, { maxChars: 300 })}; nothing was sent` });
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
    // Scrolling the question answers nothing, so it needs no pause (it still counts as a key).
    if (key.pageUp || key.pageDown) {
      keys.typed();
      return scroll(key.pageUp ? -(height - 1) : height - 1);
    }
    if (!engaged.current) {
      if (!guard.judge() || input.length > 1 || together) return onStrayKey?.(input, key, paste);
      engaged.current = true;
    } else keys.typed();
    const cur = ref.current;
    if (key.escape) return onAnswer({ kind: 'declined', reason: DECLINED_IN_CHAT });
    const picker = choices?.[cur.focus];
    // On a choice field ↑/↓ move the choice and Tab moves between fields; elsewhere ↑/↓ move between fields too.
    if (picker && (key.upArrow || key.downArrow)) {
      const value = stepChoice(picker, cur.texts[cur.focus]!.value, key.downArrow ? 1 : -1);
      return setForm(withText(cur, cur.focus, { value, cursor: value.length }));
    }
    const move = key.downArrow || (key.tab && !key.shift) ? 1 : key.upArrow || (key.tab && key.shift) ? -1 : 0;
    if (move !== 0) {
      return setForm({ ...cur, focus: Math.min(count - 1, Math.max(0, cur.focus + move)) });
    }
    // A choice field takes no typing; Enter confirms what is picked.
    if (picker && !key.return) return;
    // A paste is text for the field, never Enter: its line breaks become spaces, and it sends nothing.
    const result = applyKey(cur.texts[cur.focus]!, paste ? input.replace(/\r\n|\r|\n/g, ' ') : input, key);
    if (result.kind === 'ignored') return;
    const next = withText(cur, cur.focus, result.state);
    if (result.kind === 'edit') return setForm(next);
    if (fields && cur.focus < count - 1) return setForm({ ...next, focus: cur.focus + 1 });
    setForm(next);
    submit();
  });

  /** The form with field `i` set to `text`; the field's error goes as soon as the field is right. */
  function withText(cur: FormState, i: number, text: EditState): FormState {
    const { message: _dropped, ...rest } = cur;
    const texts = cur.texts.map((t, j) => (j === i ? text : t));
    const field = fields?.[i];
    if (!field || !cur.errors.has(field.name)) return { ...rest, texts };
    const errors = new Map(cur.errors);
    const check = checkField(field, text.value);
    if (check.ok) errors.delete(field.name);
    else errors.set(field.name, check.error);
    return { ...rest, texts, errors };
  }

  return (
    <DialogFrame request={request} title="? the model asks you" then="no answer" holding={guard.holding}>
      <ScrollBlock label="Question (the model's words):" text={question} width={width} height={height} offset={offset} scrollKeys="PgUp/PgDn" color="cyan" />
      {cut ? <Text color="yellow">The question is too long: it is cut, [+{cut} chars] not shown.</Text> : null}
      {fields ? <Text dimColor>Your answer:</Text> : null}
      {fields ? (
        fields.map((field, i) => (
          <FormFieldRow
            key={field.name}
            field={field}
            state={form.texts[i]!}
            focused={i === form.focus}
            error={form.errors.get(field.name)}
            {...(choices?.[i] ? { choices: choices[i] } : {})}
          />
        ))
      ) : (
        <Box flexDirection="column">
          {schema ? <Text dimColor>Answer with JSON matching (the model's schema): {visible(JSON.stringify(schema), { maxChars: 400 })}</Text> : null}
          <Box>
            <Text dimColor>Answer: </Text>
            <TextField state={form.texts[0]!} placeholder="type your answer" />
          </Box>
        </Box>
      )}
      {form.message ? <Text color="red">{form.message}</Text> : null}
      <Text dimColor>
        {fields
          ? choices?.[form.focus]
            ? '↑/↓ choose · Enter take it (next field / send) · Tab move · Esc decline'
            : 'Enter next field / send · ↑/↓ move · Esc decline'
          : 'Enter send · Esc decline'}
      </Text>
    </DialogFrame>
  );
}
