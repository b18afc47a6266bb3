// Whether an inquiry's answer text fits the schema the model asked with, decided once for every face that takes a
// typed answer (ADR 0097): the queue's answerers (`wisp inquiries answer`, the chat's watch), the asker that takes
// an answer file, and the MCP dialog's JSON field. A flat schema (flat-form.ts) is answered as the form would
// answer it — a JSON object of its fields, nothing else in it. JSON-schema `pattern`s run on the linear-time engine
// (ADR 0017), so a model's schema cannot make the check backtrack for ever. Imported lazily: ajv is not light.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { visible } from '../core/visible.js';
import { ajvLinearRegExp } from '../util/linear-regex.js';
import { flatFields } from './flat-form.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
// The MCP SDK's ajv settings, with patterns run by the linear-time engine. One instance per question: ajv keeps
// every schema it compiled, and two of a model's schemas with one `$id` would collide (the second not compiled).
const newAjv = (): Ajv => addFormats(new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp: ajvLinearRegExp } }));

export type Check = (value: unknown) => { valid: boolean; errorMessage?: string };

/** The schema compiled, or undefined when ajv cannot compile it (then only "is it JSON" is checked). */
export function compileSchema(schema: Record<string, unknown>): Check | undefined {
  const ajv = newAjv();
  let validate: ReturnType<Ajv['compile']>;
  try {
    validate = ajv.compile(schema);
  } catch {
    return undefined;
  }
  return (value) => (validate(value) ? { valid: true } : { valid: false, errorMessage: ajv.errorsText(validate.errors) });
}

/** Reads an answer text against a schema: the JSON value as text (normalised), or why it does not fit. */
export type AnswerCheck = (text: string) => { ok: true; text: string } | { ok: false; reason: string };

/** The checker for one question's schema (compiled once). */
export function answerChecker(schema: Record<string, unknown>): AnswerCheck {
  const check = compileSchema(schema);
  const fields = flatFields(schema)?.map((f) => f.name);
  return (text) => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { ok: false, reason: 'the answer is not JSON, and the question asked for JSON matching a schema' };
    }
    if (fields && (value === null || typeof value !== 'object' || Array.isArray(value))) {
      return { ok: false, reason: `the answer must be a JSON object with the fields ${fields.slice(0, 12).join(', ')}` };
    }
    if (fields) {
      const stray = Object.keys(value as object).filter((k) => !fields.includes(k));
      if (stray.length > 0) {
        const names = stray.slice(0, 5).map((k) => visible(k, { maxChars: 40 })).join(', ');
        return { ok: false, reason: `the answer holds fields the question did not ask for: ${names}` };
      }
    }
    const result = check?.(value);
    if (result && !result.valid) return { ok: false, reason: `the answer does not match the requested schema: ${result.errorMessage ?? 'invalid'}` };
    return { ok: true, text: JSON.stringify(value) };
  };
}

/** A typed answer's problem against `schema`, or undefined when it fits (or there is no schema). */
export function answerProblem(schema: Record<string, unknown> | undefined, text: string): string | undefined {
  if (!schema) return undefined;
  const r = answerChecker(schema)(text);
  return r.ok ? undefined : r.reason;
}
