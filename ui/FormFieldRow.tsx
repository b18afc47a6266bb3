// One field of an inquiry form: its name and expected type (from the model's schema, so made visible), the text
// typed so far, and what is wrong with it.
import { Box, Text } from 'ink';
import React from 'react';
import { visible } from '../src/core/visible.js';
import type { FormField } from './inquiry-form.js';
import type { EditState } from './text-edit.js';
import { TextField } from './TextField.js';

export function FormFieldRow({
  field,
  state,
  focused,
  error,
  choices,
}: {
  readonly field: FormField;
  readonly state: EditState;
  readonly focused: boolean;
  readonly error: string | undefined;
  /** A choice field: drawn as its choices, the picked one marked (no typing). */
  readonly choices?: readonly string[];
}): React.ReactElement {
  const kind = choices ? (field.type === 'boolean' ? 'yes/no' : 'choose') : field.enumValues ? `one of ${field.enumValues.map((v) => visible(String(v), { maxChars: 40 })).join(' | ')}` : field.type === 'boolean' ? 'yes/no' : field.type;
  return (
    <Box flexDirection="column">
      <Box>
        <Text color={focused ? 'cyan' : undefined}>{focused ? '› ' : '  '}</Text>
        <Text bold>{visible(field.name, { maxChars: 60 })}</Text>
        <Text dimColor>
          {' '}({kind}
          {field.required ? ', required' : ''}):{' '}
        </Text>
        {choices ? (
          <Text>
            {choices.map((c, i) => {
              const on = c === state.value;
              return (
                <Text key={i} {...(on ? { inverse: focused, bold: true } : { dimColor: true })}>
                  {i > 0 ? ' ' : ''}
                  {on ? '▸' : ' '}
                  {visible(c, { maxChars: 40 })}
                </Text>
              );
            })}
            {state.value === '' ? <Text dimColor> (none picked{focused ? ': ↓' : ''})</Text> : null}
          </Text>
        ) : (
          <TextField state={state} focused={focused} />
        )}
      </Box>
      {error ? (
        <Box paddingLeft={4}>
          <Text color="red">✗ {error}</Text>
        </Box>
      ) : null}
      {field.description && focused ? (
        <Box paddingLeft={4}>
          <Text dimColor>{visible(field.description, { maxChars: 200 })}</Text>
        </Box>
      ) : null}
    </Box>
  );
}
