// Issue #16.3, ADR 0052, the long run: the simple-line reader against tree-sitter over hundreds of thousands of
// generated lines (test/fuzz/simple-lines.fuzz.test.ts runs a few thousand in `npm test`).
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../src/gate/parse.js';
import { simpleLinesAgree } from '../fuzz/simple-lines.js';

const LINES = Number(process.env.WISP_SIMPLE_LINES ?? '400000');
const SEEDS = [16311, 16312, 16313, 16314];

beforeAll(async () => {
  await initParser();
});

describe(`the simple-line reader agrees with tree-sitter, ${LINES} lines`, () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${Math.ceil(LINES / SEEDS.length)} lines`, () => {
      const { simple, total } = simpleLinesAgree(Math.ceil(LINES / SEEDS.length), seed);
      console.log(`simple-line reader, seed ${seed}: ${simple} of ${total} generated lines were simple, all agreed`);
      expect(simple).toBeGreaterThan(total / 5);
    }, 3_600_000);
  }
});
