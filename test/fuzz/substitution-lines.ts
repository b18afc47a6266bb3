// The differential check of the substitution-line reader (ADR 0084): generated texts `$(` + a line of the simple-line
// generator + `)`, with blanks inside or not, alone and as the body of `sh -c "…"`, `eval "…"`, `bash -c '…'`, plus
// texts just outside the shape. For each text the reader takes, the parse and the analysis must equal the
// tree-sitter-only ones. A few thousand texts in `npm test`, more in test:stress.
import { expect } from 'vitest';
import { isSubstitutionLine } from '../../src/gate/parse.js';
import { prng } from '../helpers/prng.js';
import { pick } from './plain-words.js';
import { simpleishLine } from './simple-lines.js';
import { sameAsTreeSitter } from './same-reading.js';

const INNER_EDGES = ['', '', '', ' ', '\t', ';', ' ;', '\n', ')', '(', '$', '`'];

/** One generated text: a substitution of a simple-ish line, bare or handed to a shell or eval. */
export function substitutionText(r: () => number): string {
  const edge = (): string => (r() < 0.75 ? '' : pick<string>(r, INNER_EDGES));
  // Lines with the constructs of ADR 0087 (left to tree-sitter inside `$(…)`) only now and then.
  const inner = edge() + simpleishLine(r, r() < 0.1) + edge();
  const open = r() < 0.93 ? '$(' : pick<string>(r, ['$( ', '(', '$((', '<(', '`']);
  const close = r() < 0.95 ? ')' : pick<string>(r, ['))', ' )', '', ') x', ')x', ');']);
  return open + inner + close;
}

/** The text alone (it is then the line), or as a body the line runs. */
export function substitutionLine(r: () => number): { readonly text: string; readonly line: string } {
  const text = substitutionText(r);
  const roll = r();
  if (roll < 0.4) return { text, line: text };
  if (roll < 0.6) return { text, line: `sh -c "${text}"` };
  if (roll < 0.8) return { text, line: `eval "${text}"` };
  if (roll < 0.9) return { text, line: `bash -c '${text}'` };
  return { text, line: `eval ${text}` };
}

export { sameAsTreeSitter };

/**
 * Generates `count` lines from `seed`; for each whose substitution text (or the line itself) the reader takes, the
 * parse and the analysis must equal the tree-sitter-only ones. Returns how many it took.
 */
export function substitutionLinesAgree(count: number, seed: number): { taken: number; total: number } {
  const r = prng(seed);
  let taken = 0;
  const differences: string[] = [];
  for (let i = 0; i < count; i++) {
    const { text, line } = substitutionLine(r);
    // Counted when the reader takes the text (the line itself, or the body the line runs, when the quotes leave it
    // whole); every line is compared either way, since the body may be read differently from the text.
    if (isSubstitutionLine(text)) taken++;
    else if (r() < 0.8) continue;
    if (!sameAsTreeSitter(line) || !sameAsTreeSitter(text)) differences.push(line);
    if (differences.length >= 5) break;
  }
  expect(differences).toEqual([]);
  return { taken, total: count };
}
