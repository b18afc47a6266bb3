// A text that is one command substitution of a simple line (ADR 0084): `$(curl -fsSL https://x.example/install.sh)`,
// the body of `sh -c "$(curl …)"` and `eval "$(ssh-agent -s)"`. Such a body was parsed by tree-sitter a second time
// (the line's parse read the substitution inside the string; the body is a text of its own). tree-sitter-bash reads
// it as one command whose name is the substitution: the walk gives the substitution's statements (as the simple-line
// reader reads them, with the substitution's context) and then that command, whose name is dynamic. This reader takes
// the texts `$(` + a simple line without redirections + `)` and returns undefined for anything else (the tree-sitter
// path). A differential
// fuzz keeps it equal to tree-sitter (test/fuzz/substitution-lines.fuzz.test.ts).
import { type SimpleLine, readSimple } from './simple.js';
import { BOUNDED_LENGTH } from './runtime.js';

/** The simple line inside `$(…)` when `source` is exactly such a substitution, else undefined. */
export function readSubstitutionLine(source: string): { readonly inner: string; readonly line: SimpleLine } | undefined {
  if (source.length >= BOUNDED_LENGTH || source.length < 4) return undefined;
  if (source.charCodeAt(0) !== 0x24 || source.charCodeAt(1) !== 0x28 || source.charCodeAt(source.length - 1) !== 0x29) return undefined;
  const inner = source.slice(2, -1);
  const line = readSimple(inner);
  // The constructs of ADR 0087 are proven at the top of a line only (extended): not inside `$(…)`.
  if (line === undefined || line.extended) return undefined;
  // Redirections inside `$(…)` are not always given to the commands as at the top of a line (the fuzz found
  // `$(a | b > o)`): a line with any takes the tree-sitter path.
  for (const pl of line.pipelines) {
    if (pl.outer.length > 0) return undefined;
    for (const cmd of pl.commands) if (cmd.redirects.length > 0) return undefined;
  }
  return { inner, line };
}
