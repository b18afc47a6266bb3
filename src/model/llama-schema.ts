// Tool schemas (JSON Schema from zod) turned into the subset node-llama-cpp compiles into a llama.cpp grammar.
// Unknown keywords are dropped; large length bounds are dropped too, because llama.cpp's grammar refuses repetition
// counts from 2000 up (and long bounded repetitions are slow to sample anyway): the tools check lengths themselves.
export type JsonSchemaLike = Record<string, unknown>;

/** The largest string/array bound kept in a grammar. */
export const MAX_GRAMMAR_BOUND = 1000;

const BASIC = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** Anything JSON: used where the source schema is `{}` or says nothing the grammar can express. */
const ANY: JsonSchemaLike = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'object', additionalProperties: true },
    { type: 'array' },
  ],
};

export function toGrammarSchema(schema: unknown): JsonSchemaLike {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return ANY;
  const s = schema as JsonSchemaLike;
  const type = s.type;
  const known =
    ('const' in s && isScalar(s.const)) ||
    (Array.isArray(s.enum) && s.enum.every(isScalar)) ||
    Array.isArray(s.anyOf) ||
    Array.isArray(s.oneOf) ||
    type === 'object' ||
    type === 'array' ||
    (typeof type === 'string' && BASIC.has(type)) ||
    (Array.isArray(type) && type.length > 0 && type.every((t) => typeof t === 'string' && BASIC.has(t)));
  if (!known) return typeof s.description === 'string' ? { ...ANY, description: s.description } : ANY;
  // Keys keep their order: the model sees this schema in its prompt, as it saw the original in training.
  const out: JsonSchemaLike = {};
  for (const [key, value] of Object.entries(s)) {
    switch (key) {
      case 'description':
        if (typeof value === 'string') out.description = value;
        break;
      case 'type':
        out.type = value;
        break;
      case 'const':
      case 'enum':
        out[key] = value;
        break;
      case 'anyOf':
      case 'oneOf':
        out.oneOf = (value as unknown[]).map(toGrammarSchema);
        break;
      case 'properties':
        if (type === 'object' && value && typeof value === 'object') {
          out.properties = Object.fromEntries(Object.entries(value as JsonSchemaLike).map(([k, v]) => [k, toGrammarSchema(v)]));
        }
        break;
      case 'required':
        if (type === 'object' && Array.isArray(value)) out.required = value.filter((r) => typeof r === 'string');
        break;
      case 'additionalProperties':
        if (type === 'object') out.additionalProperties = value === false ? false : value === true || isEmpty(value) ? true : toGrammarSchema(value);
        break;
      case 'items':
        if (type === 'array') out.items = toGrammarSchema(value);
        break;
      case 'minLength':
      case 'maxLength':
        if (type === 'string') keepBound(out, key, value);
        break;
      case 'minItems':
      case 'maxItems':
        if (type === 'array') keepBound(out, key, value);
        break;
      default:
        break; // not expressible in a grammar: left out
    }
  }
  if (type === 'object' && out.additionalProperties === undefined) out.additionalProperties = out.properties === undefined;
  return out;
}

function keepBound(out: JsonSchemaLike, key: string, value: unknown): void {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_GRAMMAR_BOUND) out[key] = value;
}

function isScalar(v: unknown): v is string | number | boolean | null {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v);
}

function isEmpty(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Object.keys(v).length === 0;
}
