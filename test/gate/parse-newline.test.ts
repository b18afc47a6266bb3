// ADR 0052: tree-sitter is handed each text ended with a newline (its parse of multi-stage pipelines is then about
// three times faster at the p99). The parts must be exactly those of the text as written: checked here over the
// benchmark corpus, the gate's corpora and generated shell-ish text, with the tree-sitter path alone on both sides.
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parseLine, parsedAsWritten, treeSitterOnly } from '../../src/gate/parse.js';
import { attackMutant } from '../fuzz/attack-mutants.js';
import { arbitraryMutant, shellish } from '../fuzz/mutants.js';
import { simpleishLine } from '../fuzz/simple-lines.js';
import { prng } from '../helpers/prng.js';
import { benchCorpus } from './golden/lines.js';
import { ATTACKS } from './attacks.js';

const GENERATED = Number(process.env.WISP_NEWLINE_LINES ?? '1500');

beforeAll(async () => {
  await initParser();
});

function differences(lines: Iterable<string>): Array<{ line: string; ended: unknown; asWritten: unknown }> {
  const out: Array<{ line: string; ended: unknown; asWritten: unknown }> = [];
  for (const line of lines) {
    const ended = treeSitterOnly(() => parseLine(line));
    const asWritten = treeSitterOnly(() => parsedAsWritten(() => parseLine(line)));
    if (!isDeepStrictEqual(ended, asWritten)) out.push({ line, ended, asWritten });
    if (out.length >= 5) break;
  }
  return out;
}

describe('a final newline for tree-sitter changes no part', () => {
  it('over the benchmark corpus and the attack corpus', () => {
    expect(differences([...benchCorpus(), ...ATTACKS.map((a) => a.line)])).toEqual([]);
  });

  it(`over ${GENERATED} generated lines of each kind (shell-ish text, deny-list mutants, attack mutants, simple lines)`, () => {
    const r = prng(16320);
    const lines = [
      ...fc.sample(shellish, { seed: 16321, numRuns: GENERATED }),
      ...fc.sample(arbitraryMutant, { seed: 16322, numRuns: GENERATED }).map((m) => m.line),
      ...fc.sample(attackMutant, { seed: 16323, numRuns: GENERATED }).map((m) => m.line),
      ...Array.from({ length: GENERATED }, () => simpleishLine(r)),
    ];
    expect(differences(lines)).toEqual([]);
  });

  it('heredocs, a final backslash and comments', () => {
    expect(
      differences(['cat <<EOF', 'cat <<EOF\nx\nEOF', 'ls \\', 'ls -a \\ ', 'ls -a \\\t ', 'ls # c', 'ls #', 'echo a\\', "echo 'a\\'", 'cat <<< x', 'f() { ls; }', 'ls |', 'ls &&', '(ls', 'echo "a']),
    ).toEqual([]);
  });
});
