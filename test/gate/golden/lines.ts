// The lines whose gate decisions are recorded in decisions.json (issue #16.3): the benchmark corpus, the gate's test
// corpora (spec vectors, attacks, deny spellings, deny-list mutants) and seeded generated lines. The record was made
// with the gate before its per-part work was rewritten; decisions.test.ts keeps every later gate to it.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { ALL_SPEC_LINES } from '../spec-vectors.js';
import { ATTACKS, LOCATION_ATTACKS, ORDINARY, ORDINARY_LOCATIONS } from '../attacks.js';
import { DENY_SPELLINGS, NOT_DENIED } from '../deny-corpus.js';
import { crossMutants, singleMutants } from '../../fuzz/mutants.js';
import { attackMutant } from '../../fuzz/attack-mutants.js';
import { plainishLine } from '../../fuzz/plain-words.js';
import { prng } from '../../helpers/prng.js';

export function benchCorpus(): string[] {
  return readFileSync(new URL('../../../bench/corpus.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('# '));
}

export function goldenLines(): string[] {
  const r = prng(16300);
  const plainish = Array.from({ length: 3000 }, () => plainishLine(r));
  const attacks = fc.sample(attackMutant, { seed: 16301, numRuns: 3000 }).map((m) => m.line);
  return [
    ...new Set([
      ...benchCorpus(),
      ...ALL_SPEC_LINES,
      ...ATTACKS.map((a) => a.line),
      ...ORDINARY,
      ...DENY_SPELLINGS.map((d) => d[1]),
      ...NOT_DENIED,
      ...singleMutants().map((m) => m.line),
      ...crossMutants().map((m) => m.line),
      ...attacks,
      ...plainish,
      ...LOCATION_ATTACKS.map((a) => a.line),
      ...ORDINARY_LOCATIONS,
    ]),
  ];
}
