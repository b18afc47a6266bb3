// How config layers combine: defaults < user < project. The project layer comes from whatever repository wisp is
// started in — text an attacker may have written — so it may only make the gate stricter. Every project key is
// judged against the value the user's layer produced; what would loosen is ignored with a warning naming it.
import { thresholdRank } from '../core/levels.js';
import type { Config } from './schema.js';

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

/** Judges one key: may the project change `base` to `proposed`, and to what value? `note` reports a part dropped. */
type TightenRule = (base: unknown, proposed: unknown, note: (subPath: string, reason: string) => void) => Verdict;

const num = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

const notAbove: TightenRule = (b, p) => (num(p) <= num(b) ? { accept: p } : { reject: 'weakens' });
const onlyTo =
  (allowed: unknown): TightenRule =>
  (_b, p) =>
    p === allowed ? { accept: p } : { reject: 'weakens' };
const union: TightenRule = (b, p) => ({ accept: [...new Set([...strings(b), ...strings(p)])] });

/**
 * The keys a project may set, and how. Anything not listed is reserved for the user's own config — including keys
 * added to the schema later, so a new setting is safe by default until someone decides how a repo may touch it.
 */
export const PROJECT_RULES: Readonly<Record<string, TightenRule>> = {
  // A lower threshold asks more (core/levels.ts); an unknown value on either side is refused.
  'approval.threshold': (b, p) => {
    const [rb, rp] = [thresholdRank(String(b)), thresholdRank(String(p))];
    return rb >= 0 && rp >= 0 && rp <= rb ? { accept: p } : { reject: 'weakens' };
  },
  'approval.persistDays': notAbove,
  // A shorter wait refuses sooner (no answer = no); 0 means wait forever, the loosest of all.
  'escalation.timeoutSeconds': (b, p) =>
    num(p) !== 0 && (num(b) === 0 || num(p) <= num(b)) ? { accept: p } : { reject: 'weakens' },
  'escalation.pendingSeconds': notAbove,
  'sandbox.enabled': onlyTo(true),
  'sandbox.allowNetwork': onlyTo(false),
  // Narrowing the writable paths is fine; adding one would open the sandbox.
  'sandbox.writablePaths': (b, p) =>
    strings(p).every((x) => strings(b).includes(x)) ? { accept: p } : { reject: 'weakens' },
  // Deny patterns are added to the user's, never replace them.
  'policy.deny': union,
  // A non-empty allow list restricts. With none yet, any list tightens; with one, only a subset of it does (a
  // second list can't express "must match both").
  'policy.allow': (b, p) => {
    const base = strings(b);
    const next = strings(p);
    if (base.length === 0) return next.length > 0 ? { accept: next } : { accept: base };
    return next.length > 0 && next.every((x) => base.includes(x)) ? { accept: next } : { reject: 'weakens' };
  },
  // Rules only raise levels, so adding them is safe — but `ask` is a headline shown to the person as trusted,
  // authored text; from a repo it could be used to talk them into approving, so it is dropped.
  'policy.rules': (b, p, note) => {
    const added = (Array.isArray(p) ? p : []).map((rule, i) => {
      if (isPlainObject(rule) && 'ask' in rule) {
        note(`[${i}].ask`, 'approval headlines come only from the user config');
        const { ask: _dropped, ...rest } = rule;
        return rest;
      }
      return rule;
    });
    return { accept: [...(Array.isArray(b) ? b : []), ...added] };
  },
  'commands.timeoutSeconds': notAbove,
  'commands.maxOutputBytes': notAbove,
  'tools.disabled': union,
  'tools.maxRounds': notAbove,
  'ollama.timeoutSeconds': notAbove,
  'openai.timeoutSeconds': notAbove,
  // A project may silence notifications, never turn them on (each one starts a program).
  'notifications.enabled': onlyTo(false),
};

export interface ProjectMerge {
  /** The user-level config with the accepted project keys applied (to be parsed with ConfigSchema). */
  readonly value: Record<string, unknown>;
  readonly warnings: string[];
}

/**
 * Applies a project layer to `base` (defaults < user, already parsed) under {@link PROJECT_RULES}. A key whose
 * value equals the base's is a no-op and draws no warning.
 */
export function applyProjectLayer(base: Config, layer: ConfigLayer, source: string): ProjectMerge {
  const value = structuredClone(base) as unknown as Record<string, unknown>;
  const warnings: string[] = [];
  const visit = (path: string[], proposed: unknown): void => {
    const key = path.join('.');
    const current = getPath(value, path);
    if (sameJson(current, proposed)) return;
    const rule = PROJECT_RULES[key];
    if (rule === undefined) {
      warnings.push(`ignored ${key} from ${source}: a project config may not set it (only the user config can)`);
      return;
    }
    const verdict = rule(current, proposed, (sub, reason) => warnings.push(`ignored ${key}${sub} from ${source}: ${reason}`));
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
