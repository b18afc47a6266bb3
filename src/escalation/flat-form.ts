// Which inquiry schemas are flat enough to answer as a form, decided once for every face (ADR 0070): the chat draws
// the fields, the MCP dialog sends them as an elicitation form. A schema that is not flat is answered as text (JSON
// checked against it). Everything here is model text; each face makes it visible where it shows it.
import { hasHidden } from '../core/visible.js';

export type FlatFieldType = 'string' | 'number' | 'integer' | 'boolean';

export interface FlatField {
  readonly name: string;
  readonly type: FlatFieldType;
  readonly required: boolean;
  readonly title?: string;
  readonly description?: string;
  /** The only answers allowed: strings on a string field, numbers on a number or integer field. */
  readonly choices?: readonly string[] | readonly number[];
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: 'email' | 'uri' | 'date' | 'date-time';
  readonly default?: string | number | boolean;
}

/** More fields than fit a 24-line terminal beside the question is a questionnaire: answered as JSON instead. */
export const FLAT_FORM_MAX_FIELDS = 12;

/** A field name any face can show and send back unescaped. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
const FORMATS: readonly string[] = ['email', 'uri', 'date', 'date-time'];

/**
 * The fields of a flat schema — an object (or untyped) schema with 1 to {@link FLAT_FORM_MAX_FIELDS} properties,
 * each a string, number, integer or boolean, named plainly — or undefined when it is absent or not flat. An enum a
 * face could not show as-is (a choice with a hidden character, a mixed or empty list) makes the schema not flat
 * rather than being dropped, so no constraint is lost.
 */
export function flatFields(schema: Record<string, unknown> | undefined): FlatField[] | undefined {
  if (!schema || (schema.type !== undefined && schema.type !== 'object')) return undefined;
  const props = schema.properties;
  if (!props || typeof props !== 'object' || Array.isArray(props)) return undefined;
  const entries = Object.entries(props as Record<string, unknown>);
  if (entries.length === 0 || entries.length > FLAT_FORM_MAX_FIELDS) return undefined;
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const fields: FlatField[] = [];
  for (const [name, raw] of entries) {
    if (!FIELD_NAME.test(name) || !raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
    const field = flatField(name, raw as Record<string, unknown>, required.includes(name));
    if (!field) return undefined;
    fields.push(field);
  }
  return fields;
}

function flatField(name: string, p: Record<string, unknown>, required: boolean): FlatField | undefined {
  const type = p.type;
  if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean') return undefined;
  const num = (k: string): Record<string, number> => (typeof p[k] === 'number' && Number.isFinite(p[k]) ? { [k]: p[k] } : {});
  const base: Pick<FlatField, 'name' | 'type' | 'required' | 'title' | 'description'> = {
    name,
    type,
    required,
    ...(typeof p.title === 'string' ? { title: p.title } : {}),
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
  };
  const choices = p.enum === undefined ? undefined : enumOf(type, p.enum);
  if (choices === null) return undefined;
  const withChoices = choices ? { choices } : {};
  switch (type) {
    case 'string':
      return {
        ...base,
        ...withChoices,
        ...num('minLength'),
        ...num('maxLength'),
        ...(!choices && typeof p.format === 'string' && FORMATS.includes(p.format) ? { format: p.format as FlatField['format'] } : {}),
        ...(shownAsIs(p.default) ? { default: p.default } : {}),
      };
    case 'number':
    case 'integer':
      return { ...base, ...withChoices, ...num('minimum'), ...num('maximum'), ...(typeof p.default === 'number' ? { default: p.default } : {}) };
    case 'boolean':
      return { ...base, ...(typeof p.default === 'boolean' ? { default: p.default } : {}) };
  }
}

/** A field's enum as choices; null when it cannot be one (empty, the wrong types, not shown as-is, on a boolean). */
function enumOf(type: FlatFieldType, values: unknown): readonly string[] | readonly number[] | null {
  if (!Array.isArray(values) || values.length === 0) return null;
  if (type === 'string') return values.every(shownAsIs) ? (values as string[]) : null;
  if (type === 'number') return values.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (values as number[]) : null;
  if (type === 'integer') return values.every((v) => Number.isInteger(v)) ? (values as number[]) : null;
  return null;
}

/**
 * A string a face may show without escaping and get back verbatim: short, one line, nothing visible() would
 * escape. Choices are returned as picked, so they cannot be escaped for display.
 */
export function shownAsIs(v: unknown): v is string {
  return typeof v === 'string' && v.length <= 200 && !hasHidden(v) && !v.includes('\n');
}
