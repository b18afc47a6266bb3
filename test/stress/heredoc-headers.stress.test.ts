// ADR 0084, the long run: the heredoc-header reader against tree-sitter over hundreds of thousands of generated lines
// (test/fuzz/heredoc-headers.fuzz.test.ts runs a few thousand in `npm test`).
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../src/gate/parse.js';
import { heredocHeadersAgree } from '../fuzz/heredoc-headers.js';

const LINES = Number(process.env.WISP_HEREDOC_HEADER_LINES ?? '400000');
const SEEDS = [84111, 84112, 84113, 84114];

beforeAll(async () => {
  await initParser();
});

describe(`the heredoc-header reader agrees with tree-sitter, ${LINES} lines`, () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${Math.ceil(LINES / SEEDS.length)} lines`, () => {
      const { taken, total } = heredocHeadersAgree(Math.ceil(LINES / SEEDS.length), seed);
      console.log(`heredoc-header reader, seed ${seed}: ${taken} of ${total} generated lines were headers, all agreed`);
      expect(taken).toBeGreaterThan(total / 10);
    }, 3_600_000);
  }
});
