// ADR 0088: the tree-sitter path with fewer temporary objects. The syntax tree's child lists are made at their exact
// length (the leaves share one empty list), and the walk reads word shapes in place instead of slicing the text and
// testing one-character strings. Each reading that replaced another is compared with the one it replaced (written
// out here as the reference) over generated text, and the attacks each could let through are tried by name.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { Collector } from '../../src/gate/parse/context.js';
import { loadedParser } from '../../src/gate/parse/runtime.js';
import { type SyntaxNode, readTree } from '../../src/gate/parse/tree.js';
import { testWords, unquotedShape, unquotedShapeIn, wordShape } from '../../src/gate/parse/word-value.js';
import { roughSegments } from '../../src/gate/words.js';
import type { WordShape } from '../../src/gate/types.js';
import { goldenLines } from './golden/lines.js';

const RUNS = Number(process.env.WISP_LEAN_RUNS ?? '3000');

beforeAll(async () => {
  await initParser();
});

/** The reading unquotedShapeIn replaced: a sliced text, one character string at a time. */
function referenceUnquotedShape(text: string): WordShape {
  let shape: WordShape = 'literal';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if ('$`(){}<>|;&\'"'.includes(ch)) {
      if (text === '{}') continue;
      return 'dynamic';
    }
    if (ch === '*' || ch === '?' || ch === '[') shape = 'glob';
  }
  return shape;
}

/** The test the string shape replaced: only string_content children, and no `$` or backtick outside an escape. */
function referenceStringShape(c: Collector, node: SyntaxNode): WordShape {
  return node.namedChildren.every((n) => n.type === 'string_content') && !/[$`]/.test(c.slice(node).replace(/\\[\s\S]/g, '')) ? 'literal' : 'dynamic';
}

/** Text dense in the characters the shape readers treat specially. */
const denseText = fc.array(fc.constantFrom('\\', '$', '`', '{', '}', '(', ')', '*', '?', '[', ']', '"', "'", '<', '>', '|', ';', '&', 'a', '-', ' ', '\u00e9', '\ud83d'), { maxLength: 12 }).map((cs) => cs.join(''));

/** Every node of a tree, depth first. */
function nodesOf(root: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const todo = [root];
  while (todo.length > 0) {
    const n = todo.pop()!;
    out.push(n);
    for (const k of n.children) todo.push(k);
  }
  return out;
}

/** Reads `text` with tree-sitter and hands each node of its tree to `visit` (with a collector over the text). */
function withNodes(text: string, visit: (c: Collector, node: SyntaxNode) => void): void {
  const tree = loadedParser().parse(text);
  if (!tree) return;
  try {
    const root = readTree(tree);
    const c = new Collector(text, !root.hasError, () => undefined);
    for (const n of nodesOf(root)) visit(c, n);
  } finally {
    tree.delete();
  }
}

describe('word shapes read in place say what the sliced reading said', () => {
  it(`unquotedShapeIn over ${RUNS} generated texts and every range of them`, { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(denseText, (text) => {
        expect(unquotedShape(text)).toBe(referenceUnquotedShape(text));
        for (let from = 0; from <= text.length; from++) {
          for (let to = from; to <= text.length; to++) {
            expect(unquotedShapeIn(text, from, to)).toBe(referenceUnquotedShape(text.slice(from, to)));
          }
        }
      }),
      { seed: 8801, numRuns: RUNS },
    );
  });

  it(`every word, string and concatenation of ${RUNS} generated commands, and of the golden lines`, { timeout: 300_000 }, () => {
    const compare = (line: string): void =>
      withNodes(line, (c, n) => {
        if (n.type === 'string') expect(wordShape(c, n), `${line} @${n.startIndex}`).toBe(referenceStringShape(c, n));
        if (n.type === 'word' || n.type === 'number') expect(wordShape(c, n), line).toBe(referenceUnquotedShape(c.slice(n)));
        if (n.type === 'test_command') {
          const text = c.slice(n);
          const open = text.startsWith('[[') ? '[[' : '[';
          const close = open === '[[' ? ']]' : ']';
          const inner = text.slice(open.length, text.endsWith(close) ? -close.length : undefined);
          expect(testWords(c, n), line).toEqual([open, ...roughSegments(inner).flat(), close]);
        }
      });
    fc.assert(
      fc.property(denseText, denseText, fc.constantFrom('echo ', 'rm ', '[ ', '[[ ', 'x=', 'cat <'), (a, b, head) => {
        for (const line of [`${head}"${a}"${b}`, `${head}${a} "${b}"`, `${head}${a}${b} ]`, `${head}"${a}" ]]`]) compare(line);
      }),
      { seed: 8802, numRuns: RUNS },
    );
    for (const line of goldenLines()) compare(line);
  });
});

describe('the child lists of the tree', () => {
  it('hold exactly the children, and the leaves share one list that stays empty after every golden line', { timeout: 300_000 }, () => {
    let leaf: readonly SyntaxNode[] | undefined;
    for (const line of goldenLines()) {
      withNodes(line, (_c, n) => {
        if (n.childCount > 0) return;
        leaf ??= n.children;
        // One list for every leaf: a write into it would give every leaf of every later tree a child.
        expect(n.children).toBe(leaf);
      });
    }
    expect(leaf).toBeDefined();
    expect(leaf!.length).toBe(0);
  });
});

describe('attacks on the shape readers', () => {
  const shapesOf = (line: string): Array<readonly WordShape[] | undefined> => parseLine(line).parts.map((p) => p.shapes);

  it('an escaped backslash before $( does not hide the substitution: `echo "\\\\$(rm -rf ~)"`', () => {
    const parts = parseLine('echo "\\\\$(rm -rf ~)"').parts;
    expect(parts.map((p) => p.words[0])).toEqual(['rm', 'echo']);
    expect(parts[1]!.shapes).toEqual(['literal', 'dynamic']);
  });

  it('an escaped dollar stays literal text, not a substitution: `echo "\\$(id)"`', () => {
    const parts = parseLine('echo "\\$(id)"').parts;
    expect(parts).toHaveLength(1);
    expect(parts[0]!.words).toEqual(['echo', '$(id)']);
  });

  it('a backtick in double quotes is dynamic, escaped or not only as bash reads it', () => {
    expect(shapesOf('echo "`id`"')[1]).toEqual(['literal', 'dynamic']);
    expect(shapesOf('echo "\\`id\\`"')[0]).toEqual(['literal', 'literal']);
  });

  it("a brace expansion next to find's placeholder is not the placeholder: `rm {}x`, `rm x{}`, `rm {a,b}`", () => {
    // Only the whole text `{}` is the placeholder (the in-place reading checks the range, not the line).
    expect(unquotedShapeIn('rm {}', 3, 5)).toBe('literal');
    expect(unquotedShapeIn('{}x', 0, 2)).toBe('literal');
    expect(unquotedShapeIn('{}x', 0, 3)).toBe('dynamic');
    for (const line of ['rm {}x', 'rm x{}', 'rm {a,b}', 'rm {}{}']) expect(shapesOf(line).at(-1)!.at(-1), line).toBe('dynamic');
  });

  it('a glob is a glob unless escaped: `rm *` against `rm \\*`', () => {
    expect(shapesOf('rm *')[0]).toEqual(['literal', 'glob']);
    expect(shapesOf('rm \\*')[0]).toEqual(['literal', 'literal']);
    expect(shapesOf('rm a\\*b?')[0]).toEqual(['literal', 'glob']);
  });
});
