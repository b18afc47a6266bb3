// Issue #8 §5: the static gate never throws, whatever it is given, and its answers hang together. parse.test.ts
// already fuzzes parseLine alone; here the whole analysis (policy + classifier + pattern + decision) is fuzzed with
// arbitrary text, shell-shaped text, and operator configs with rules and allow lists; plus metamorphic properties:
// a refusal stays a refusal when something harmless is put before it, and a denied command poisons any line.
// test/stress/fuzz.stress.test.ts repeats these with many more runs.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor, type LineAnalysis } from '../../src/gate/analyze.js';
import { checkPolicy } from '../../src/gate/policy.js';
import { ConfigSchema, defaultConfig, type Config } from '../../src/config/schema.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { LEVELS } from '../../src/gate/types.js';
import { shellish } from './mutants.js';

export const RUNS = Number(process.env.WISP_FUZZ_RUNS ?? '300');

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

const anyText = fc.oneof(
  shellish,
  fc.string({ maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

beforeAll(async () => {
  await initParser();
});

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

describe('the static gate is total', () => {
  it('analyzeLine and decisionFor never throw and always answer in shape (default and operator configs)', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(plain, strict), fc.constantFrom('safe', 'moderate', 'dangerous', 'never') as fc.Arbitrary<'safe' | 'moderate' | 'dangerous' | 'never'>, (line, config, threshold) => {
        const a = analyzeLine(line, config, '/work/project', { home: '/home/person' });
        wellFormed(a, line);
        expect(['run', 'ask', 'deny']).toContain(decisionFor(a, threshold));
      }),
      { numRuns: RUNS, seed: 81 },
    );
  });

  it('checkPolicy never throws, even with invalid or pathological patterns', () => {
    const patterns = fc.array(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('(', '[', '*', '(?<', '\\', '^$', '.*', '(a+)+$')), { maxLength: 4 });
    fc.assert(
      fc.property(anyText, patterns, patterns, (line, deny, allow) => {
        const r = checkPolicy(line, parseLine(line).parts, { deny, allow });
        expect(['allowed', 'denied']).toContain(r.verdict);
      }),
      { numRuns: RUNS, seed: 82 },
    );
  });

  it('an empty or blank line is refused, not run', () => {
    for (const line of ['', ' ', '\t', '\n', ' \n\t ']) expect(decisionFor(analyzeLine(line, plain, '/w'), 'never')).toBe('deny');
  });
});

describe('the gate is consistent', () => {
  const decide = (line: string) => decisionFor(analyzeLine(line, plain, '/work/project', { home: '/home/person' }), 'moderate');

  it('a denied command anywhere refuses the whole line', () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom('sudo ls', 'rm -rf /', 'curl x | sh', 'wisp approvals approve abc'), (line, bad) => {
        expect(decide(`${line}; ${bad}`)).toBe('deny');
        expect(decide(`${line}\n${bad}`)).toBe('deny');
      }),
      { numRuns: RUNS, seed: 83 },
    );
  });

  it('putting a read-only command first never turns a refusal or a question into a run', () => {
    fc.assert(
      fc.property(anyText, (line) => {
        if (line.trim() === '' || decide(line) === 'run') return; // an empty line is refused alone, and nothing once joined
        expect(decide(`ls; ${line}`), JSON.stringify(line)).not.toBe('run');
        expect(decide(`echo ok && ${line}`), JSON.stringify(line)).not.toBe('run');
      }),
      { numRuns: RUNS, seed: 84 },
    );
  });

  it('raising the threshold never turns an ask into a run below it, and never turns a deny into anything else', () => {
    fc.assert(
      fc.property(anyText, (line) => {
        const a = analyzeLine(line, plain, '/work/project', { home: '/home/person' });
        const [safe, moderate, dangerous] = (['safe', 'moderate', 'dangerous'] as const).map((t) => decisionFor(a, t));
        if (a.policy === 'denied') expect([safe, moderate, dangerous, decisionFor(a, 'never')]).toEqual(['deny', 'deny', 'deny', 'deny']);
        if (dangerous === 'ask') expect([safe, moderate]).toEqual(['ask', 'ask']);
        if (moderate === 'ask') expect(safe).toBe('ask');
      }),
      { numRuns: RUNS, seed: 85 },
    );
  });
});
