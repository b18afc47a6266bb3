// A value typed to `wisp config set`: read by its key's type, then checked beyond the schema's shape (a model spec
// must parse and a script file load; a server address must be http(s) with a host), so a value that would make every
// later run fail is refused when it is written.
import { ConfigError } from '../core/errors.js';
import { BACKENDS, parseModelSpec } from '../model/index.js';
import { loadScript } from '../model/script.js';
import { ModelError } from '../model/types.js';
import type { KeyInfo } from './keys.js';
import { isPlainObject } from './merge.js';
import { acceptedUrl, httpUrlProblem } from './url.js';

/**
 * Reads VALUE by the key's type: numbers and booleans from their usual spellings, enum and string values as
 * typed (a JSON-quoted string is unquoted), arrays and sections as JSON. Range and format are left to the schema.
 */
export function parseValue(info: KeyInfo, text: string): unknown {
  const bad = (why: string): never => {
    throw new ConfigError(`invalid value for ${info.key}: ${why}; nothing was written`);
  };
  switch (info.type) {
    case 'integer':
    case 'number': {
      const t = text.trim();
      if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) bad(`'${text}' is not a number${rangeText(info)}`);
      const n = Number(t);
      if (!Number.isFinite(n)) bad(`'${text}' is not a finite number`);
      if (info.type === 'integer' && !Number.isInteger(n)) bad(`'${text}' is not a whole number${rangeText(info)}`);
      if ((info.minimum !== undefined && n < info.minimum) || (info.maximum !== undefined && n > info.maximum)) {
        bad(`${n} is out of range${rangeText(info)}`);
      }
      return n;
    }
    case 'boolean': {
      const t = text.trim().toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(t)) return true;
      if (['false', 'no', 'off', '0'].includes(t)) return false;
      return bad(`'${text}' is not true or false`);
    }
    case 'enum': {
      const v = unquote(text);
      if (!info.options?.includes(v)) bad(`'${v}' is not one of ${info.options?.join(', ')}`);
      return v;
    }
    case 'string':
      return unquote(text);
    case 'array':
    case 'object': {
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        const example = info.type === 'array' ? `'["one", "two"]'` : `'{"key": "value"}'`;
        return bad(`${info.key} takes JSON ${info.type === 'array' ? 'array' : 'object'}, e.g. ${example}`);
      }
      if (info.type === 'array' && !Array.isArray(v)) bad('expected a JSON array');
      if (info.type === 'object' && !isPlainObject(v)) bad('expected a JSON object');
      return v;
    }
  }
}

function rangeText(info: KeyInfo): string {
  if (info.minimum !== undefined && info.maximum !== undefined) return ` (${info.minimum}–${info.maximum})`;
  if (info.minimum !== undefined) return ` (at least ${info.minimum})`;
  if (info.maximum !== undefined) return ` (at most ${info.maximum})`;
  return '';
}

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    try {
      const v: unknown = JSON.parse(text);
      if (typeof v === 'string') return v;
    } catch {
      /* not JSON: take it as typed */
    }
  }
  return text;
}

/** The keys that hold a model server's address, with an example of each. */
const URL_KEYS: Record<string, string> = { 'ollama.baseURL': 'http://127.0.0.1:11434', 'openai.baseURL': 'http://127.0.0.1:8080/v1' };

/**
 * Checks that go beyond the schema's shape, so a value that would make every later run fail is refused when it is
 * written: a model spec must parse and a script file must load; an address must be http(s) with a host. Returns
 * the value to store: a script path is made absolute, since later runs start in other directories.
 */
export function checkValue(info: KeyInfo, value: unknown, cwd: string): unknown {
  if (typeof value !== 'string') return value;
  const refuse = (why: string, accepted: string): never => {
    throw new ConfigError(`invalid value for ${info.key}: ${why.replace(/\.$/, '')}. ${info.key} takes ${accepted}. Nothing was written`);
  };
  const example = URL_KEYS[info.key];
  if (example !== undefined) {
    const problem = httpUrlProblem(value);
    if (problem) refuse(problem, acceptedUrl(example));
    return value;
  }
  if (info.key !== 'model') return value;
  const forms = `${BACKENDS.map((b) => (b === 'script' ? 'script:PATH' : `${b}:NAME`)).join(', ')} (a bare NAME means ollama:NAME), e.g. ollama:qwen3:8b`;
  if (value.trim() === '') refuse('the model spec is empty', forms);
  try {
    const spec = parseModelSpec(value);
    if (spec.backend !== 'script') return value.trim();
    return `script:${loadScript(spec.name, cwd).path}`;
  } catch (err) {
    if (err instanceof ModelError) {
      // The hints speak of `-m`; here the spec is a config value. The generic "Write -m …" hint is `forms`.
      const hint = err.hint && !err.hint.startsWith('Write -m') ? ` (${err.hint.replace(/-m /g, '').replace(/\.$/, '')})` : '';
      return refuse(`${err.summary}${hint}`, forms);
    }
    throw err;
  }
}
