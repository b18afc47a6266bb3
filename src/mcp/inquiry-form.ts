// An inquiry as an MCP elicitation form, and the answer read back from it: a plain answer field, the model's schema
// when it is flat, or one JSON field validated against the schema (patterns by the linear-time engine, ADR 0017).
// Titles, descriptions and the question are model text, so they are made visible.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { hasHidden, visible } from '../core/visible.js';
import { INQUIRY_ANSWER_MAX_BYTES, type InquiryRequest } from '../escalation/types.js';
import { ajvLinearRegExp } from '../util/linear-regex.js';
import { silence } from './dialog-wording.js';

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
type Property = ElicitRequestFormParams['requestedSchema']['properties'][string];

/**
 * The model's schema as an elicitation form, when it is flat: an object whose properties are all strings (maybe an
 * enum of strings), numbers, integers or booleans. Titles and descriptions are model text, so they are made visible.
 */
export function flatForm(schema: Record<string, unknown> | undefined): ElicitRequestFormParams['requestedSchema'] | undefined {
  if (!schema || (schema.type !== undefined && schema.type !== 'object')) return undefined;
  const props = schema.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return undefined;
  const entries = Object.entries(props as Record<string, unknown>);
  if (entries.length === 0 || entries.length > 16) return undefined;
  const out: Record<string, Property> = {};
  for (const [name, raw] of entries) {
    if (!FIELD_NAME.test(name) || !raw || typeof raw !== 'object') return undefined;
    const p = raw as Record<string, unknown>;
    const label = {
      ...(typeof p.title === 'string' ? { title: visible(p.title, { maxChars: 100 }) } : {}),
      ...(typeof p.description === 'string' ? { description: visible(p.description, { maxChars: 300 }) } : {}),
    };
    const num = (k: string) => (typeof p[k] === 'number' ? { [k]: p[k] as number } : {});
    if (p.type === 'string') {
      if (Array.isArray(p.enum)) {
        // Choices are shown by the client and returned verbatim, so they cannot be escaped: a choice holding a
        // control, bidi or invisible character (or a very long one) makes the form not flat — answered as JSON.
        if (!p.enum.every(shownAsIs) || p.enum.length === 0) return undefined;
        out[name] = { type: 'string', ...label, enum: p.enum as string[], ...(shownAsIs(p.default) ? { default: p.default } : {}) };
      } else {
        const format = typeof p.format === 'string' && ['email', 'uri', 'date', 'date-time'].includes(p.format) ? { format: p.format as 'email' } : {};
        out[name] = {
          type: 'string',
          ...label,
          ...num('minLength'),
          maxLength: Math.min(typeof p.maxLength === 'number' ? p.maxLength : INQUIRY_ANSWER_MAX_BYTES, INQUIRY_ANSWER_MAX_BYTES),
          ...format,
          ...(shownAsIs(p.default) ? { default: p.default } : {}),
        };
      }
    } else if (p.type === 'number' || p.type === 'integer') {
      out[name] = { type: p.type, ...label, ...num('minimum'), ...num('maximum'), ...(typeof p.default === 'number' ? { default: p.default } : {}) };
    } else if (p.type === 'boolean') {
      out[name] = { type: 'boolean', ...label, ...(typeof p.default === 'boolean' ? { default: p.default } : {}) };
    } else {
      return undefined;
    }
  }
  const required = Array.isArray(schema.required) ? (schema.required as unknown[]).filter((r): r is string => typeof r === 'string' && r in out) : [];
  return { type: 'object', properties: out, required };
}

/** A string the client may show without escaping: short, with nothing visible() would escape. */
function shownAsIs(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 200 && !hasHidden(v) && !v.includes('\n');
}

export interface InquiryForm {
  readonly message: string;
  readonly requestedSchema: ElicitRequestFormParams['requestedSchema'];
  /** Turns accepted content into the answer text, or says why it is not an answer. */
  readonly read: (content: Record<string, unknown> | undefined) => { ok: true; text: string } | { ok: false; reason: string };
}

// The SDK's default ajv settings, with JSON-schema `pattern`s run by the linear-time engine (ADR 0017): a model's
// schema cannot make the answer's validation backtrack for ever.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const validator = new AjvJsonSchemaValidator(
  addFormats(new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp: ajvLinearRegExp } })),
);

export function inquiryForm(request: InquiryRequest, timeoutMs: number, queueId?: string): InquiryForm {
  const head = ['wisp: the model has a question for you', '', 'Question:', visible(request.question, { maxChars: 2000, multiline: true }), ''];
  const tail = ['Decline if you would rather not answer.', silence(timeoutMs, 'no answer')];
  if (queueId) tail.push(`You can also answer in a terminal: wisp inquiries answer ${queueId} TEXT`);

  const flat = flatForm(request.schema);
  if (flat) {
    return {
      message: [...head, 'Answer in the fields below.', ...tail].join('\n'),
      requestedSchema: flat,
      read: (content) => ({ ok: true, text: JSON.stringify(content ?? {}) }),
    };
  }
  if (request.schema) {
    let check: ((value: unknown) => { valid: boolean; errorMessage?: string }) | undefined;
    try {
      check = validator.getValidator(request.schema as Parameters<AjvJsonSchemaValidator['getValidator']>[0]);
    } catch {
      check = undefined; // a schema ajv cannot compile: the answer must still be JSON
    }
    const shown = visible(JSON.stringify(request.schema), { maxChars: 1500 });
    return {
      message: [...head, 'Answer with JSON that matches this schema:', shown, '', ...tail].join('\n'),
      requestedSchema: {
        type: 'object',
        properties: { answer: { type: 'string', title: 'Answer (JSON)', description: 'JSON matching the schema in the message', maxLength: INQUIRY_ANSWER_MAX_BYTES } },
        required: ['answer'],
      },
      read: (content) => {
        const raw = typeof content?.answer === 'string' ? content.answer : '';
        let value: unknown;
        try {
          value = JSON.parse(raw);
        } catch {
          return { ok: false, reason: 'the answer was not JSON, and the question asked for JSON matching a schema' };
        }
        const result = check?.(value);
        if (result && !result.valid) return { ok: false, reason: `the answer does not match the requested schema: ${result.errorMessage ?? 'invalid'}` };
        return { ok: true, text: JSON.stringify(value) };
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
    read: (content) => ({ ok: true, text: typeof content?.answer === 'string' ? content.answer : '' }),
  };
}

