// ADR 0072: the walk reads the syntax tree from plain objects (src/gate/parse/tree.ts) made in one pass, not from
// web-tree-sitter's nodes. Each plain node must say exactly what tree-sitter's node says — type, named-ness, range,
// error flags, children, the field names the walk reads, the children found by field — over the gate's corpora,
// generated shell-ish text (much of it broken, so error trees are covered) and hand-picked odd shapes.
import fc from 'fast-check';
import type { Node as TsNode } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser } from '../../src/gate/parse.js';
import { cursorFunctions, loadedParser, withoutCursorFunctions } from '../../src/gate/parse/runtime.js';
import { type SyntaxNode, readTree } from '../../src/gate/parse/tree.js';
import { attackMutant } from '../fuzz/attack-mutants.js';
import { arbitraryMutant, shellish } from '../fuzz/mutants.js';
import { goldenLines } from './golden/lines.js';

const GENERATED = Number(process.env.WISP_TREE_LINES ?? '2000');

beforeAll(async () => {
  await initParser();
});

function key(n: { type: string; startIndex: number; endIndex: number } | null): string {
  return n ? `${n.type}@${n.startIndex}-${n.endIndex}` : 'none';
}

/** The first property where the plain node differs from tree-sitter's, as a readable path; undefined if none. */
function mismatch(ts: TsNode, s: SyntaxNode, fieldNames: readonly string[], path: string): string | undefined {
  const here = `${path}/${ts.type}`;
  const pairs: Array<[string, unknown, unknown]> = [
    ['type', ts.type, s.type],
    ['isNamed', ts.isNamed, s.isNamed],
    ['startIndex', ts.startIndex, s.startIndex],
    ['endIndex', ts.endIndex, s.endIndex],
    ['isError', ts.isError, s.isError],
    ['isMissing', ts.isMissing, s.isMissing],
    ['hasError', ts.hasError, s.hasError],
    ['childCount', ts.childCount, s.childCount],
    ['namedChildCount', ts.namedChildCount, s.namedChildCount],
  ];
  for (const [name, a, b] of pairs) if (a !== b) return `${here}: ${name} ${String(a)} vs ${String(b)}`;
  const allFields = s.fields.length === s.childCount && s.fields.every((f) => f !== undefined);
  for (let i = 0; i < ts.childCount; i++) {
    const field = s.fields[i];
    if (field !== undefined && field !== ts.fieldNameForChild(i)) return `${here}: field of child ${i}`;
  }
  if (allFields) {
    for (const name of fieldNames) {
      if (key(ts.childForFieldName(name)) !== key(s.childForFieldName(name))) return `${here}: childForFieldName(${name})`;
      const a = ts.childrenForFieldName(name).map(key).join(',');
      const b = s.childrenForFieldName(name).map(key).join(',');
      if (a !== b) return `${here}: childrenForFieldName(${name}) ${a} vs ${b}`;
    }
  }
  const tsKids = ts.children;
  for (let i = 0; i < tsKids.length; i++) {
    if (s.children[i]!.parent !== s) return `${here}: parent of child ${i}`;
    const m = mismatch(tsKids[i]!, s.children[i]!, fieldNames, here);
    if (m) return m;
  }
  return undefined;
}

function differences(lines: Iterable<string>): Array<{ line: string; where: string }> {
  const p = loadedParser();
  const fieldNames = p.language!.fields.filter((f): f is string => typeof f === 'string');
  const out: Array<{ line: string; where: string }> = [];
  for (const line of lines) {
    // As written and ended with a newline: the two texts parseSource hands to tree-sitter.
    // Each read with the runtime's cursor functions (trees without errors) and through the Node API.
    for (const text of [line, line + '\n']) {
      const tree = p.parse(text);
      if (!tree) continue;
      try {
        const where = mismatch(tree.rootNode, readTree(tree), fieldNames, '');
        if (where) out.push({ line: text, where: `cursor: ${where}` });
        const byNodes = mismatch(tree.rootNode, withoutCursorFunctions(() => readTree(tree)), fieldNames, '');
        if (byNodes) out.push({ line: text, where: `nodes: ${byNodes}` });
      } finally {
        tree.delete();
      }
    }
    if (out.length >= 5) break;
  }
  return out;
}

describe('the plain syntax tree says what tree-sitter says', () => {
  it("reaches the runtime's cursor functions (else every tree is read through the slower Node API)", () => {
    expect(cursorFunctions()).toBeDefined();
  });

  it('over the recorded golden lines', { timeout: 300_000 }, () => {
    expect(differences(goldenLines())).toEqual([]);
  });

  it(`over ${GENERATED} generated lines of each kind (shell-ish text, deny-list mutants, attack mutants)`, { timeout: 300_000 }, () => {
    const lines = [
      ...fc.sample(shellish, { seed: 7201, numRuns: GENERATED }),
      ...fc.sample(arbitraryMutant, { seed: 7202, numRuns: GENERATED }).map((m) => m.line),
      ...fc.sample(attackMutant, { seed: 7203, numRuns: GENERATED }).map((m) => m.line),
    ];
    expect(differences(lines)).toEqual([]);
  });

  it('error trees, heredocs, loops, cases, functions and redirections', () => {
    const odd = [
      'cat <<EOF | sh\nrm -rf /\nEOF',
      "cat <<'EOF' > out && ls\n$(x)\nEOF",
      'for f in *; do rm "$f"; done > log',
      'for ((i=0;i<3;i++)); do echo $i; done',
      'while read l; do echo "$l"; done < in.txt',
      'until false; do :; done',
      'case $x in a|b) ls;; *) rm x;; esac',
      'f() { ls; } > out',
      'function g { echo hi; }',
      'if [ -d x ]; then ls; elif true; then :; else rm y; fi',
      'a=1 b+=2 c=$(id) cmd arg',
      'export A=1 B; unset C',
      '[[ $a == b ]] && (( x += 1 ))',
      'echo $"hello" "su"$"do"',
      '{ ls; pwd; } 2>&1 | tee out',
      'ls |',
      '(ls',
      'echo "a',
      'if then fi',
      'case x in',
      '$(( 1 +',
      'cat <<EOF',
      'ls && && rm',
      'echo `ls` <(cat) >(wc)',
    ];
    expect(differences(odd)).toEqual([]);
  });
});

describe('an error tree read by the cursor (ADR 0072, amended)', () => {
  it('asks a node its hasError only while the tree lives: after delete the question throws, never guesses', () => {
    const tree = loadedParser().parse("require('child_process').execSync('rm -rf ~')")!;
    const root = readTree(tree);
    expect(root.hasError).toBe(true);
    const first = root.children[0]!;
    const alive = first.hasError; // read while the tree lives: tree-sitter's answer
    expect(alive).toBe(tree.rootNode.child(0)!.hasError);
    const second = readTree(tree).children[0]!;
    tree.delete();
    expect(() => second.hasError).toThrow(/deleted/);
    expect(first.hasError).toBe(alive); // an answer read once is kept
  });

  it('the JavaScript of a launcher, parsed as shell, keeps the same parts with either reading', async () => {
    const { parseLine, parsedAsWritten } = await import('../../src/gate/parse.js');
    const texts = [
      "require('child_process').execSync('rm -rf ~')",
      "require('fs').readdirSync('.').forEach(f => console.log(f))",
      'import os; os.system("rm -rf /")',
      'BEGIN { system("id") }',
    ];
    for (const t of texts) {
      const fast = parsedAsWritten(() => parseLine(t));
      const slow = withoutCursorFunctions(() => parsedAsWritten(() => parseLine(t)));
      expect(fast).toEqual(slow);
    }
  });
});
