// Regular expressions that run in time linear in the text, whatever the pattern: every pattern wisp runs on untrusted
// text (operator deny/allow/rules patterns, `pattern` keywords in a model's JSON schema, and any built-in check that
// wants the guarantee) goes through here. The engine is re2js, a pure-JS port of RE2 (ADR 0017): no backtracking, so
// `(a+)+$` on 16 KiB of `a`s takes about a millisecond instead of forever. Patterns are written in JavaScript syntax
// and translated; what RE2 cannot run in linear time (lookahead/lookbehind, backreferences) is refused with a reason,
// never silently changed. Known differences from JavaScript: `\s`, `\w`, `\d`, `\b` are ASCII-only.
//
// re2js is loaded on first use (synchronously, through require) so that a run with no patterns pays nothing for it.
import { createRequire } from 'node:module';
import type { RE2JS as RE2JSClass } from 're2js';

type Engine = typeof RE2JSClass;
let engine: Engine | undefined;

function re2(): Engine {
  if (engine === undefined) {
    const req = createRequire(import.meta.url);
    engine = (req('re2js') as { RE2JS: Engine }).RE2JS;
  }
  return engine;
}

/** A compiled linear-time pattern. `test` finds a match anywhere (like RegExp#test without flags). */
export interface LinearRegex {
  readonly source: string;
  test(text: string): boolean;
}

export interface LinearOptions {
  /** Case-insensitive matching (the `i` flag). */
  readonly ignoreCase?: boolean;
}

export class LinearRegexError extends Error {
  constructor(
    readonly source: string,
    readonly why: string,
  ) {
    super(why);
    this.name = 'LinearRegexError';
  }
}

/**
 * Constructs RE2 would accept with a different meaning after translation, or that JavaScript accepts and RE2 cannot run
 * in linear time: found on the raw JS source so the refusal names what the operator wrote.
 */
function unsupported(source: string): string | undefined {
  // Walk escapes so `\\1` (a literal backslash then 1) is not mistaken for a backreference.
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const n = source[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(n)) return `backreference \\${n} cannot run in linear time`;
      if (!inClass && n === 'k' && source[i + 2] === '<') return 'named backreference \\k<…> cannot run in linear time';
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (source[i + 1] === '^') i++;
      continue;
    }
    if (c === '(' && source[i + 1] === '?') {
      const k = source.slice(i + 2, i + 4);
      if (k.startsWith('=') || k.startsWith('!')) return 'lookahead (?= or (?! cannot run in linear time';
      if (k === '<=' || k === '<!') return 'lookbehind (?<= or (?<! cannot run in linear time';
    }
  }
  return undefined;
}

function build(source: string, opts: LinearOptions): LinearRegex {
  const bad = unsupported(source);
  if (bad !== undefined) throw new LinearRegexError(source, bad);
  // JavaScript first: a pattern must also be valid as written (the docs promise JavaScript syntax).
  try {
    new RegExp(source, opts.ignoreCase ? 'i' : '');
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new LinearRegexError(source, message.slice(message.lastIndexOf(': ') + 2) || message);
  }
  const R = re2();
  let compiled: RE2JSClass;
  try {
    compiled = R.compile(R.translateRegExp(source), opts.ignoreCase ? R.CASE_INSENSITIVE : 0);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new LinearRegexError(source, `not supported by the linear-time engine: ${message.replace(/^error parsing regexp: /, '')}`);
  }
  return { source, test: (text: string) => compiled.test(text) };
}

const cache = new Map<string, LinearRegex | LinearRegexError>();

/** Compiles (cached); throws LinearRegexError naming why a pattern cannot be used. */
export function compileLinear(source: string, opts: LinearOptions = {}): LinearRegex {
  const key = (opts.ignoreCase ? 'i:' : ':') + source;
  let hit = cache.get(key);
  if (hit === undefined) {
    try {
      hit = build(source, opts);
    } catch (err) {
      hit = err instanceof LinearRegexError ? err : new LinearRegexError(source, String(err));
    }
    if (cache.size > 1024) cache.clear();
    cache.set(key, hit);
  }
  if (hit instanceof LinearRegexError) throw hit;
  return hit;
}

/** The compiled pattern, or null when it cannot be used (callers fail closed on null). */
export function linearOrNull(source: string, opts: LinearOptions = {}): LinearRegex | null {
  try {
    return compileLinear(source, opts);
  } catch {
    return null;
  }
}

/** Why `source` cannot be used, or undefined when it can: for config and schema validation messages. */
export function linearRegexProblem(source: string, opts: LinearOptions = {}): string | undefined {
  try {
    compileLinear(source, opts);
    return undefined;
  } catch (err) {
    return err instanceof LinearRegexError ? err.why : String(err);
  }
}

/**
 * The first `pattern` keyword or `patternProperties` key in a JSON schema (a model's `ask_operator` schema) that the
 * linear-time engine cannot run, as `where: why`; undefined when every one can. Patterns use the `u` flag in JSON
 * Schema; they are checked as written. A schema too deep or too large to walk is refused too (fail closed).
 */
export function schemaPatternProblem(schema: unknown): string | undefined {
  let budget = 10_000;
  const walk = (node: unknown, path: string, depth: number): string | undefined => {
    if (--budget < 0 || depth > 64) return `${path || '/'}: the schema is too large or too deeply nested to check`;
    if (Array.isArray(node)) {
      for (const [i, v] of node.entries()) {
        const p = walk(v, `${path}/${i}`, depth + 1);
        if (p !== undefined) return p;
      }
      return undefined;
    }
    if (node === null || typeof node !== 'object') return undefined;
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
      const here = `${path}/${k}`;
      if (k === 'pattern' && typeof v === 'string') {
        const why = linearRegexProblem(v);
        if (why !== undefined) return `${here}: pattern ${JSON.stringify(v)} cannot be used: ${why}`;
      }
      if (k === 'patternProperties' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        for (const key of Object.keys(v)) {
          const why = linearRegexProblem(key);
          if (why !== undefined) return `${here}: pattern ${JSON.stringify(key)} cannot be used: ${why}`;
        }
      }
      const p = walk(v, here, depth + 1);
      if (p !== undefined) return p;
    }
    return undefined;
  };
  return walk(schema, '', 0);
}

/** A RegExp engine for ajv's `code.regExp` option: JSON-schema `pattern`s run in linear time (throws when they cannot). */
export const ajvLinearRegExp = Object.assign((pattern: string): { test(s: string): boolean } => compileLinear(pattern), {
  code: 'wispLinearRegExp',
});
