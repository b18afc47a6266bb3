// The compound-line reader under test (issue #16, ADR 0091): one place the fuzz, stress and attack tests import it
// from. Until src/gate/parse/compound.ts exists this is a stand-in that takes no line, so the harness compiles and
// its own tests run.
import type { SyntaxNode } from '../../src/gate/parse/tree.js';

/** Whether readCompound below is the stand-in (the non-vacuity checks wait for the real reader). */
export const READER_IS_STUB = true;

/** Stand-in for `readCompound` of src/gate/parse/compound.ts: takes no text. */
export function readCompound(text: string): SyntaxNode | undefined {
  void text;
  return undefined;
}
