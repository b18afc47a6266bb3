// Which way each config key loosens, in one table (ADR 0069). Two readers: the merge (config/merge.ts) lets a
// project layer move a key only the strict way, and `wisp config set|unset` (config/weaken.ts) names every way a
// person's change loosens the gate. Both take the direction from here, so they cannot disagree about a key.
import { DEFAULT_DENY } from '../core/deny-defaults.js';
import { thresholdRank } from '../core/levels.js';

/** How two values of a key are compared; each says which way is the loose one. */
export type Compare =
  /** A threshold name: a higher rank asks less (core/levels.ts); an unknown name on either side is loose. */
  | { readonly kind: 'rank' }
  /** A number where more is looser (a count of days, a timeout, a size). */
  | { readonly kind: 'at-most' }
  /** A number where less is looser (how much history is kept). */
  | { readonly kind: 'at-least' }
  /** A wait in seconds where 0 means forever, the loosest of all. */
  | { readonly kind: 'wait' }
  /** Any value other than `safe` is loose (a switch whose off or on side is the strict one). */
  | { readonly kind: 'only'; readonly safe: unknown }
  /** Moving to `loose` is loose; every other value is not. */
  | { readonly kind: 'never'; readonly loose: unknown }
  /** A list where an added entry is loose (places commands may write). */
  | { readonly kind: 'no-additions' }
  /** A list where a removed entry is loose (deny patterns, rules, disabled tools). */
  | { readonly kind: 'no-removals' }
  /** A list that restricts when non-empty: emptying it or adding to it is loose. */
  | { readonly kind: 'allow-list' };

/**
 * What a project layer may do with the key. `tighten`: set it only the strict way; `add`: its names join the
 * user's (a union); `append`: its rules follow the user's (headlines dropped, config/merge.ts); `user-only`: never,
 * only the user's config sets it.
 */
export type ProjectMay = 'tighten' | 'add' | 'append' | 'user-only';

interface RowBase {
  /** Dotted path in the config. */
  readonly key: string;
  readonly compare: Compare;
  readonly project: ProjectMay;
}

/** A key whose loose way lets more through the gate: what runs without a person, writes, reaches the network. */
export interface GateRow extends RowBase {
  readonly effect: 'gate';
  /** The phrase `wisp config set` prints when a change loosens this key. */
  readonly phrase: (before: unknown, after: unknown) => string;
}

/**
 * A bound on what is spent (time, bytes, rounds, programs started). Its loose way lets the same commands run
 * longer, not other commands, so a person's change is not called a weakening (ADR 0010); a project may still only
 * lower it.
 */
export interface BoundRow extends RowBase {
  readonly effect: 'bound';
}

export type StrictnessRow = GateRow | BoundRow;

const num = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);
export const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const json = (v: unknown): string => JSON.stringify(v);

/**
 * Does `after` loosen `before` by `compare`? Values as read (a project layer is checked but not yet merged). No
 * change loosens nothing (not even a wait that stays forever).
 */
export function loosens(compare: Compare, before: unknown, after: unknown): boolean {
  if (json(before) === json(after)) return false;
  switch (compare.kind) {
    case 'rank': {
      const [rb, ra] = [thresholdRank(String(before)), thresholdRank(String(after))];
      return !(rb >= 0 && ra >= 0 && ra <= rb);
    }
    case 'at-most':
      return !(num(after) <= num(before));
    case 'at-least':
      return !(num(after) >= num(before));
    case 'wait':
      return !(num(after) !== 0 && (num(before) === 0 || num(after) <= num(before)));
    case 'only':
      return after !== compare.safe && after !== before;
    case 'never':
      return after === compare.loose && before !== compare.loose;
    case 'no-additions':
      return added(before, after).length > 0;
    case 'no-removals':
      return removed(before, after).length > 0;
    case 'allow-list': {
      const b = strings(before);
      const a = strings(after);
      return b.length > 0 && (a.length === 0 || a.some((x) => !b.includes(x)));
    }
  }
}

/** Entries of `after` not in `before` (compared as JSON, so rule objects work as names do). */
function added(before: unknown, after: unknown): unknown[] {
  const had = new Set(list(before).map(json));
  return list(after).filter((x) => !had.has(json(x)));
}

function removed(before: unknown, after: unknown): unknown[] {
  return added(after, before);
}

function abbreviate(s: string, max = 40): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const AUDIT_PHRASE = (): string => 'audit: less history is kept';

/**
 * Every key either a project may touch or whose loosening `config set` names, in the order phrases are printed.
 * A key not listed is user-only and never called a weakening — including keys added to the schema later, so a new
 * setting is safe by default until someone adds its row.
 */
