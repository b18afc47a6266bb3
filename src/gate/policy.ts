// The policy step. First the built-in deny list (src/gate/deny.ts: named entries checked on the parsed parts), then
// the operator's own deny/allow regexes from config. A deny anywhere refuses the whole line; a non-empty allow list
// must cover every part. Operator patterns run on the linear-time engine (src/util/linear-regex.ts, ADR 0017), and
// also see normalised forms so quoting, `\`, paths and wrappers cannot hide a program (`"sudo" ls`, `env sudo ls`).
import { visible } from '../core/visible.js';
import { type LinearRegex, linearOrNull } from '../util/linear-regex.js';
import { builtinDeny } from './deny.js';
import type { Part, PolicyResult } from './types.js';
import { basename, requote, roughSegments } from './words.js';
import { resolveCommand } from './wrappers.js';

export interface PolicyPatterns {
  readonly deny: readonly string[];
  readonly allow: readonly string[];
}

/** Per pattern list (the config's array): the patterns it was built from, and the joined expression. */
const combinedCache = new WeakMap<readonly string[], { readonly sources: readonly string[]; readonly re: LinearRegex | null }>();

/**
 * One expression that matches wherever any of `sources` does — a single scan of each text instead of one per
 * pattern, used only to skip the per-pattern loop when nothing matches at all. null when the patterns cannot be
 * joined without changing their meaning (an unusable one, named groups): then every pattern is tried.
 */
function combined(sources: readonly string[]): LinearRegex | null {
  const hit = combinedCache.get(sources);
  if (hit && hit.sources.length === sources.length && hit.sources.every((s, i) => s === sources[i])) return hit.re;
  let re: LinearRegex | null = null;
  if (sources.every((s) => linearOrNull(s) !== null && !/\(\?<[A-Za-z_$]/.test(s))) {
    re = linearOrNull(sources.map((s) => `(?:${s})`).join('|'));
  }
  combinedCache.set(sources, { sources: [...sources], re });
  return re;
}

/** The words of each command in a part: one list normally, one per rough segment for unparsed text. */
function commandWordLists(part: Part): string[][] {
  if (part.unparsed) return roughSegments(part.text);
  return [[...part.words]];
}

/** Quote-free spellings of a part: as written, then from each wrapper layer on, program as lower-case basename. */
export function normalisedForms(part: Part): string[] {
  const forms = new Set<string>();
  const piped = (part.pipeStage ?? 0) > 0;
  for (const words of commandWordLists(part)) {
    if (words.length === 0) continue;
    forms.add(words.map(requote).join(' '));
    const resolved = resolveCommand(words);
    for (const at of resolved.layers) {
      const rest = resolved.words.slice(at);
      const program = basename(rest[0] ?? '').toLowerCase();
      const form = [program, ...rest.slice(1).map(requote)].join(' ');
      forms.add(form);
      if (piped) forms.add('| ' + form);
    }
  }
  return [...forms];
}

/** The unquoted spelling of a part as written (no wrapper peeling): what allow patterns may also match. */
function plainForm(part: Part): string {
  return part.words.map(requote).join(' ');
}

/** Longest operator pattern shown whole in a refusal; a longer one is named by its index and length only. */
export const MAX_SHOWN_PATTERN = 120;

/**
 * How a refusal names the operator's entry `key[index]`: its index and its text, made visible, whole — or, when
 * too long, its index and length, so a reason is never cut in the middle of a regex.
 */
export function describePattern(key: string, index: number, source: string): string {
  const shown = visible(source, { maxChars: 100_000 });
  if (shown.length <= MAX_SHOWN_PATTERN) return `${key}[${index}] \`${shown}\``;
  return `${key}[${index}] (a ${source.length}-character pattern; see wisp config get ${key})`;
}

/** The operator's deny patterns (`policy.deny`, not empty) over the line and its parts: the refusal, or undefined. */
function operatorDeny(line: string, parts: readonly Part[], deny: readonly string[]): PolicyResult | undefined {
  // The line as written and with continuations joined (a superset of texts only ever adds refusals).
  const lineTexts = [line];
  const joined = line.replace(/\\\r?\n/g, '');
  if (joined !== line) lineTexts.push(joined);

  // Each part's texts (as written, then its normalised forms) are computed once, not once per pattern.
  // A part's text is often the line itself: each distinct text is scanned once by the joined expression.
  const partTexts = parts.map((part) => [...new Set([part.text, ...normalisedForms(part)])].filter((t) => !lineTexts.includes(t)));
  const any = combined(deny);
  const mayDeny = any === null || [...new Set([...lineTexts, ...partTexts.flat()])].some((t) => any.test(t));
  if (!mayDeny) return undefined;
  for (const [index, source] of deny.entries()) {
    const rule = `policy.deny[${index}]`;
    const re = linearOrNull(source);
    if (re === null) return { verdict: 'denied', reason: `${describePattern('policy.deny', index, source)} cannot be used (fix or remove it)`, rule };
    const reason = `matches the operator's deny pattern ${describePattern('policy.deny', index, source)}`;
    if (lineTexts.some((t) => re.test(t))) return { verdict: 'denied', reason, rule };
    for (let i = 0; i < parts.length; i++) {
      if (partTexts[i]!.some((t) => re.test(t))) return { verdict: 'denied', reason, rule, part: parts[i]!.text };
    }
  }
  return undefined;
}

export function checkPolicy(line: string, parts: readonly Part[], policy: PolicyPatterns): PolicyResult {
  const builtin = builtinDeny(line, parts);
  if (builtin !== undefined) {
    return { verdict: 'denied', reason: builtin.sentence, rule: builtin.name, ...(builtin.part !== line ? { part: builtin.part } : {}) };
  }

  if (policy.deny.length > 0) {
    const denied = operatorDeny(line, parts, policy.deny);
    if (denied !== undefined) return denied;
  }

  if (policy.allow.length > 0) {
    const allow = policy.allow.map((s) => linearOrNull(s));
    for (const part of parts) {
      const texts = [part.text, plainForm(part)];
      const ok = allow.some((re) => re !== null && texts.some((t) => re.test(t)));
      if (!ok) return { verdict: 'denied', reason: 'matches none of the operator\'s allow patterns (policy.allow)', rule: 'policy.allow', part: part.text };
    }
  }
  return { verdict: 'allowed' };
}
