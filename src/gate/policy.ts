// The policy step: operator deny/allow regexes. A deny match anywhere refuses the whole line; a non-empty allow list
// must cover every part. Deny patterns also see normalised forms so quoting, `\`, paths and wrappers cannot hide a
// program (`"sudo" ls`, `s\udo ls`, `/usr/bin/sudo ls`, `env sudo ls`).
import type { Part, PolicyResult } from './types.js';
import { basename, requote, roughSegments } from './words.js';
import { resolveCommand } from './wrappers.js';

export interface PolicyPatterns {
  readonly deny: readonly string[];
  readonly allow: readonly string[];
}

const compiled = new Map<string, RegExp | null>();

/** Compiles once; an invalid pattern yields null (config validation normally rejects it first). */
function compile(source: string): RegExp | null {
  let re = compiled.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(source);
    } catch {
      re = null;
    }
    if (compiled.size > 512) compiled.clear();
    compiled.set(source, re);
  }
  return re;
}

/** Per deny list (the config's array): the patterns it was built from, and the joined expression. */
const combinedCache = new WeakMap<readonly string[], { readonly sources: readonly string[]; readonly re: RegExp | null }>();

/**
 * One regular expression that matches wherever any of `sources` does — a single scan of each text instead of one
 * per pattern, used only to skip the per-pattern loop when nothing matches at all. null when the patterns cannot be
 * joined without changing their meaning (an invalid one, backreferences, named groups): then every pattern is tried.
 * Cached per array, and rebuilt when the array's contents changed.
 */
function combined(sources: readonly string[]): RegExp | null {
  const hit = combinedCache.get(sources);
  if (hit && hit.sources.length === sources.length && hit.sources.every((s, i) => s === sources[i])) return hit.re;
  let re: RegExp | null = null;
  if (sources.every((s) => compile(s) !== null && !/\\[1-9]|\\k<|\(\?<[A-Za-z_$]/.test(s))) {
    try {
      re = new RegExp(sources.map((s) => `(?:${s})`).join('|'));
    } catch {
      re = null;
    }
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

export function checkPolicy(line: string, parts: readonly Part[], policy: PolicyPatterns): PolicyResult {
  // The line as written and with continuations joined (a superset of texts only ever adds refusals).
  const lineTexts = [line];
  const joined = line.replace(/\\\r?\n/g, '');
  if (joined !== line) lineTexts.push(joined);

  // Each part's texts (as written, then its normalised forms) are computed once, not once per pattern.
  const partTexts = policy.deny.length > 0 ? parts.map((part) => [part.text, ...normalisedForms(part)]) : [];
  const any = policy.deny.length > 0 ? combined(policy.deny) : null;
  const mayDeny = any === null || lineTexts.some((t) => any.test(t)) || partTexts.some((texts) => texts.some((t) => any.test(t)));
  for (const source of mayDeny ? policy.deny : []) {
    const re = compile(source);
    if (re === null) return { verdict: 'denied', reason: `invalid deny pattern ${source}` };
    if (lineTexts.some((t) => re.test(t))) return { verdict: 'denied', reason: `command matches deny pattern ${source}` };
    for (let i = 0; i < parts.length; i++) {
      if (partTexts[i]!.some((t) => re.test(t))) {
        return { verdict: 'denied', reason: `command matches deny pattern ${source}`, part: parts[i]!.text };
      }
    }
  }

  if (policy.allow.length > 0) {
    const allow = policy.allow.map(compile);
    for (const part of parts) {
      const texts = [part.text, plainForm(part)];
      const ok = allow.some((re) => re !== null && texts.some((t) => re.test(t)));
      if (!ok) return { verdict: 'denied', reason: 'command matches no allow pattern', part: part.text };
    }
  }
  return { verdict: 'allowed' };
}
