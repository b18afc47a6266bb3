// Docs kept in step with the code: every audit kind documented, every kind written declared, every config key (and
// its default) in the reference, every command in the reference, every docs page in the index.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_KINDS } from '../../src/audit/kinds.js';
import { leafKeys } from '../../src/config/keys.js';

const ROOT = join(import.meta.dirname, '../..');
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  let names: string[];
  try {
    names = readdirSync(join(ROOT, dir));
  } catch {
    return out;
  }
  for (const name of names) {
    const rel = join(dir, name);
    if (statSync(join(ROOT, rel)).isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

/**
 * Kind literals handed to an audit sink anywhere in the source: `….write('kind'`, `this.audit('kind'`, and the
 * first argument on the next line (`write(\n  'kind',`). Writes to streams (stdout, stderr, sockets) are skipped.
 */
function writtenKinds(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const call = /([\w.$?!\]\)]*?)\b(write|audit|record)\(\s*(['"])([a-z][a-z-]*(?:\.[a-z-]+)?)\3\s*,/g;
  for (const file of ['src', 'commands', 'ui'].flatMap(sourceFiles)) {
    const text = read(file);
    for (const m of text.matchAll(call)) {
      const receiver = m[1] ?? '';
      if (/std(out|err)|stream|socket|res$|child|pipe|fd/i.test(receiver)) continue;
      const kind = m[4] as string;
      found.set(kind, [...(found.get(kind) ?? []), file]);
    }
  }
  return found;
}

describe('docs/logging.md', () => {
  const doc = read('docs/logging.md');

  it.each([...AUDIT_KINDS])('documents %s in a table row', (kind) => {
    expect(doc).toMatch(new RegExp(`^\\| \`${kind.replace('.', '\\.')}\` \\|`, 'm'));
  });

  it('every kind written anywhere in the source is declared in AUDIT_KINDS', () => {
    const written = writtenKinds();
    expect(written.size).toBeGreaterThan(10); // the scan itself works
    const undeclared = [...written.entries()].filter(([k]) => !(AUDIT_KINDS as readonly string[]).includes(k));
    expect(Object.fromEntries(undeclared)).toEqual({});
  });

  it('documents the envelope fields', () => {
    for (const field of ['schema', 'id', 'time', 'version', 'pid', 'session', 'thread', 'turn', 'kind', 'details']) {
      expect(doc).toMatch(new RegExp(`^\\| \`${field}\` \\|`, 'm'));
    }
  });
});

describe('docs/wisp.md', () => {
  const doc = read('docs/wisp.md');

  it.each(leafKeys().map((k) => [k.key, k] as const))('documents %s with its default', (key, info) => {
    const section = doc.slice(doc.indexOf('### Every key'), doc.indexOf('### Editor support'));
    const row = section.split('\n').find((l) => l.startsWith(`| \`${key}\` |`));
    expect(row, `no table row for ${key}`).toBeDefined();
    if (key === 'policy.deny') expect(row).toMatch(/built-in deny list/);
    else if (info.default === undefined) expect(row).toMatch(/\(unset\)/);
    else expect(row).toContain(`\`${JSON.stringify(info.default)}\``);
  });

  it('documents every subcommand', async () => {
    const { SUBCOMMANDS } = await import('../../commands/index.js');
    for (const name of SUBCOMMANDS) expect(doc, name).toContain(`### \`wisp ${name}\``);
  });

  it('documents the environment variables the code reads and the exit codes', () => {
    const envRead = new Set<string>();
    for (const file of ['src', 'commands', 'ui', 'bin'].flatMap(sourceFiles)) {
      for (const m of read(file).matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) envRead.add(m[1] as string);
    }
    for (const v of envRead) expect(doc, v).toContain(`\`${v}\``);
    for (const code of ['0', '1', '64']) expect(doc).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
  });
});

describe('docs/README.md', () => {
  it('links every page in docs/', () => {
    const index = read('docs/README.md');
    const pages = sourceFilesMd('docs').filter((p) => p !== 'README.md' && !p.startsWith('decisions/'));
    for (const page of pages) expect(index, page).toContain(`](${page})`);
  });
});

function sourceFilesMd(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const abs = join(ROOT, dir, name);
    if (statSync(abs).isDirectory()) out.push(...sourceFilesMd(join(dir, name)));
    else if (name.endsWith('.md')) out.push(relative(join(ROOT, 'docs'), abs));
  }
  return out;
}
