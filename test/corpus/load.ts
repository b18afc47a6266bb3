// Reads the corpus data files (test/corpus/*.json) and expands their builders: {"$repeat": [s, n]} is s repeated n
// times, {"$concat": [a, b, …]} joins the expanded parts, {"$json": v} is v (expanded) as JSON text. Everything
// else is kept as parsed, own `__proto__` keys included (JSON.parse makes them plain properties).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const CORPUS_DIR = import.meta.dirname;

export function expand(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(expand);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === '$repeat') {
    const [s, n] = o.$repeat as [string, number];
    return s.repeat(n);
  }
  if (keys.length === 1 && keys[0] === '$concat') return (o.$concat as unknown[]).map((x) => String(expand(x))).join('');
  if (keys.length === 1 && keys[0] === '$json') return JSON.stringify(expand(o.$json));
  const out: Record<string, unknown> = {};
  for (const k of keys) Object.defineProperty(out, k, { value: expand(o[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

export function loadCorpus<T>(file: string): T {
  return expand(JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8'))) as T;
}

/** `name` for test titles: printable, short. */
export function title(name: string): string {
  return name.length > 90 ? name.slice(0, 87) + '…' : name;
}
