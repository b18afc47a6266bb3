// A flat JSON Schema (src/escalation/flat-form.ts decides which) becomes a small form: one field per property, each
// typed text checked before the answer is sent. Anything richer is answered as free text. Pure functions;
// InquiryDialog draws them.
import { flatFields, type FlatFieldType } from '../src/escalation/flat-form.js';
import { INQUIRY_ANSWER_MAX_BYTES } from '../src/escalation/types.js';

export type FieldType = FlatFieldType;

export interface FormField {
  readonly name: string;
  readonly type: FieldType;
  readonly required: boolean;
  /** From the schema (model text: show it through visible()). */
  readonly description?: string;
  readonly enumValues?: readonly (string | number)[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
}

/**
 * The form for a flat schema, or undefined when the schema is absent or not flat (then: one free-text field). Which
 * schemas are flat is decided in src/escalation/flat-form.ts, the same for the MCP dialog.
 */
export function formFields(schema: Record<string, unknown> | undefined): FormField[] | undefined {
  return flatFields(schema)?.map((f) => ({
    name: f.name,
    type: f.type,
    required: f.required,
    ...(f.description !== undefined ? { description: f.description } : f.title !== undefined ? { description: f.title } : {}),
    ...(f.choices ? { enumValues: f.choices } : {}),
    ...(f.minLength !== undefined ? { minLength: f.minLength } : {}),
    ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}),
    ...(f.minimum !== undefined ? { minimum: f.minimum } : {}),
    ...(f.maximum !== undefined ? { maximum: f.maximum } : {}),
  }));
}

export type FieldCheck = { readonly ok: true; readonly value: string | number | boolean | undefined } | { readonly ok: false; readonly error: string };

/** Checks one field's typed text; an empty optional field is left out of the answer (value undefined). */
export function checkField(field: FormField, text: string): FieldCheck {
  const raw = field.type === 'string' ? text : text.trim();
  if (raw === '') return field.required ? { ok: false, error: 'required' } : { ok: true, value: undefined };
  switch (field.type) {
    case 'boolean': {
      if (/^(y|yes|true)$/i.test(raw)) return { ok: true, value: true };
      if (/^(n|no|false)$/i.test(raw)) return { ok: true, value: false };
      return { ok: false, error: 'type yes or no' };
    }
    case 'integer':
    case 'number': {
      const n = Number(raw);
      if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(raw) || !Number.isFinite(n)) return { ok: false, error: field.type === 'integer' ? 'not a whole number' : 'not a number' };
      if (field.type === 'integer' && !Number.isInteger(n)) return { ok: false, error: 'not a whole number' };
      if (field.minimum !== undefined && n < field.minimum) return { ok: false, error: `at least ${field.minimum}` };
      if (field.maximum !== undefined && n > field.maximum) return { ok: false, error: `at most ${field.maximum}` };
      if (field.enumValues && !field.enumValues.includes(n)) return { ok: false, error: `one of ${field.enumValues.join(', ')}` };
      return { ok: true, value: n };
    }
    case 'string': {
      if (field.enumValues && !field.enumValues.includes(raw)) return { ok: false, error: `one of ${field.enumValues.join(', ')}` };
      if (field.minLength !== undefined && [...raw].length < field.minLength) return { ok: false, error: `at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && [...raw].length > field.maxLength) return { ok: false, error: `at most ${field.maxLength} characters` };
      return { ok: true, value: raw };
    }
  }
}

export type FormResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly errors: ReadonlyMap<string, string>; readonly message?: string };

/** Checks every field; on success the answer is the JSON object of the filled fields. */
export function submitForm(fields: readonly FormField[], texts: readonly string[]): FormResult {
  const errors = new Map<string, string>();
  const out: Record<string, string | number | boolean> = {};
  fields.forEach((field, i) => {
    const check = checkField(field, texts[i] ?? '');
    if (!check.ok) errors.set(field.name, check.error);
    else if (check.value !== undefined) out[field.name] = check.value;
  });
  if (errors.size > 0) return { ok: false, errors };
  const text = JSON.stringify(out);
  if (Buffer.byteLength(text, 'utf8') > INQUIRY_ANSWER_MAX_BYTES) {
    return { ok: false, errors, message: `the answer is longer than ${INQUIRY_ANSWER_MAX_BYTES} bytes` };
  }
  return { ok: true, text };
}

/**
 * The choices of a field answered with a picker (↑/↓ move, no typing): an enum's values, or yes/no for a boolean.
 * Undefined for a field typed as text.
 */
export function fieldChoices(field: FormField): readonly string[] | undefined {
  if (field.enumValues) return field.enumValues.map(String);
  if (field.type === 'boolean') return ['yes', 'no'];
  return undefined;
}

/** The picker's next value: ↓ goes down the choices (from none to the first), ↑ up (past the first to none). */
export function stepChoice(choices: readonly string[], current: string, dir: 1 | -1): string {
  const at = choices.indexOf(current);
  const next = Math.max(-1, Math.min(choices.length - 1, at + dir));
  return next < 0 ? '' : choices[next]!;
}
