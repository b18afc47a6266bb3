// Corpus: bad config files (test/corpus/config.json). Loaded in-process with loadConfig; the cases marked `cli` also
// go through `wisp check` as a real process, which must exit 64 naming the file and the key.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { defaultConfig } from '../../src/config/schema.js';
import { ConfigError } from '../../src/core/errors.js';
import { wispAsync } from '../helpers/cli.js';
import { loadCorpus, title } from './load.js';

interface ConfigCase {
  readonly name: string;
  readonly layer: 'user' | 'project';
  readonly file?: string;
  readonly text: string;
  readonly user?: string;
  readonly cli?: boolean;
  readonly expect: { error?: string; warnings?: string[]; same?: string[]; values?: Record<string, unknown> };
}

const { cases } = loadCorpus<{ cases: ConfigCase[] }>('config.json');
const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function setUp(c: ConfigCase): { root: string; home: string; project: string; file: string } {
  const root = mkdtempSync(join(tmpdir(), 'wisp-corpus-cfg-'));
  roots.push(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(project);
  const file = c.layer === 'user' ? join(home, 'config.json') : join(project, c.file ?? '.wisprc.json');
  writeFileSync(file, c.text);
  if (c.user !== undefined) writeFileSync(join(home, 'config.json'), c.user);
  return { root, home, project, file };
}

function at(config: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), config);
}

describe('config corpus', () => {
  it('has the cases the issue asks for', () => {
    expect(cases.length).toBeGreaterThanOrEqual(70);
    expect(cases.some((c) => c.expect.warnings)).toBe(true);
  });

  it.each(cases.map((c) => [title(c.name), c] as const))('%s', (_n, c) => {
    const { root, home, project, file } = setUp(c);
    const load = () => loadConfig({ home, cwd: project, userHome: root });
    const before = { ...Object.prototype } as Record<string, unknown>;
    if (c.expect.error !== undefined) {
      let caught: unknown;
      try {
        load();
      } catch (err) {
        caught = err;
      }
      expect(caught, 'must be refused').toBeInstanceOf(ConfigError);
      const e = caught as ConfigError;
      expect(e.exitCode).toBe(64);
      expect(e.message).toMatch(new RegExp(c.expect.error));
      expect(e.message, 'names the file').toContain(c.file === 'package.json' ? 'package.json' : file.slice(root.length));
    } else {
      const loaded = load();
      for (const w of c.expect.warnings ?? []) expect(loaded.warnings.join('\n')).toMatch(new RegExp(w));
      // Keys the project tried to loosen keep the value of the layers below (defaults < user).
      const below = c.user === undefined ? defaultConfig() : loadConfig({ home, cwd: root, userHome: root }).config;
      for (const key of c.expect.same ?? []) expect(at(loaded.config, key), key).toEqual(at(below, key));
      for (const [key, value] of Object.entries(c.expect.values ?? {})) expect(at(loaded.config, key), key).toEqual(value);
      if (c.name === 'deny list emptied') expect(loaded.config.policy.deny).toEqual(defaultConfig().policy.deny);
    }
    // Nothing leaked into every object through a `__proto__` key.
    expect({ ...Object.prototype }).toEqual(before);
    expect(({} as Record<string, unknown>).approval).toBeUndefined();
  });
});

describe('config corpus through the CLI', () => {
  const cli = cases.filter((c) => c.cli);
  it.each(cli.map((c) => [title(c.name), c] as const))('%s: `wisp check` exits 64 naming the file', async (_n, c) => {
    const { home, project, file, root } = setUp(c);
    const r = await wispAsync(['check', '--json', '--', 'ls'], { cwd: project, home, env: { HOME: root } }).done;
    expect(r.status).toBe(64);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(new RegExp(c.expect.error!));
    expect(r.stdout).toBe('');
  });
});
