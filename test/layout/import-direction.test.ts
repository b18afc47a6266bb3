// Imports run one way (issue 18, point 6): the engine in src/ never reaches up into a face — ui/, commands/, bin/ —
// nor loads a face's libraries (ink, react, commander), so `wisp mcp` and `wisp respond` never pay for them and the
// engine can be used without a terminal. Every import form is read: static, re-export, dynamic, and type-only.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const FACES = ['ui', 'commands', 'bin'];
const FACE_PACKAGES = ['ink', 'react', 'commander'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** Module specifiers a file names: `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')`, `require('x')`. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const forms = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of forms) for (const m of text.matchAll(re)) out.push(m[1]!);
  return out;
}

/** Why `spec`, imported by `file`, breaks the direction, or undefined. */
function violation(file: string, spec: string): string | undefined {
  if (spec.startsWith('.')) {
    const target = relative(ROOT, resolve(dirname(file), spec));
    const top = target.split(sep)[0]!;
    return FACES.includes(top) ? `imports ${target}, a face` : undefined;
  }
  const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
  return FACE_PACKAGES.includes(pkg) ? `imports ${pkg}, a face's library` : undefined;
}

describe('import direction', () => {
  it('reads every import form (a check that cannot see an import cannot fail)', () => {
    const text = [
      "import { a } from '../../ui/App.js';",
      "import type { B } from '../commands/chat.js';",
      "export { c } from 'ink';",
      "import 'react';",
      "const m = await import('commander');",
      'import {\n  d,\n  e,\n} from "../ui/x.js";',
    ].join('\n');
    expect(specifiers(text).sort()).toEqual(['../../ui/App.js', '../commands/chat.js', '../ui/x.js', 'commander', 'ink', 'react'].sort());
    const file = join(ROOT, 'src', 'gate', 'x.ts');
    expect(violation(file, '../../ui/App.js')).toMatch(/a face/);
    expect(violation(file, 'react/jsx-runtime')).toMatch(/react/);
    expect(violation(file, '../audit/writer.js')).toBeUndefined();
    expect(violation(file, 'zod')).toBeUndefined();
  });

  it('nothing in src/ imports ui/, commands/, bin/, ink, react or commander', () => {
    const files = sources(join(ROOT, 'src'));
    expect(files.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const file of files) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const why = violation(file, spec);
        if (why) found.push(`${relative(ROOT, file)} ${why}`);
      }
    }
    expect(found).toEqual([]);
  });
});
