// Issue #8 §5, the long runs: the full deny-list mutation cross product (every seed × spelling × wrapper) and
// the gate's fuzz properties (test/fuzz/properties.ts) with many more iterations than `npm test` gives them.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser } from '../../src/gate/parse.js';
import { crossMutants } from '../fuzz/mutants.js';
import { denyPoisons, gateIsTotal, mutantsNeverRun, policyIsTotal, prefixKeepsRefusal, thresholdsMonotonic } from '../fuzz/properties.js';

const RUNS = Number(process.env.WISP_FUZZ_RUNS ?? '50000');

beforeAll(async () => {
  await initParser();
});

describe('deny-list mutants, exhaustively', () => {
  it('every seed × spelling × wrapper is denied or asked, never run', () => {
    const config = defaultConfig();
    const all = crossMutants();
    const run = all.filter((m) => decisionFor(analyzeLine(m.line, config, '/work/project', { home: '/home/person' }), 'moderate') === 'run');
    console.log(`deny-list mutants: ${all.length} in the cross product, ${run.length} run`);
    expect(run.map((m) => JSON.stringify(m.line))).toEqual([]);
  }, 600_000);

  it(`${RUNS * 2} random compositions (1–3 layers) never run unasked`, () => mutantsNeverRun(RUNS * 2, 1008), 1_200_000);
});

describe(`the gate's fuzz properties, ${RUNS} runs each`, () => {
  it('total', () => gateIsTotal(RUNS, 1081), 1_200_000);
  it('policy total', () => policyIsTotal(RUNS, 1082), 1_200_000);
  it('a denied command poisons the line', () => denyPoisons(RUNS, 1083), 1_200_000);
  it('a read-only prefix keeps a refusal', () => prefixKeepsRefusal(RUNS, 1084), 1_200_000);
  it('thresholds are monotonic', () => thresholdsMonotonic(RUNS, 1085), 1_200_000);
});
