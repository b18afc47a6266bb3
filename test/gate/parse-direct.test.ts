// ADR 0081: two shortcuts of the parse step, each checked against the way it replaced.
// - Texts are parsed through the runtime's own entry, without web-tree-sitter's per-tree finalizer bookkeeping: the
//   parts, and the trees themselves (read through the Node API too), must equal those of the public `parse`.
// - The walk finds the openers of substitutions and expansions once per text: its answer for every range of a text
//   must equal the indexOf search it replaced.
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parseLine, treeSitterOnly } from '../../src/gate/parse.js';
import { Collector } from '../../src/gate/parse/context.js';
import { boundedParse, directParseOn, loadedParser, withPublicParse } from '../../src/gate/parse/runtime.js';
import { attackMutant } from '../fuzz/attack-mutants.js';
import { arbitraryMutant, shellish } from '../fuzz/mutants.js';
import { goldenLines } from './golden/lines.js';

const GENERATED = Number(process.env.WISP_DIRECT_LINES ?? '1500');

beforeAll(async () => {
  await initParser();
});

function generated(): string[] {
  return [
    ...fc.sample(shellish, { seed: 8101, numRuns: GENERATED }),
    ...fc.sample(arbitraryMutant, { seed: 8102, numRuns: GENERATED }).map((m) => m.line),
    ...fc.sample(attackMutant, { seed: 8103, numRuns: GENERATED }).map((m) => m.line),
  ];
}

describe("the runtime's own parse entry", () => {
  it('is in use with this web-tree-sitter (else the comparison below would be vacuous)', () => {
    expect(directParseOn()).toBe(true);
  });

  // It parses ~48,000 texts twice (17 s alone, 30 s and more on a loaded 2-core host): the default 30 s is a
  // limit for tests that wait, not for one that computes, and equality is all it asserts.
  it('gives the parts of the public parse over the golden lines and generated shell-ish text', { timeout: 180_000 }, () => {
    const out: Array<{ line: string }> = [];
    for (const line of [...goldenLines(), ...generated()]) {
      // The tree-sitter path alone on both sides, so every line reaches the parse.
      const direct = treeSitterOnly(() => parseLine(line));
      const viaPublic = withPublicParse(() => treeSitterOnly(() => parseLine(line)));
      if (!isDeepStrictEqual(direct, viaPublic)) out.push({ line });
      if (out.length >= 5) break;
    }
    expect(out).toEqual([]);
  });

  it('makes trees the Node API reads as it reads the public ones, broken ones and heredocs included', () => {
    const p = loadedParser();
    const lines = [...goldenLines().slice(0, 3000), ...generated().slice(0, 1500), "python3 - <<'PY'", 'cat <<EOF\nx $(id)\nEOF', '( ls (', 'if then fi'];
    const out: string[] = [];
    for (const line of lines) {
      for (const text of [line, line + '\n']) {
        const viaPublic = p.parse(text)!;
        const expected = viaPublic.rootNode.toString();
        viaPublic.delete();
        // boundedParse is what parseSource calls: the direct entry for texts of up to BOUNDED_LENGTH.
        const direct = boundedParse(p, text)!;
        const got = direct.rootNode.toString();
        direct.delete();
        if (got !== expected) out.push(text);
      }
      if (out.length >= 5) break;
    }
    expect(out).toEqual([]);
  });
});

describe('substitution and expansion openers found once per text', () => {
  function holds(src: string, needle: string, start: number, end: number): boolean {
    const at = src.indexOf(needle, start);
    return at >= 0 && at + needle.length <= end;
  }
  const reference = {
    substitution: (s: string, a: number, b: number) => holds(s, '$(', a, b) || holds(s, '`', a, b) || holds(s, '<(', a, b) || holds(s, '>(', a, b),
    expansion: (s: string, a: number, b: number) => holds(s, '$', a, b) || holds(s, '`', a, b) || holds(s, '<(', a, b) || holds(s, '>(', a, b),
  };

  it('answer as indexOf did for every range of generated texts', () => {
    const text = fc.string({ unit: fc.constantFrom('$', '(', ')', '`', '<', '>', 'a', ' ', '"', '\\'), maxLength: 24 });
    fc.assert(
      fc.property(text, (src) => {
        const c = new Collector(src, true, () => undefined);
        for (let a = 0; a <= src.length; a++) {
          for (let b = a; b <= src.length; b++) {
            if (c.maySubstitute(a, b) !== reference.substitution(src, a, b)) return false;
            if (c.mayExpand(a, b) !== reference.expansion(src, a, b)) return false;
          }
        }
        return true;
      }),
      { seed: 8104, numRuns: 3000 },
    );
  });
});