export const STRICTNESS: readonly StrictnessRow[] = [
  {
    key: 'approval.threshold',
    compare: { kind: 'rank' },
    project: 'tighten',
    effect: 'gate',
    phrase: (b, a) =>
      a === 'never'
        ? 'approval.threshold never: nothing is asked, every command that passes the policy runs'
        : `approval.threshold ${String(b)} → ${String(a)}: fewer commands are asked about`,
  },
  {
    key: 'approval.persistDays',
    compare: { kind: 'at-most' },
    project: 'tighten',
    effect: 'gate',
    phrase: (b, a) => `approval.persistDays ${String(b)} → ${String(a)}: stored approvals last longer`,
  },
  {
    key: 'escalation.channel',
    compare: { kind: 'never', loose: 'auto' },
    project: 'user-only',
    effect: 'gate',
    phrase: () => 'escalation.channel auto: every approval is granted without asking anyone',
  },
  {
    key: 'sandbox.enabled',
    compare: { kind: 'only', safe: true },
    project: 'tighten',
    effect: 'gate',
    phrase: () => 'sandbox.enabled false: commands run unconfined',
  },
  {
    key: 'sandbox.allowNetwork',
    compare: { kind: 'only', safe: false },
    project: 'tighten',
    effect: 'gate',
    phrase: () => 'sandbox.allowNetwork true: commands can reach the network',
  },
  {
    key: 'sandbox.writablePaths',
    compare: { kind: 'no-additions' },
    project: 'tighten',
    effect: 'gate',
    phrase: (b, a) => `sandbox.writablePaths: commands can now write to ${strings(added(b, a)).join(', ')}`,
  },
  {
    key: 'policy.deny',
    compare: { kind: 'no-removals' },
    project: 'add',
    effect: 'gate',
    phrase: (b, a) => {
      const gone = strings(removed(b, a));
      const builtIn = gone.filter((p) => (DEFAULT_DENY as readonly string[]).includes(p)).length;
      const which =
        gone.length <= 2
          ? ` (${gone.map((p) => abbreviate(p)).join(', ')})`
          : builtIn > 0
            ? `, ${builtIn} of them built in (sudo, rm -rf /, piping into a shell …)`
            : '';
      return `policy.deny: ${plural(gone.length, 'deny pattern')} removed${which}`;
    },
  },
  {
    key: 'policy.allow',
    compare: { kind: 'allow-list' },
    project: 'tighten',
    effect: 'gate',
    phrase: (b, a) =>
      strings(a).length === 0
        ? 'policy.allow emptied: commands no longer have to match an allow pattern'
        : `policy.allow: more commands pass (${strings(added(b, a)).map((p) => abbreviate(p)).join(', ')})`,
  },
  {
    key: 'policy.rules',
    compare: { kind: 'no-removals' },
    project: 'append',
    effect: 'gate',
    phrase: (b, a) => {
      const gone = removed(b, a);
      const matches = gone.map((r) => abbreviate(String((r as { match?: unknown }).match)));
      return `policy.rules: ${plural(gone.length, 'rule')} removed (${matches.join(', ')})`;
    },
  },
  {
    key: 'tools.disabled',
    compare: { kind: 'no-removals' },
    project: 'add',
    effect: 'gate',
    phrase: (b, a) => `tools.disabled: the model gets ${strings(removed(b, a)).join(', ')} again`,
  },
  { key: 'audit.keepFiles', compare: { kind: 'at-least' }, project: 'user-only', effect: 'gate', phrase: AUDIT_PHRASE },
  { key: 'audit.maxFileBytes', compare: { kind: 'at-least' }, project: 'user-only', effect: 'gate', phrase: AUDIT_PHRASE },
  // Bounds: a project may only lower them; a person raising one is not warned (ADR 0010).
  { key: 'escalation.timeoutSeconds', compare: { kind: 'wait' }, project: 'tighten', effect: 'bound' },
  { key: 'escalation.pendingSeconds', compare: { kind: 'at-most' }, project: 'tighten', effect: 'bound' },
  { key: 'commands.timeoutSeconds', compare: { kind: 'at-most' }, project: 'tighten', effect: 'bound' },
  { key: 'commands.maxOutputBytes', compare: { kind: 'at-most' }, project: 'tighten', effect: 'bound' },
  { key: 'tools.maxRounds', compare: { kind: 'at-most' }, project: 'tighten', effect: 'bound' },
  { key: 'ollama.timeoutSeconds', compare: { kind: 'at-most' }, project: 'tighten', effect: 'bound' },
  { key: 'openai.timeoutSeconds', compare: { kind: 'at-most' }, project: 'tighten', effect: 'bound' },
  // Each notification starts a program: a project may silence them, never turn them on.
  { key: 'notifications.enabled', compare: { kind: 'only', safe: false }, project: 'tighten', effect: 'bound' },
];

/** The row of a dotted key, if it has one. */
export function strictnessOf(key: string): StrictnessRow | undefined {
  return STRICTNESS.find((row) => row.key === key);
}
