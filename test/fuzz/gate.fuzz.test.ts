// Issue #8 §5: the static gate never throws, whatever it is given, and its answers hang together. parse.test.ts
// already fuzzes parseLine alone; here the whole analysis (policy + classifier + pattern + decision) is fuzzed with
// arbitrary text, shell-shaped text, and operator configs with rules and allow lists; plus metamorphic properties:
// a refusal stays a refusal when something harmless is put before it, and a denied command poisons any line.
// The properties live in properties.ts; test/stress/fuzz.stress.test.ts runs them with many more iterations.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser } from '../../src/gate/parse.js';
import { denyPoisons, gateIsTotal, policyIsTotal, prefixKeepsRefusal, thresholdsMonotonic } from './properties.js';

export const RUNS = Number(process.env.WISP_FUZZ_RUNS ?? '300');

beforeAll(async () => {
  await initParser();
});

describe('the static gate is total', () => {
  it(`analyzeLine and decisionFor never throw and always answer in shape (${RUNS} runs)`, () => gateIsTotal(RUNS));
  it(`checkPolicy never throws, even with invalid patterns (${RUNS} runs)`, () => policyIsTotal(RUNS));
  it('an empty or blank line is refused, not run', () => {
    for (const line of ['', ' ', '\t', '\n', ' \n\t ']) expect(decisionFor(analyzeLine(line, defaultConfig(), '/w'), 'never')).toBe('deny');
  });
});

describe('the gate is consistent', () => {
  it(`a denied command anywhere refuses the whole line (${RUNS} runs)`, () => denyPoisons(RUNS));
  it(`putting a read-only command first never turns a refusal or a question into a run (${RUNS} runs)`, () => prefixKeepsRefusal(RUNS));
  it(`thresholds are monotonic and a policy refusal holds at all of them (${RUNS} runs)`, () => thresholdsMonotonic(RUNS));
});
