// ADR 0084: every part the parser makes has all of Part's keys in one order (absent ones `undefined`), so the deny
// scan and the classifier read parts of one shape; the one exception is the `[ … ]` test of plain words, whose
// shapes come last (the golden record hashes parts as JSON, key order included). The walk's contexts have one shape
// too. Checked over the golden lines and generated shell-ish, mutant and simple lines, on every path (plain words,
// simple lines, tree-sitter).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parseLine, treeSitterOnly } from '../../src/gate/parse.js';
import { attackMutant } from '../fuzz/attack-mutants.js';
import { arbitraryMutant, shellish } from '../fuzz/mutants.js';
import { simpleishLine } from '../fuzz/simple-lines.js';
import { prng } from '../helpers/prng.js';
import { goldenLines } from './golden/lines.js';

const ONE_SHAPE = 'text,words,shapes,redirects,origin,unparsed,dynamicName,keyword,pipeline,pipeStage';
const PLAIN_TEST = 'text,words,redirects,origin,unparsed,dynamicName,keyword,pipeline,pipeStage,shapes';

beforeAll(async () => {
  await initParser();
});

function shapesOf(lines: Iterable<string>): Map<string, string> {
  const seen = new Map<string, string>();
  for (const line of lines) {
    for (const parse of [() => parseLine(line), () => treeSitterOnly(() => parseLine(line))]) {
      for (const part of parse().parts) {
        const keys = Object.keys(part).join(',');
        if (!seen.has(keys)) seen.set(keys, line);
        // The plain-test shape is only ever a `[ … ]` part with literal words.
        if (keys === PLAIN_TEST) expect(part.words[0], line).toBe('[');
      }
    }
  }
  return seen;
}

describe('parts come in one shape', () => {
  it('over the golden lines', { timeout: 120_000 }, () => {
    const seen = shapesOf(goldenLines());
    expect([...seen.keys()].filter((k) => k !== ONE_SHAPE && k !== PLAIN_TEST)).toEqual([]);
    expect(seen.has(ONE_SHAPE)).toBe(true);
  });

  it('over generated lines (shell-ish text, deny-list and attack mutants, simple lines)', () => {
    const r = prng(84001);
    const lines = [
      ...fc.sample(shellish, { seed: 84002, numRuns: 1500 }),
      ...fc.sample(arbitraryMutant, { seed: 84003, numRuns: 1500 }).map((m) => m.line),
      ...fc.sample(attackMutant, { seed: 84004, numRuns: 1500 }).map((m) => m.line),
      ...Array.from({ length: 1500 }, () => simpleishLine(r)),
    ];
    const seen = shapesOf(lines);
    expect([...seen].filter(([k]) => k !== ONE_SHAPE && k !== PLAIN_TEST)).toEqual([]);
  });
});
