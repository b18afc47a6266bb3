// macOS's default file system ignores case: two sources whose built names differ only by case (ui/transcript.ts and
// ui/Transcript.tsx both became dist/ui/?ranscript.js) would be one file there, and one module would silently
// replace the other. Every source folder is checked by the name it builds to.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const FOLDERS = ['src', 'ui', 'commands', 'bin', 'test', 'docs'];

function walk(dir: string, out: string[]): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    out.push(path);
    if (e.isDirectory()) walk(path, out);
  }
  return out;
}

/** The name a source has after the build (`.ts`/`.tsx` → `.js`, `.mts` → `.mjs`), folded to one case. */
function builtKey(rel: string): string {
  return rel.replace(/\.tsx?$/, '.js').replace(/\.mts$/, '.mjs').replace(/\.cts$/, '.cjs').toLowerCase();
}

function caseCollisions(paths: readonly string[]): string[][] {
  const byKey = new Map<string, string[]>();
  for (const p of paths) byKey.set(builtKey(p), [...(byKey.get(builtKey(p)) ?? []), p]);
  return [...byKey.values()].filter((group) => group.length > 1);
}

describe('file names on a case-insensitive file system', () => {
  it('the check finds the collision that was there (transcript.ts beside Transcript.tsx)', () => {
    expect(caseCollisions(['ui/transcript.ts', 'ui/Transcript.tsx', 'ui/App.tsx'])).toEqual([['ui/transcript.ts', 'ui/Transcript.tsx']]);
    expect(caseCollisions(['src/A/x.ts', 'src/a/y.ts'])).toEqual([]);
    expect(caseCollisions(['src/A/x.ts', 'src/a/x.ts'])).toEqual([['src/A/x.ts', 'src/a/x.ts']]);
  });

  it('no two files or folders in src/ ui/ commands/ bin/ test/ docs/ differ only by case (after the build)', () => {
    const paths = FOLDERS.flatMap((f) => walk(join(ROOT, f), [])).map((p) => relative(ROOT, p));
    expect(paths.length).toBeGreaterThan(100);
    expect(caseCollisions(paths)).toEqual([]);
  });
});
