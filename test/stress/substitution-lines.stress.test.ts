// ADR 0084, the long run: the substitution-line reader against tree-sitter over hundreds of thousands of generated lines
// (test/fuzz/substitution-lines.fuzz.test.ts runs a few thousand in `npm test`).
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../src/gate/parse.js';
import { substitutionLinesAgree } from '../fuzz/substitution-lines.js';

const LINES = Number(process.env.WISP_SUBSTITUTION_LINES ?? '400000');
const SEEDS = [84211, 84212, 84213, 84214];

beforeAll(async () => {
  await initParser();
});

describe(`the substitution-line reader agrees with tree-sitter, ${LINES} lines`, () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${Math.ceil(LINES / SEEDS.length)} lines`, () => {
      const { taken, total } = substitutionLinesAgree(Math.ceil(LINES / SEEDS.length), seed);
      console.log(`substitution-line reader, seed ${seed}: ${taken} of ${total} generated lines were substitutions the reader took, all agreed`);
      expect(taken).toBeGreaterThan(total / 10);
    }, 3_600_000);
  }
});
