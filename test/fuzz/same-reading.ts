// The oracle every fast-reader fuzz shares: a line's parse and analysis with the fast readers on must equal the
// tree-sitter-only ones.
import { isDeepStrictEqual } from 'node:util';
import { analyzeLine, decisionFor, type LineAnalysis } from '../../src/gate/analyze.js';
import { builtinDeny } from '../../src/gate/deny.js';
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

/**
 * Everything the gate says of `line` — parse, analysis, decision and the deny scan's hit — with the fast readers on,
 * and with tree-sitter alone: equal when the fast readers read it as tree-sitter does.
 */
export function saidBothWays(line: string): { readonly fast: string; readonly slow: string } {
  return { fast: said(line), slow: treeSitterOnly(() => said(line)) };
}

function said(line: string): string {
  const parsed = parseLine(line);
  const analysis = analyse(line);
  return JSON.stringify({ parsed, analysis, decision: decisionFor(analysis, config.approval.threshold), deny: builtinDeny(line, parsed.parts, {}) ?? null });
}

/** The gate's decision on `line` under the default configuration. */
export function decisionOf(line: string): 'run' | 'ask' | 'deny' {
  return decisionFor(analyse(line), config.approval.threshold);
}
