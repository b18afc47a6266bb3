// wisp check's lazy mode (ADR 0040) for the lines a fast reader takes: the line is answered without loading the
// parser unless a body it runs needs it, and the answer is the parser-backed one. Modules are loaded afresh, so the
// parser the other tests loaded is not there.
import { expect, vi } from 'vitest';
import { analyzeLine } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { treeSitterOnly } from '../../src/gate/parse.js';

type ParseModule = typeof import('../../src/gate/parse.js');

/**
 * Answers each of `lines` that `taken` (asked of the fresh parse module) accepts in the lazy mode, with a loader that
 * refuses to load; each answer given must equal the tree-sitter-only analysis. Returns how many were answered, how many
 * needed the parser, and whether the fresh module ended with a parser loaded.
 */
export async function lazyAnswers(
  lines: Iterable<string>,
  taken: (parse: ParseModule, line: string) => boolean,
): Promise<{ answered: number; loaded: number; parserLoaded: boolean }> {
  vi.resetModules();
  const fresh = (await import('../../src/gate/parse.js')) as ParseModule;
  const freshAnalyze = (await import('../../src/gate/analyze.js')) as typeof import('../../src/gate/analyze.js');
  const config = defaultConfig();
  expect(fresh.parserReady()).toBe(false);
  let answered = 0;
  let loaded = 0;
  for (const line of lines) {
    if (!taken(fresh, line)) continue;
    let needed = false;
    const result = await fresh
      .withoutParser(() => freshAnalyze.analyzeLine(line, config, '/w'), async () => {
        needed = true;
        throw new Error('parser wanted');
      })
      .catch((err: unknown) => {
        if (!needed) throw err;
        return undefined;
      });
    if (needed) {
      loaded++;
      continue;
    }
    answered++;
    expect(result, line).toStrictEqual(treeSitterOnly(() => analyzeLine(line, config, '/w')));
  }
  return { answered, loaded, parserLoaded: fresh.parserReady() };
}
