import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { DialogResult } from '../../ui/dialog-store.js';
import { InquiryDialog } from '../../ui/InquiryDialog.js';
import { KeyRhythm } from '../../ui/key-rhythm.js';
import { DECLINED_IN_CHAT } from '../../ui/terminal-channel.js';
import { inquiryRequest, KEYS, press, settle } from './helpers.js';

afterEach(() => cleanup());

function show(req = inquiryRequest()) {
  const answers: DialogResult[] = [];
  const r = render(<InquiryDialog request={req} onAnswer={(a) => answers.push(a)} rhythm={new KeyRhythm(0)} />);
  return { ...r, answers };
}

const FLAT = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'file to keep' },
    copies: { type: 'integer', minimum: 1 },
    force: { type: 'boolean' },
  },
  required: ['name', 'copies'],
};

describe('InquiryDialog, free text', () => {
  it("shows the model's question in a labelled block and a text field", () => {
    const frame = show().lastFrame()!;
    expect(frame).toContain('the model asks you');
    expect(frame).toMatch(/Question \(the model's words\):.*\n.*  │ Which README should I keep\?/);
    expect(frame).toContain('Answer:');
    expect(frame).toContain('Enter send · Esc decline');
  });

  it('typed text and Enter answer with that text', async () => {
    const { stdin, answers, lastFrame } = show();
    await press(stdin, 'k', 'e', 'e', 'p', ' ', 'b');
    expect(lastFrame()).toContain('keep b');
    await press(stdin, KEYS.backspace, 'A', KEYS.enter);
    expect(answers).toEqual([{ kind: 'answered', text: 'keep A' }]);
  });

  it('a pasted answer ending in a newline is sent', async () => {
    const { stdin, answers } = show();
    await press(stdin, 't', 'he first one\r'); // the first key alone; then a chunk may follow
    expect(answers).toEqual([{ kind: 'answered', text: 'the first one' }]);
  });

  it('Esc declines', async () => {
    const { stdin, answers } = show();
    await press(stdin, 'x', KEYS.escape);
    await settle(80);
    expect(answers).toEqual([{ kind: 'declined', reason: DECLINED_IN_CHAT }]);
  });

  it('Enter on an empty field asks for an answer instead of sending nothing', async () => {
    const { stdin, answers, lastFrame } = show();
    await press(stdin, KEYS.enter);
    expect(answers).toEqual([]);
    expect(lastFrame()).toContain('type an answer, or press Esc to decline');
  });

  it('shows a hostile question visibly: escapes, CR, bidi, zero-width', () => {
    const question = 'Proceed?\x1b[1A\x1b[2K\rYes already approved\u202E\u200B';
    const frame = show(inquiryRequest({ question })).lastFrame()!;
    expect(frame).toContain('\\x1b[1A\\x1b[2K\\rYes already approved<U+202E><U+200B>');
    expect(frame).not.toMatch(/[\r\x1b\u202e\u200b]/);
  });
});

describe('InquiryDialog, a flat schema becomes a form', () => {
  it('draws one field per property with its type', () => {
    const frame = show(inquiryRequest({ schema: FLAT })).lastFrame()!;
    expect(frame).toMatch(/› name \(string, required\)/);
    expect(frame).toMatch(/copies \(integer, required\)/);
    expect(frame).toMatch(/force \(yes\/no\)/);
    expect(frame).toContain('file to keep');
  });

  it('checks types before sending and moves to the bad field', async () => {
    const { stdin, answers, lastFrame } = show(inquiryRequest({ schema: FLAT }));
    await press(stdin, 'R', 'EADME.md', KEYS.enter); // → copies
    await press(stdin, 't', 'w', 'o', KEYS.enter); // → force
    await press(stdin, KEYS.enter); // send: copies is not an integer
    expect(answers).toEqual([]);
    expect(lastFrame()).toContain('✗ not a whole number');
    expect(lastFrame()).toMatch(/› copies/);
    // force is a boolean: a picker, ↓ picks the first choice (yes); Tab reaches it from copies.
    await press(stdin, KEYS.backspace, KEYS.backspace, KEYS.backspace, '2', KEYS.tab, KEYS.down, KEYS.enter);
    expect(answers).toEqual([{ kind: 'answered', text: JSON.stringify({ name: 'README.md', copies: 2, force: true }) }]);
  });

  it('refuses a number below the minimum and an empty required field', async () => {
    const { stdin, answers, lastFrame } = show(inquiryRequest({ schema: FLAT }));
    await press(stdin, KEYS.down, '0', KEYS.down, KEYS.enter);
    expect(answers).toEqual([]);
    expect(lastFrame()).toContain('✗ required');
    expect(lastFrame()).toContain('✗ at least 1');
  });

  it('Esc declines the form', async () => {
    const { stdin, answers } = show(inquiryRequest({ schema: FLAT }));
    await press(stdin, KEYS.escape);
    await settle(80);
    expect(answers).toEqual([{ kind: 'declined', reason: DECLINED_IN_CHAT }]);
  });

  it('a schema that is not flat is answered as free text', () => {
    const nested = { type: 'object', properties: { a: { type: 'object', properties: {} } } };
    expect(show(inquiryRequest({ schema: nested })).lastFrame()).toContain('Answer:');
  });

  it('attack: free text that does not fit a schema that is not flat is not sent (before: sent to the model as the answer)', async () => {
    const nested = { type: 'object', properties: { files: { type: 'array', items: { type: 'string' } } }, required: ['files'] };
    const { stdin, answers, lastFrame } = show(inquiryRequest({ schema: nested }));
    expect(lastFrame()).toContain('Answer with JSON matching');
    await settle(300); // the checker loads
    await press(stdin, 'a', 'l', 'l', KEYS.enter);
    expect(answers).toEqual([]);
    expect(lastFrame()).toMatch(/not JSON.*nothing was sent/);
    for (let i = 0; i < 3; i++) await press(stdin, KEYS.backspace);
    await press(stdin, '{"files": 3}', KEYS.enter);
    expect(answers).toEqual([]);
    expect(lastFrame()).toMatch(/does not match the requested schema/);
  });

  it('JSON that fits a schema that is not flat is sent', async () => {
    const nested = { type: 'object', properties: { files: { type: 'array', items: { type: 'string' } } }, required: ['files'] };
    const { stdin, answers } = show(inquiryRequest({ schema: nested }));
    await settle(300);
    await press(stdin, '{', '"files": ["a"]}', KEYS.enter);
    expect(answers).toEqual([{ kind: 'answered', text: '{"files": ["a"]}' }]);
  });
});
