import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { checkField, formFields, submitForm } from '../../ui/inquiry-form.js';
import { applyKey, EMPTY } from '../../ui/text-edit.js';

const none: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false,
  end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false,
  meta: false, super: false, hyper: false, capsLock: false, numLock: false,
};
const k = (over: Partial<Key>): Key => ({ ...none, ...over });

describe('applyKey', () => {
  it('inserts at the cursor, moves, deletes backwards', () => {
    let s = EMPTY;
    for (const ch of 'helo') s = (applyKey(s, ch, none) as { state: typeof s }).state;
    s = (applyKey(s, '', k({ leftArrow: true })) as { state: typeof s }).state;
    s = (applyKey(s, 'l', none) as { state: typeof s }).state;
    expect(s).toEqual({ value: 'hello', cursor: 4 });
    s = (applyKey(s, '', k({ delete: true })) as { state: typeof s }).state;
    expect(s).toEqual({ value: 'helo', cursor: 3 });
  });

  it('a paste ending in a newline is text plus Enter; inner newlines become spaces', () => {
    expect(applyKey(EMPTY, 'make a\nmarker\r', none)).toEqual({ kind: 'submit', state: { value: 'make a marker', cursor: 13 } });
  });

  it('keeps surrogate pairs whole', () => {
    const s = { value: 'a😀', cursor: 3 };
    expect(applyKey(s, '', k({ backspace: true }))).toEqual({ kind: 'edit', state: { value: 'a', cursor: 1 } });
  });

  it('Ctrl+U, Ctrl+W, Ctrl+A/E edit like a shell', () => {
    const s = { value: 'git push origin', cursor: 15 };
    expect(applyKey(s, 'w', k({ ctrl: true }))).toMatchObject({ state: { value: 'git push ', cursor: 9 } });
    expect(applyKey(s, 'u', k({ ctrl: true }))).toMatchObject({ state: { value: '', cursor: 0 } });
    expect(applyKey(s, 'a', k({ ctrl: true }))).toMatchObject({ state: { cursor: 0 } });
  });

  it('leaves Esc, Tab and arrows up/down to the caller', () => {
    for (const key of [k({ escape: true }), k({ tab: true }), k({ upArrow: true }), k({ downArrow: true })]) {
      expect(applyKey(EMPTY, '', key)).toEqual({ kind: 'ignored' });
    }
  });
});

describe('flat-schema forms', () => {
  it('takes primitive properties only', () => {
    expect(formFields({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } } })).toHaveLength(2);
    expect(formFields({ type: 'object', properties: { a: { type: 'array' } } })).toBeUndefined();
    expect(formFields({ type: 'string' })).toBeUndefined();
    expect(formFields(undefined)).toBeUndefined();
  });

  it('checks each type', () => {
    const f = (type: 'string' | 'number' | 'integer' | 'boolean', extra = {}) => ({ name: 'x', type, required: true, ...extra });
    expect(checkField(f('integer'), '3')).toEqual({ ok: true, value: 3 });
    expect(checkField(f('integer'), '3.5')).toEqual({ ok: false, error: 'not a whole number' });
    expect(checkField(f('number'), '2.5e3')).toEqual({ ok: true, value: 2500 });
    expect(checkField(f('number'), '0x10')).toEqual({ ok: false, error: 'not a number' });
    expect(checkField(f('boolean'), 'Yes')).toEqual({ ok: true, value: true });
    expect(checkField(f('boolean'), 'maybe')).toEqual({ ok: false, error: 'type yes or no' });
    expect(checkField(f('string', { enumValues: ['a', 'b'] }), 'c')).toEqual({ ok: false, error: 'one of a, b' });
    expect(checkField({ ...f('string'), required: false }, '')).toEqual({ ok: true, value: undefined });
  });

  it('builds the answer as JSON of the filled fields', () => {
    const fields = formFields({ type: 'object', properties: { a: { type: 'string' }, n: { type: 'integer' } }, required: ['a'] })!;
    expect(submitForm(fields, ['x', ''])).toEqual({ ok: true, text: '{"a":"x"}' });
  });
});
