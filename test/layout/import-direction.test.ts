// Imports run one way (issue 18, point 6; ADR 0061): each folder has a layer, and a module imports only its own
// folder or a lower layer. The engine in src/ never reaches up into a face — ui/, commands/, bin/ — nor loads a
// face's libraries (ink, react, commander), so `wisp mcp` and `wisp respond` never pay for them; src/core/ imports
// nothing of wisp. Every import form is read: static, re-export, dynamic, and type-only.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..');
const FACES = ['ui', 'commands', 'bin'];
const FACE_PACKAGES = ['ink', 'react', 'commander'];

/**
 * The layers, lowest first. Folders on one line share a layer and may not import each other: the config and the
 * audit log are peers (the log takes its rotation sizes as numbers, never reading the config). Below them sit the
 * model backends (they read a shape of the config, not the config module) and the sandbox. The gate consults
 * escalation, never the other way round.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['src/core'],
  ['src/util'],
  ['src/model', 'src/sandbox'],
  ['src/config', 'src/audit'],
  ['src/escalation'],
  ['src/gate'],
  ['src/exec'],
  ['src/tools'],
  ['src/session'],
  ['src/mcp', 'ui'],
  ['commands'],
  ['bin'],
];
const RANK = new Map(LAYERS.flatMap((folders, rank) => folders.map((f) => [f, rank] as const)));

/** The layer folder of a path relative to the root (`src/gate/x.ts` → `src/gate`), or undefined. */
function folderOf(path: string): string | undefined {
  const segs = path.split(sep);
  const folder = segs[0] === 'src' ? `src/${segs[1]}` : segs[0]!;
  return RANK.has(folder) ? folder : undefined;
}

/** Why `file` importing `spec` goes against the layers, or undefined. */
function layerViolation(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const from = folderOf(relative(ROOT, file));
  const target = relative(ROOT, resolve(dirname(file), spec));
  const to = folderOf(target);
  if (from === undefined) return `is in no layer (add its folder to LAYERS)`;
  if (to === undefined) return target.startsWith(`src${sep}`) ? `imports ${target}, which is in no layer` : undefined;
  if (from === to || RANK.get(to)! < RANK.get(from)!) return undefined;
  return `imports ${target} (${to} is not below ${from})`;
}

/** Cycles in the import graph of `files`, each as its list of files (Tarjan's strongly connected components). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The file a relative specifier names (`./x.js` → `x.ts` or `x.tsx`), or undefined. */
function resolveFile(file: string, spec: string, known: ReadonlySet<string>): string | undefined {
  const base = resolve(dirname(file), spec).replace(/\.c?js$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}.cts`, join(base, 'index.ts')].find((c) => known.has(c));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|tsx|mts|cts|js|mjs)$/.test(e.name) ? [path] : [];
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

  it('the layer check names an upward import, an import within one layer, and core importing wisp', () => {
    expect(layerViolation(join(ROOT, 'src', 'config', 'schema.ts'), '../escalation/types.js')).toMatch(/not below/);
    expect(layerViolation(join(ROOT, 'src', 'mcp', 'server.ts'), '../../ui/App.js')).toMatch(/not below/);
    expect(layerViolation(join(ROOT, 'src', 'core', 'levels.ts'), '../util/atomic.js')).toMatch(/not below/);
    expect(layerViolation(join(ROOT, 'src', 'gate', 'gate.ts'), '../escalation/types.js')).toBeUndefined();
    expect(layerViolation(join(ROOT, 'src', 'gate', 'gate.ts'), './types.js')).toBeUndefined();
    expect(layerViolation(join(ROOT, 'src', 'newthing', 'x.ts'), '../core/ids.js')).toMatch(/no layer/);
    expect(layerViolation(join(ROOT, 'src', 'audit', 'operator.ts'), '../config/load.js')).toMatch(/not below/);
    expect(layerViolation(join(ROOT, 'src', 'config', 'edit.ts'), '../audit/writer.js')).toMatch(/not below/);
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c']]);
  });

  it("the layers keep the issue's order: commands → ui/mcp → session → tools → gate/escalation → config/audit → core", () => {
    // Each tier ranks above the next; within a tier, folders are peers (ui, mcp; config, audit) or one consults the
    // other (the gate raises escalations). Finer layers (exec, model, sandbox, util) sit between tiers.
    const tiers = [['commands'], ['ui', 'src/mcp'], ['src/session'], ['src/tools'], ['src/gate', 'src/escalation'], ['src/config', 'src/audit'], ['src/core']];
    for (let i = 1; i < tiers.length; i++) {
      for (const upper of tiers[i - 1]!) for (const lower of tiers[i]!) expect(RANK.get(upper)!, `${upper} above ${lower}`).toBeGreaterThan(RANK.get(lower)!);
    }
    expect(RANK.get('ui')).toBe(RANK.get('src/mcp'));
    expect(RANK.get('src/config')).toBe(RANK.get('src/audit'));
  });

  it('every import in src/, ui/, commands/ and bin/ goes to its own folder or a lower layer', () => {
    const files = ['src', 'ui', 'commands', 'bin'].flatMap((d) => sources(join(ROOT, d)));
    const found: string[] = [];
    for (const file of files) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const why = layerViolation(file, spec);
        if (why) found.push(`${relative(ROOT, file)} ${why}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('src/core/ imports nothing of wisp outside itself', () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'src', 'core'))) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.') && !resolve(dirname(file), spec).startsWith(join(ROOT, 'src', 'core') + sep)) found.push(`${relative(ROOT, file)} imports ${spec}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('no import cycles, type-only imports included', () => {
    const files = ['src', 'ui', 'commands', 'bin'].flatMap((d) => sources(join(ROOT, d)));
    const known = new Set(files);
    const graph = new Map(
      files.map((file) => [
        file,
        specifiers(readFileSync(file, 'utf8')).flatMap((s) => (s.startsWith('.') ? [resolveFile(file, s, known)].filter((x) => x !== undefined) : [])),
      ]),
    );
    expect(cycles(graph).map((c) => c.map((f) => relative(ROOT, f)).join(' → '))).toEqual([]);
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
