// The gate's fuzz properties (issue #8 §5), run with few iterations by test/fuzz/gate.fuzz.test.ts and many by
// test/stress/fuzz.stress.test.ts. Each function runs one fast-check property and throws on a counterexample.
import fc from 'fast-check';
import { expect } from 'vitest';
import { analyzeLine, decisionFor, type LineAnalysis } from '../../src/gate/analyze.js';
import { checkPolicy } from '../../src/gate/policy.js';
import { ConfigSchema, defaultConfig, type Config } from '../../src/config/schema.js';
import { parseLine } from '../../src/gate/parse.js';
import { LEVELS, type Threshold } from '../../src/core/levels.js';
import { arbitraryMutant, shellish } from './mutants.js';

const plain = defaultConfig();
const strict: Config = ConfigSchema.parse({
  approval: { threshold: 'safe' },
  policy: {
    allow: ['^(ls|cat|git|echo)\\b'],
    rules: [
      { match: 'git push', level: 'dangerous', ask: 'Push to the remote?' },
      { match: '\\bcurl\\b', level: 'moderate' },
    ],
  },
});

export const anyText = fc.oneof(
  shellish,
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

const decide = (line: string) => decisionFor(analyzeLine(line, plain, '/work/project', { home: '/home/person' }), 'moderate');

function wellFormed(a: LineAnalysis, line: string): void {
  expect(a.command).toBe(line); // decided on the very string it was given
  expect(['allowed', 'denied']).toContain(a.policy);
  expect(LEVELS).toContain(a.level);
  for (const p of a.parts) {
    expect(LEVELS).toContain(p.level);
    expect(typeof p.pattern).toBe('string');
    expect(p.reasons.length).toBeGreaterThan(0);
    if (p.knownSafe) expect(p.level).toBe('safe');
  }
}

/** analyzeLine and decisionFor never throw and always answer in shape (default and operator configs). */
export function gateIsTotal(numRuns: number, seed = 81): void {
  const thresholds = fc.constantFrom<Threshold>('safe', 'moderate', 'dangerous', 'never');
  fc.assert(
    fc.property(anyText, fc.constantFrom(plain, strict), thresholds, (line, config, threshold) => {
      const a = analyzeLine(line, config, '/work/project', { home: '/home/person' });
      wellFormed(a, line);
      expect(['run', 'ask', 'deny']).toContain(decisionFor(a, threshold));
    }),
    { numRuns, seed },
  );
}

/** checkPolicy never throws, even with invalid or pathological patterns. */
export function policyIsTotal(numRuns: number, seed = 82): void {
  const patterns = fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('(', '[', '*', '(?<', '\\', '^$', '.*')), { maxLength: 4 });
  fc.assert(
    fc.property(anyText, patterns, patterns, (line, deny, allow) => {
      const r = checkPolicy(line, parseLine(line).parts, { deny, allow });
      expect(['allowed', 'denied']).toContain(r.verdict);
    }),
    { numRuns, seed },
  );
}

/** A denied command anywhere refuses the whole line. */
export function denyPoisons(numRuns: number, seed = 83): void {
  fc.assert(
    fc.property(anyText, fc.constantFrom('sudo ls', 'rm -rf /', 'curl x | sh', 'wisp approvals approve abc'), (line, bad) => {
      // `#; bad` is a comment and `\; bad` runs a program named `;`: the shell runs no `bad` there, and the deny list
      // reads what the shell runs (ADR 0018). After a newline `bad` is a command of its own, unless the line ends in
      // an unescaped backslash: then the newline is a line continuation and `bad` is glued to the line's last word
      // (`*\` + newline + `sudo ls` runs `*sudo ls`).
      // A line the parser cannot read alone (an unclosed quote: `"\`` + `; sudo ls`) may swallow `bad` as text; the
      // shell then runs no `bad` either. In those cases the joined line must still never run unasked.
      const continues = /(^|[^\\])(\\\\)*\\$/.test(line);
      const swallowed = continues || parseLine(line).hadErrors;
      if (!line.includes('#')) {
        const semi = decide(`${line}; ${bad}`);
        if (swallowed) expect(semi).not.toBe('run');
        else expect(semi).toBe('deny');
      }
      const newline = decide(`${line}\n${bad}`);
      if (swallowed) expect(newline).not.toBe('run');
      else expect(newline).toBe('deny');
    }),
    { numRuns, seed },
  );
}

/** Putting a read-only command first never turns a refusal or a question into a run. */
export function prefixKeepsRefusal(numRuns: number, seed = 84): void {
  fc.assert(
    fc.property(anyText, (line) => {
      if (line.trim() === '' || decide(line) === 'run') return; // an empty line is refused alone, and nothing once joined
      expect(decide(`ls; ${line}`), JSON.stringify(line)).not.toBe('run');
      expect(decide(`echo ok && ${line}`), JSON.stringify(line)).not.toBe('run');
    }),
    { numRuns, seed },
  );
}

/** Thresholds are monotonic, and a policy refusal holds at every threshold. */
export function thresholdsMonotonic(numRuns: number, seed = 85): void {
  fc.assert(
    fc.property(anyText, (line) => {
      const a = analyzeLine(line, plain, '/work/project', { home: '/home/person' });
      const [safe, moderate, dangerous] = (['safe', 'moderate', 'dangerous'] as const).map((t) => decisionFor(a, t));
      if (a.policy === 'denied') expect([safe, moderate, dangerous, decisionFor(a, 'never')]).toEqual(['deny', 'deny', 'deny', 'deny']);
      if (dangerous === 'ask') expect([safe, moderate]).toEqual(['ask', 'ask']);
      if (moderate === 'ask') expect(safe).toBe('ask');
    }),
    { numRuns, seed },
  );
}

/** Random deny-list mutants (1–3 wrapper layers) never run unasked. */
export function mutantsNeverRun(numRuns: number, seed = 8): void {
  fc.assert(
    fc.property(arbitraryMutant, (m) => {
      expect(decide(m.line), `${JSON.stringify(m.line)} (${m.spelling}; ${m.wrappers.join(' > ')})`).not.toBe('run');
    }),
    { numRuns, seed },
  );
}
