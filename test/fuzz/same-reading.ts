// The oracle every fast-reader fuzz shares: a line's parse and analysis with the fast readers on must equal the
// tree-sitter-only ones.
import { isDeepStrictEqual } from 'node:util';
import { analyzeLine, type LineAnalysis } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { parseLine, treeSitterOnly } from '../../src/gate/parse.js';

const config = defaultConfig();

function analyse(line: string): LineAnalysis {
  return analyzeLine(line, config, '/work/project', { home: '/home/person' });
}

/** Whether the fast readers' reading of `line` equals tree-sitter's: the parse and the analysis. */
export function sameAsTreeSitter(line: string): boolean {
  const fast = { parsed: parseLine(line), analysis: analyse(line) };
  const slow = treeSitterOnly(() => ({ parsed: parseLine(line), analysis: analyse(line) }));
  return isDeepStrictEqual(fast, slow);
}
