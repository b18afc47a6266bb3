// mayHoldName (ADR 0073) answers "no" only when no word the parser or the rough reading takes from a text can give
// a program name with a run of interest. Checked here against tree-sitter's own reading of generated texts full of
// names split by quotes, backslashes, digits and separators.
import { beforeAll, describe, expect, it } from 'vitest';
import { mayHoldName } from '../../src/gate/name-tokens.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { basename, roughSegments } from '../../src/gate/words.js';
import { prng } from '../helpers/prng.js';

beforeAll(async () => {
  await initParser();
});

const NAMES = new Set(['sudo', 'rm', 'dd', 'su', 'curl', 'python', 'wisp']);
const isName = (piece: string): boolean => NAMES.has(piece);

/** The runs of letters, digits and `_` of every name `nameCandidates` could take from `word` (its basename, cut at `@` or `.`). */
function runsOfName(word: string): string[] {
  const name = basename(word).toLowerCase();
  return name.split(/[^a-z0-9_]+/).filter((r) => r !== '');
}

/** Every word the deny scan could read in `text`: the parsed parts' words, and the rough reading of each text. */
function wordsOf(text: string): string[] {
  const out = roughSegments(text).flat();
  for (const p of parseLine(text).parts) out.push(...(p.unparsed ? roughSegments(p.text).flat() : p.words));
  return out;
}

describe('mayHoldName', () => {
  it('says no only where no word read from the text starts a name with a run of interest', { timeout: 120_000 }, () => {
    const r = prng(7301);
    const pieces = ['sudo', 'rm', 'dd', 'su', 'curl', 'python3', 'WISP', 'x', 'log', 'f', '1', '2', ' ', ' ', '\t', "'", '"', '\\', '(', ')', ';', '|', '&', '>', '<', '.', '/', '=', '-', '@', '#', '\n', ',', ':', 'do', 'ls'];
    let no = 0;
    const wrong: string[] = [];
    for (let i = 0; i < 8_000; i++) {
      let text = '';
      const n = 2 + Math.floor(r() * 10);
      for (let k = 0; k < n; k++) text += pieces[Math.floor(r() * pieces.length)]!;
      if (mayHoldName(text, isName)) continue;
      no++;
      const hit = wordsOf(text).find((w) => runsOfName(w).some(isName));
      if (hit !== undefined) wrong.push(`${JSON.stringify(text)} gives ${JSON.stringify(hit)}`);
    }
    expect(no).toBeGreaterThan(1_000);
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it.each([
    ['a name spelled whole', 'x; sudo ls', true],
    ['a name split by quotes', `x; s''udo ls`, true],
    ['a name split by a backslash', 'x; s\\udo ls', true],
    ['a name cut at a quote the parser may break at', `x"sudo`, true],
    ['a name beside digits', 'x 2dd', true],
    ['a name as a path\'s last part', 'x /usr/bin/sudo', true],
    ['a name in capitals', 'x SUDO', true],
    ['an expansion', 'x $y', true],
    ['a brace list', 'x {a,b}', true],
    ['a continuation', 'x\\\nls', true],
    ['a character outside ASCII', 'x \u212a', true],
    ['a name inside a longer word', 'readdirSync pseudo sudoku', false],
    ['JavaScript without names', `require('fs').readdirSync('.').forEach(f => console.log(f))`, false],
  ])('%s: %j → %s', (_name, text, expected) => {
    expect(mayHoldName(text, isName)).toBe(expected);
  });
});
