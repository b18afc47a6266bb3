// One decision for which inquiry schemas are answered as a form (src/escalation/flat-form.ts, ADR 0070): the chat's
// dialog (ui/inquiry-form.ts) and the MCP elicitation (src/mcp/inquiry-form.ts) accept and refuse the same schemas,
// with the same fields, required names and choices.
import { describe, expect, it } from 'vitest';
import { FLAT_FORM_MAX_FIELDS, flatFields } from '../../src/escalation/flat-form.js';
import { flatForm, inquiryForm } from '../../src/mcp/inquiry-form.js';
import { formFields } from '../../ui/inquiry-form.js';

const props = (n: number): Record<string, unknown> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string' }]));

const FLAT: Array<[string, Record<string, unknown>]> = [
  ['strings and a boolean', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'boolean' } }, required: ['a'] }],
  ['no type, only properties (read as an object)', { properties: { a: { type: 'integer', minimum: 1 } } }],
  ['the most fields a form has', { type: 'object', properties: props(FLAT_FORM_MAX_FIELDS) }],
  ['a string enum', { type: 'object', properties: { pick: { type: 'string', enum: ['red', 'green'] } } }],
  ['a number enum', { type: 'object', properties: { size: { type: 'number', enum: [1, 2.5, 4] } } }],
  ['an integer enum', { type: 'object', properties: { n: { type: 'integer', enum: [1, 2, 3] } } }],
  ['formats, lengths, bounds and defaults', {
    type: 'object',
    properties: {
      mail: { type: 'string', format: 'email', maxLength: 80, default: 'a@b.c' },
      when: { type: 'string', format: 'date-time', minLength: 1 },
      n: { type: 'number', minimum: 0, maximum: 10, default: 3 },
    },
  }],
  ['dotted and dashed names', { type: 'object', properties: { 'a.b': { type: 'string' }, 'c-d_e': { type: 'string' } } }],
];

const NOT_FLAT: Array<[string, Record<string, unknown> | undefined]> = [
  ['no schema', undefined],
  ['one field too many', { type: 'object', properties: props(FLAT_FORM_MAX_FIELDS + 1) }],
  ['no properties', { type: 'object', properties: {} }],
  ['not an object', { type: 'string' }],
  ['an array', { type: 'array', items: { type: 'string' } }],
  ['a nested object', { type: 'object', properties: { deep: { type: 'object', properties: {} } } }],
  ['a list property', { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } }],
  ['a property with no type', { type: 'object', properties: { a: {} } }],
  ['a property that is a list', { type: 'object', properties: { a: [] } }],
  ['a union type', { type: 'object', properties: { a: { type: ['string', 'null'] } } }],
  ['a name with a space', { type: 'object', properties: { 'your name': { type: 'string' } } }],
  ['a name with a bidi override', { type: 'object', properties: { 'a\u202eb': { type: 'string' } } }],
  ['a name starting with a digit', { type: 'object', properties: { '1st': { type: 'string' } } }],
  ['a choice with a bidi override (shown as picked, cannot be escaped)', { type: 'object', properties: { c: { type: 'string', enum: ['ok', 'rm\u202e'] } } }],
  ['a choice with a newline', { type: 'object', properties: { c: { type: 'string', enum: ['a\nb'] } } }],
  ['an empty enum', { type: 'object', properties: { c: { type: 'string', enum: [] } } }],
  ['a mixed enum on a string', { type: 'object', properties: { c: { type: 'string', enum: ['a', 1] } } }],
  ['strings on a number', { type: 'object', properties: { c: { type: 'number', enum: ['1'] } } }],
  ['a fraction on an integer', { type: 'object', properties: { c: { type: 'integer', enum: [1, 1.5] } } }],
  ['an enum on a boolean', { type: 'object', properties: { c: { type: 'boolean', enum: [true] } } }],
];

describe('one flat-schema form for the chat and MCP', () => {
  it.each(FLAT)('both faces draw a form: %s', (_name, schema) => {
    const fields = flatFields(schema)!;
    expect(fields).toBeDefined();
    const chat = formFields(schema);
    const mcp = flatForm(schema);
    expect(chat).toBeDefined();
    expect(mcp).toBeDefined();
    // The same fields, in the same order, with the same required names and choices.
    expect(chat!.map((f) => f.name)).toEqual(fields.map((f) => f.name));
    expect(Object.keys(mcp!.properties)).toEqual(fields.map((f) => f.name));
    expect(chat!.filter((f) => f.required).map((f) => f.name)).toEqual(mcp!.required);
    for (const f of chat!) {
      const sent = mcp!.properties[f.name] as { enum?: string[] };
      expect(sent.enum).toEqual(f.enumValues?.map(String));
    }
    expect(Object.keys(inquiryForm({ question: 'q', schema }, 60_000).requestedSchema.properties)).toEqual(fields.map((f) => f.name));
  });

  it.each(NOT_FLAT)('both faces fall back to a text answer: %s', (_name, schema) => {
    expect(flatFields(schema)).toBeUndefined();
    expect(formFields(schema)).toBeUndefined();
    expect(flatForm(schema)).toBeUndefined();
    expect(Object.keys(inquiryForm({ question: 'q', ...(schema ? { schema } : {}) }, 60_000).requestedSchema.properties)).toEqual(['answer']);
  });

  it("MCP reads a number field's picked choice back as the number, and refuses one outside the choices", () => {
    const form = inquiryForm({ question: 'q', schema: { type: 'object', properties: { n: { type: 'integer', enum: [1, 2, 3] }, note: { type: 'string' } } } }, 60_000);
    expect(form.requestedSchema.properties.n).toMatchObject({ type: 'string', enum: ['1', '2', '3'] });
    expect(form.read({ n: '2', note: 'x' })).toEqual({ ok: true, text: '{"n":2,"note":"x"}' });
    expect(form.read({ note: 'x' })).toEqual({ ok: true, text: '{"note":"x"}' });
    expect(form.read({ n: '7' })).toMatchObject({ ok: false, reason: expect.stringMatching(/not one of its choices/) });
  });
});
