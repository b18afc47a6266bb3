// Mutators over issue #12's attack corpus (test/gate/attacks.ts): each mutant keeps what the attack does and changes
// its spelling or surroundings — quoting of its words, harmless neighbours in a list or pipeline, a subshell or a
// block, /dev/null redirections, safe wrappers (time, nice, timeout, command). None of that may turn it into a
// line that runs unasked. Used by test/fuzz/attacks.fuzz.test.ts.
import fc from 'fast-check';
import { ATTACKS, ORDINARY } from '../gate/attacks.js';
import { dq, sq } from './mutants.js';

/** Re-quotes one plain word of the line (a word of letters, digits and `-_./=~:,+`): the shell reads it the same. */
function requoteWord(line: string, pick: number, how: number): string {
  const words = [...line.matchAll(/(?<=^|\s)[A-Za-z0-9_./=~:,+-]+(?=\s|$)/g)];
  if (words.length === 0) return line;
  const m = words[pick % words.length]!;
  const w = m[0];
  // `~` expands only unquoted at the start of a word: leave such words as they are.
  if (w.startsWith('~')) return line;
  const spelled = [sq(w), dq(w), `${w.slice(0, 1)}''${w.slice(1)}`, `$'${w}'`, w.length > 1 ? `${w.slice(0, 1)}\\${w.slice(1)}` : w][how % 5]!;
  return line.slice(0, m.index) + spelled + line.slice(m.index! + w.length);
}

const SURROUNDINGS: ReadonlyArray<(line: string, neighbour: string) => string> = [
  (l) => l,
  (l, n) => `${n} && ${l}`,
  (l, n) => `${l}; ${n}`,
  (l, n) => `${n} || ${l}`,
  (l) => `( ${l} )`,
  (l) => `{ ${l}; }`,
  (l) => `${l} 2>/dev/null`,
  (l) => `${l} 2>&1 | head`,
  (l) => `if true; then ${l}; fi`,
  (l) => `for i in 1; do ${l}; done`,
  (l) => `time ${l}`,
  (l) => `nice -n 5 ${l}`,
  (l) => `timeout 5 ${l}`,
  (l) => `command ${l}`,
];

/** A line from the attack corpus with 0–2 re-quoted words inside 0–2 layers of harmless surroundings. */
export const attackMutant = fc
  .record({
    attack: fc.constantFrom(...ATTACKS),
    quotes: fc.array(fc.tuple(fc.nat(40), fc.nat(4)), { maxLength: 2 }),
    layers: fc.array(fc.tuple(fc.nat(SURROUNDINGS.length - 1), fc.constantFrom(...ORDINARY)), { maxLength: 2 }),
  })
  .map(({ attack, quotes, layers }) => {
    let line = attack.line;
    for (const [pick, how] of quotes) line = requoteWord(line, pick, how);
    for (const [k, neighbour] of layers) line = SURROUNDINGS[k]!(line, neighbour);
    return { name: attack.name, line };
  });
