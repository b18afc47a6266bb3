// Issue #16.1, ADR 0040, the long run: the plain-word path against tree-sitter over hundreds of thousands of
// generated lines (test/fuzz/plain-words.fuzz.test.ts runs a few thousand in `npm test`).
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../src/gate/parse.js';
import { plainPathAgrees } from '../fuzz/plain-words.js';

const LINES = Number(process.env.WISP_PLAIN_LINES ?? '400000');
const SEEDS = [16101, 16102, 16103, 16104];

beforeAll(async () => {
  await initParser();
});

describe(`the plain-word path agrees with tree-sitter, ${LINES} lines`, () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${Math.ceil(LINES / SEEDS.length)} lines`, () => {
      const { plain, total } = plainPathAgrees(Math.ceil(LINES / SEEDS.length), seed);
      console.log(`plain-word path, seed ${seed}: ${plain} of ${total} generated lines were plain, all agreed`);
      expect(plain).toBeGreaterThan(total / 4);
    }, 3_600_000);
  }
});
