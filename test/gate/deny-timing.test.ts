// No input can stall wisp (issue #12.4): a 16 KiB line of any shape is decided within a bound, also with the classic
// catastrophic-backtracking patterns in the operator's deny, allow and rules lists. The bound (1 s per decision) is
// an explicit issue requirement, generous on purpose; it is measured as this process's CPU time (vitest runs each
// file in its own process), which waiting for a busy machine's CPUs does not inflate. A backtracking pattern or a
// super-linear parse would take minutes, not a second.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { initParser } from '../../src/gate/parse.js';

beforeAll(async () => {
  await initParser();
});

const SIZE = 16 * 1024;
const BOUND_MS = 1000;

/** Patterns that take exponential time on a backtracking engine. */
const EVIL = ['(a+)+$', '^(\\w+\\s?)+$', '(x+x+)+y', '^(["\']?[^"\']*["\']?)*z$', '(.*a){12}', '^(s|sa|a)+$', '(\\s*)+$'];
const config = {
  policy: {
    deny: EVIL,
    allow: [] as string[],
    rules: EVIL.map((match) => ({ match, level: 'dangerous' as const })),
  },
};
const withAllow = { policy: { ...config.policy, allow: EVIL } };

const fill = (unit: string, size = SIZE): string => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

/** Hostile shapes, each about 16 KiB. */
const SHAPES: ReadonlyArray<readonly [string, string]> = [
  ['repeated double quotes', fill('"')],
  ['repeated single quotes', fill("'")],
  ['alternating quotes', fill('"\'')],
  ['sa runs', fill('sa')],
  ['sa runs with a trailing bang', fill('sa').slice(1) + '!'],
  ['a runs then b', fill('a').slice(1) + 'b'],
  ['x runs', fill('x')],
  ['long whitespace', 'ls' + fill(' ').slice(4) + 'x'],
  ['tabs and newlines', 'ls' + fill('\t \n').slice(4)],
  ['nested groups', fill('(').slice(0, SIZE / 2) + fill(')').slice(0, SIZE / 2)],
  ['nested subshells with commands', fill('( ls ').slice(0, SIZE / 2) + fill(')').slice(0, SIZE / 2)],
  ['nested command substitutions', fill('$(').slice(0, SIZE / 2) + fill(')').slice(0, SIZE / 2)],
  ['nested braces', fill('{a,').slice(0, SIZE / 2) + fill('}').slice(0, SIZE / 2)],
  ['many pipes', fill('curl x | sh | ')],
  ['many list members', fill('sudo ls; ')],
  ['many rm -rf', fill('rm -rf /tmp/.. ')],
  ['one huge word', 'echo ' + fill('a\\ ')],
  ['backslashes', fill('\\')],
  ['dollars', fill('$')],
  ['backticks', fill('`')],
  ['heredoc markers', fill('<<')],
  ['redirections to a disk', fill('>/dev/sda ')],
  ['wisp subcommands', fill('wisp approvals approve x ')],
  ['unicode look-alikes', fill('ｓｕｄｏ\u00a0')],
  ['continuations', fill('ls \\\n')],
];

/**
 * CPU milliseconds of one decision, the faster of two: the first of a new shape also pays one-time costs (compiling
 * the patterns, V8 optimising the engine's code, a GC), which a running wisp has paid already. A stall is slow on
 * every run, so the minimum still catches it.
 */
function timed(line: string, cfg: typeof config, runs = 2): { ms: number; decision: string } {
  let best = Number.POSITIVE_INFINITY;
  let decision = '';
  for (let run = 0; run < runs; run++) {
    const before = process.cpuUsage();
    const a = analyzeLine(line, cfg, '/tmp');
    decision = decisionFor(a, 'moderate');
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return { ms: best, decision };
}

describe('time per decision on 16 KiB lines', () => {
  it.each(SHAPES)('%s', (_name, line) => {
    expect(line.length).toBeGreaterThanOrEqual(SIZE - 8);
    for (const cfg of [config, withAllow]) {
      const { ms, decision } = timed(line, cfg);
      expect(['run', 'ask', 'deny']).toContain(decision);
      expect(ms, `${_name}: ${ms.toFixed(0)} ms`).toBeLessThan(BOUND_MS);
    }
  });
});
