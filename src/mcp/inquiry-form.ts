// An inquiry as an MCP elicitation form, and the answer read back from it: a plain answer field, the model's schema
// when it is flat, or one JSON field validated against the schema (patterns by the linear-time engine, ADR 0017).
// Titles, descriptions and the question are model text, so they are made visible.
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { visible } from '../core/visible.js';
import { answerChecker } from '../escalation/answer-schema.js';
import { flatFields, type FlatField } from '../escalation/flat-form.js';
import { INQUIRY_ANSWER_MAX_BYTES, type InquiryRequest } from '../escalation/types.js';
import { silence } from './dialog-wording.js';

type Property = ElicitRequestFormParams['requestedSchema']['properties'][string];

/**
 * The model's schema as an elicitation form, when it is flat (src/escalation/flat-form.ts, the same rule the chat
 * uses). Titles and descriptions are model text, so they are made visible; choices are shown as-is, which the flat
 * rule allows only for strings with nothing to escape. A number's choices go as strings and are read back as
 * numbers (readFlat).
 */
export function flatForm(schema: Record<string, unknown> | undefined): ElicitRequestFormParams['requestedSchema'] | undefined {
  const fields = flatFields(schema);
  return fields ? formOf(fields) : undefined;
}

function formOf(fields: readonly FlatField[]): ElicitRequestFormParams['requestedSchema'] {
  const out: Record<string, Property> = {};
  for (const f of fields) out[f.name] = property(f);
  return { type: 'object', properties: out, required: fields.filter((f) => f.required).map((f) => f.name) };
}

function property(f: FlatField): Property {
  const label = {
    ...(f.title !== undefined ? { title: visible(f.title, { maxChars: 100 }) } : {}),
    ...(f.description !== undefined ? { description: visible(f.description, { maxChars: 300 }) } : {}),
  };
  const num = (k: 'minLength' | 'minimum' | 'maximum') => (f[k] !== undefined ? { [k]: f[k] } : {});
  if (f.choices) {
    const dflt = typeof f.default === 'string' || typeof f.default === 'number' ? { default: String(f.default) } : {};
    return { type: 'string', ...label, enum: f.choices.map(String), ...dflt };
  }
  if (f.type === 'string') {
    return {
      type: 'string',
      ...label,
      ...num('minLength'),
      maxLength: Math.min(f.maxLength ?? INQUIRY_ANSWER_MAX_BYTES, INQUIRY_ANSWER_MAX_BYTES),
      ...(f.format !== undefined ? { format: f.format } : {}),
      ...(typeof f.default === 'string' ? { default: f.default } : {}),
    };
  }
  if (f.type === 'boolean') return { type: 'boolean', ...label, ...(typeof f.default === 'boolean' ? { default: f.default } : {}) };
  return { type: f.type, ...label, ...num('minimum'), ...num('maximum'), ...(typeof f.default === 'number' ? { default: f.default } : {}) };
}

/**
 * The answer text of an accepted flat form: the content as JSON, with a number field's picked choice turned back
 * into its number. A value outside a field's choices is not an answer (the client should not have sent it).
 */
function readFlat(
  fields: readonly FlatField[],
  content: Record<string, unknown> | undefined,
): { ok: true; text: string } | { ok: false; reason: string } {
  const stray = strayFields(content, fields.map((f) => f.name));
  if (stray) return { ok: false, reason: stray };
  const missing = fields.filter((f) => f.required && content?.[f.name] === undefined).map((f) => f.name);
  if (missing.length > 0) return { ok: false, reason: `it leaves out ${missing.slice(0, 5).join(', ')}, which the form requires` };
  const out: Record<string, unknown> = { ...(content ?? {}) };
  for (const f of fields) {
    const v = out[f.name];
    if (!f.choices || v === undefined) continue;
    const picked = (f.choices as readonly (string | number)[]).find((c) => String(c) === String(v));
    if (picked === undefined) return { ok: false, reason: `the answer to ${f.name} is not one of its choices` };
    out[f.name] = picked;
  }
  return { ok: true, text: JSON.stringify(out) };
}

/** Says which fields of an answer the form did not ask for (a client must not add any), or undefined. */
export function strayFields(content: Record<string, unknown> | undefined, asked: readonly string[]): string | undefined {
  const stray = Object.keys(content ?? {}).filter((k) => !asked.includes(k));
  if (stray.length === 0) return undefined;
  return `it holds fields the form did not ask for: ${stray.slice(0, 5).map((k) => visible(k, { maxChars: 40 })).join(', ')}`;
}

export interface InquiryForm {
  readonly message: string;
  readonly requestedSchema: ElicitRequestFormParams['requestedSchema'];
  /** Turns accepted content into the answer text, or says why it is not an answer. */
  readonly read: (content: Record<string, unknown> | undefined) => { ok: true; text: string } | { ok: false; reason: string };
}

export function inquiryForm(request: InquiryRequest, timeoutMs: number, queueId?: string): InquiryForm {
  const head = ['wisp: the model has a question for you', '', 'Question:', visible(request.question, { maxChars: 2000, multiline: true }), ''];
  const tail = ['Decline if you would rather not answer.', silence(timeoutMs, 'no answer')];
  if (queueId) tail.push(`You can also answer in a terminal: wisp inquiries answer ${queueId} TEXT`);

  const fields = flatFields(request.schema);
  if (fields) {
    const check = answerChecker(request.schema!);
    return {
      message: [...head, 'Answer in the fields below.', ...tail].join('\n'),
      requestedSchema: formOf(fields),
      // Checked against the model's own schema here too (types, bounds, formats): what the SDK checks may change
      // with its version, and an answer that does not fit must be a refusal whatever it says (ADR 0097).
      read: (content) => {
        const flat = readFlat(fields, content);
        return flat.ok ? check(flat.text) : flat;
      },
    };
  }
  if (request.schema) {
    const check = answerChecker(request.schema);
    const shown = visible(JSON.stringify(request.schema), { maxChars: 1500 });
    return {
      message: [...head, 'Answer with JSON that matches this schema:', shown, '', ...tail].join('\n'),
      requestedSchema: {
        type: 'object',
        properties: { answer: { type: 'string', title: 'Answer (JSON)', description: 'JSON matching the schema in the message', maxLength: INQUIRY_ANSWER_MAX_BYTES } },
        required: ['answer'],
      },
      read: (content) => {
        const field = answerField(content);
        return field.ok ? check(field.text) : field;
      },
    };
  }
  return {
    message: [...head, 'Type your answer below.', ...tail].join('\n'),
    requestedSchema: {
      type: 'object',
      properties: { answer: { type: 'string', title: 'Answer', maxLength: INQUIRY_ANSWER_MAX_BYTES } },
      required: ['answer'],
    },
    read: answerField,
  };
}

/** The one `answer` field of a plain or JSON form: present, text, and alone. */
function answerField(content: Record<string, unknown> | undefined): { ok: true; text: string } | { ok: false; reason: string } {
  const stray = strayFields(content, ['answer']);
  if (stray) return { ok: false, reason: stray };
  const answer = content?.answer;
  // A blank answer is none (the chat and `wisp inquiries answer` take none either), ADR 0097.
  return typeof answer === 'string' && answer.trim() !== '' ? { ok: true, text: answer } : { ok: false, reason: 'it holds no answer text' };
}

