// How config layers combine: defaults < user < project. The project layer comes from whatever repository wisp is
// started in — text an attacker may have written — so it may only make the gate stricter. Every project key is
// judged against the value the user's layer produced, in the direction config/strictness.ts gives it; what would
// loosen is ignored with a warning naming it.
import type { Config } from './schema.js';
import { loosens, strictnessOf, strings } from './strictness.js';

/** One validated layer: a deep-partial config object as read from a file (no defaults filled in). */
export type ConfigLayer = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `over` on top of `base`: objects merge key by key; arrays and scalars replace. Neither input is modified. */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const prev = out[key];
    out[key] = isPlainObject(prev) && isPlainObject(value) ? deepMerge(prev, value) : value;
  }
  return out;
}

/** Dotted key path for messages: `approval.threshold`, `policy.rules[1].match`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out === '' ? '(top level)' : out;
}


type Verdict =
  | { readonly accept: unknown }
  | { readonly reject: 'weakens' | 'reserved' };

/**
 * Judges one key of a project layer against the value the user's layer produced, by the key's row in
 * config/strictness.ts. A key with no row, or a user-only row, is reserved for the user's own config. `note`
 * reports a part dropped.
 */
function judge(key: string, base: unknown, proposed: unknown, note: (subPath: string, reason: string) => void): Verdict {
  const row = strictnessOf(key);
  if (row === undefined || row.project === 'user-only') return { reject: 'reserved' };
  if (row.project === 'add') return { accept: union(base, proposed) };
  if (row.project === 'append') return { accept: appendRules(base, proposed, note) };
  return loosens(row.compare, base, proposed) ? { reject: 'weakens' } : { accept: proposed };
}

/** Names a project adds to the user's (deny patterns, disabled tools): never replacing them. */
function union(base: unknown, proposed: unknown): string[] {
  return [...new Set([...strings(base), ...strings(proposed)])];
}

/**
 * Rules only raise levels, so adding them is safe — but `ask` is a headline shown to the person as trusted,
 * authored text; from a repo it could be used to talk them into approving, so it is dropped.
 */
function appendRules(base: unknown, proposed: unknown, note: (subPath: string, reason: string) => void): unknown[] {
  const added = (Array.isArray(proposed) ? proposed : []).map((rule: unknown, i) => {
    if (isPlainObject(rule) && 'ask' in rule) {
      note(`[${i}].ask`, 'approval headlines come only from the user config');
      const { ask: _dropped, ...rest } = rule;
      return rest;
    }
    return rule;
  });
  return [...(Array.isArray(base) ? base : []), ...added];
}

export interface ProjectMerge {
  /** The user-level config with the accepted project keys applied (to be parsed with ConfigSchema). */
  readonly value: Record<string, unknown>;
  readonly warnings: string[];
}

/**
 * Applies a project layer to `base` (defaults < user, already parsed) by config/strictness.ts. A key whose
 * value equals the base's is a no-op and draws no warning.
 */
export function applyProjectLayer(base: Config, layer: ConfigLayer, source: string): ProjectMerge {
  const value = structuredClone(base) as unknown as Record<string, unknown>;
  const warnings: string[] = [];
  const visit = (path: string[], proposed: unknown): void => {
    const key = path.join('.');
    const current = getPath(value, path);
    if (sameJson(current, proposed)) return;
    const verdict = judge(key, current, proposed, (sub, reason) => warnings.push(`ignored ${key}${sub} from ${source}: ${reason}`));
    if ('accept' in verdict) setPath(value, path, verdict.accept);
    else if (verdict.reject === 'weakens') {
      warnings.push(`ignored ${key} from ${source}: a project config may only tighten the gate`);
    } else {
      warnings.push(`ignored ${key} from ${source}: a project config may not set it (only the user config can)`);
    }
  };
  walkLeaves(layer, [], visit);
  return { value, warnings };
}

/** Calls `visit` for every non-object value (scalars and arrays) in `obj`, with its key path. */
function walkLeaves(obj: Record<string, unknown>, prefix: string[], visit: (path: string[], v: unknown) => void): void {
  for (const [key, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    if (isPlainObject(v)) walkLeaves(v, [...prefix, key], visit);
    else visit([...prefix, key], v);
  }
}

function getPath(obj: Record<string, unknown>, path: readonly string[]): unknown {
  let cur: unknown = obj;
  for (const seg of path) {
    if (!isPlainObject(cur)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

function setPath(obj: Record<string, unknown>, path: readonly string[], v: unknown): void {
  let cur = obj;
  for (const seg of path.slice(0, -1)) {
    const next = cur[seg];
    if (!isPlainObject(next)) cur[seg] = {};
    cur = cur[seg] as Record<string, unknown>;
  }
  cur[path[path.length - 1] as string] = v;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
