// `wisp tools` prints a catalogue generated from src/tools/registry.ts and kept in
// commands/tools-catalogue.generated.ts, so the command starts without loading zod and the tools (its start-up is
// budgeted at 1.6× `node -e 0`). This test keeps the two in step. After changing a tool, regenerate with:
//
//   WISP_UPDATE_CATALOGUE=1 npx vitest run test/operator/tools-catalogue.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue, catalogueMarkdown } from '../../src/tools/registry.js';

const FILE = join(import.meta.dirname, '../../commands/tools-catalogue.generated.ts');

function render(): string {
  return [
    '// GENERATED from src/tools/registry.ts by test/operator/tools-catalogue.test.ts — do not edit by hand.',
    '// Regenerate: WISP_UPDATE_CATALOGUE=1 npx vitest run test/operator/tools-catalogue.test.ts',
    "import type { CatalogueEntry } from '../src/tools/registry.js';",
    '',
    `export const CATALOGUE: { tools: CatalogueEntry[] } = ${JSON.stringify(catalogue(), null, 2)};`,
    '',
    `export const CATALOGUE_MARKDOWN: string = ${JSON.stringify(catalogueMarkdown())};`,
    '',
  ].join('\n');
}

describe('the generated tools catalogue', () => {
  it('matches the registry', () => {
    const want = render();
    if (process.env.WISP_UPDATE_CATALOGUE === '1') writeFileSync(FILE, want);
    let have = '';
    try {
      have = readFileSync(FILE, 'utf8');
    } catch {
      /* missing: fails below */
    }
    expect(have === want, 'commands/tools-catalogue.generated.ts is out of date; regenerate it (see the top of this test)').toBe(true);
  });
});
