// The zod-free config path of short-lived faces (src/config/quick.ts): it must give exactly what loadConfig gives,
// and hand over to loadConfig whenever any config file exists.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { anyConfigFile, DEFAULT_CONFIG, loadConfigQuick } from '../../src/config/quick.js';
import { defaultConfig } from '../../src/config/schema.js';
import { ConfigError } from '../../src/core/errors.js';

let root: string; // the person's home directory
let home: string; // $WISP_HOME
let repo: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'wisp-quick-'));
  home = join(root, '.wisp');
  repo = join(root, 'code', 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(repo, 'src'), { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const opts = (cwd = join(repo, 'src')) => ({ home, cwd, userHome: root });

describe('loadConfigQuick', () => {
  it('DEFAULT_CONFIG is ConfigSchema.parse({}) written out', () => {
    expect(DEFAULT_CONFIG).toEqual(defaultConfig());
  });

  it('without config files: the defaults, a fresh copy each time, as loadConfig gives them', async () => {
    expect(anyConfigFile(opts())).toBe(false);
    const a = await loadConfigQuick(opts());
    expect(a).toEqual(loadConfig(opts()));
    a.config.policy.deny.push('x');
    expect((await loadConfigQuick(opts())).config.policy.deny).not.toContain('x');
  });

  it('a package.json without a wisp key is not a config file', async () => {
    writeFileSync(join(repo, 'package.json'), JSON.stringify({ name: 'x' }));
    expect(anyConfigFile(opts())).toBe(false);
    expect(await loadConfigQuick(opts())).toEqual(loadConfig(opts()));
  });

  it.each([
    ['the user config', () => writeFileSync(join(home, 'config.json'), JSON.stringify({ approval: { threshold: 'safe' } }))],
    ['.wisprc.json', () => writeFileSync(join(repo, '.wisprc.json'), JSON.stringify({ approval: { threshold: 'safe' } }))],
    ['.wisprc (YAML)', () => writeFileSync(join(repo, '.wisprc'), 'approval:\n  threshold: safe\n')],
    ['package.json#wisp', () => writeFileSync(join(repo, 'package.json'), JSON.stringify({ wisp: { approval: { threshold: 'safe' } } }))],
  ])('with %s: hands over to loadConfig', async (_name, write) => {
    write();
    expect(anyConfigFile(opts())).toBe(true);
    const quick = await loadConfigQuick(opts());
    expect(quick).toEqual(loadConfig(opts()));
    expect(quick.config.approval.threshold).toBe('safe');
  });

  it('a malformed package.json or user config is reported by the full loader', async () => {
    writeFileSync(join(repo, 'package.json'), '{ not json');
    await expect(loadConfigQuick(opts())).rejects.toBeInstanceOf(ConfigError);
    rmSync(join(repo, 'package.json'));
    writeFileSync(join(home, 'config.json'), '{"approval": {"threshold": "loud"}}');
    await expect(loadConfigQuick(opts())).rejects.toThrow(/approval\.threshold/);
  });

  it('stops at the person home like findProjectConfig', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'wisp-quick-outside-'));
    try {
      // A config above the person's home directory is not looked at.
      writeFileSync(join(outside, '.wisprc.json'), '{}');
      const inner = join(outside, 'home');
      mkdirSync(join(inner, 'p'), { recursive: true });
      expect(anyConfigFile({ home, cwd: join(inner, 'p'), userHome: inner })).toBe(false);
      expect(loadConfig({ home, cwd: join(inner, 'p'), userHome: inner }).projectFile).toBeUndefined();
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
