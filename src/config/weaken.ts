// What a config change weakens (ADR 0010): one phrase per way the new config lets more through than the old, shown
// by `wisp config set|unset` and the chat's /config before the change is kept. Which way loosens each key, and
// its phrase, are rows of config/strictness.ts, shared with the project-layer merge (ADR 0069).
import { getPath } from './key-path.js';
import type { Config } from './schema.js';
import { loosens, STRICTNESS } from './strictness.js';

/**
 * How `after` lets more through than `before`: more runs without a person, writes or reaches the network, or is
 * remembered longer. Bounds (timeouts, sizes) are not on the list: an unanswered escalation is a refusal however
 * long the wait, and a longer command timeout lets the same command run longer, not a different one (ADR 0010).
 */
export function weakenings(before: Config, after: Config): string[] {
  const out: string[] = [];
  for (const row of STRICTNESS) {
    if (row.effect !== 'gate') continue;
    const b = getPath(before, row.key);
    const a = getPath(after, row.key);
    if (!loosens(row.compare, b, a)) continue;
    const phrase = row.phrase(b, a);
    if (!out.includes(phrase)) out.push(phrase);
  }
  return out;
}
