// Project configs nest: every one from the search's end to the nearest applies, each only tightening the last.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';

const root = mkdtempSync(join(tmpdir(), 'wisp-layers-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function tree(outer: unknown, inner: unknown, user: unknown = {}) {
  const base = mkdtempSync(join(root, 't-'));
  const home = join(base, 'wisp-home');
  const repo = join(base, 'repo');
  const sub = join(repo, 'vendor', 'hostile');
  mkdirSync(home, { recursive: true });
  mkdirSync(sub, { recursive: true });
  writeFileSync(join(home, 'config.json'), JSON.stringify(user));
  writeFileSync(join(repo, '.wisprc.json'), JSON.stringify(outer));
  writeFileSync(join(sub, '.wisprc.json'), JSON.stringify(inner));
  return loadConfig({ home, cwd: sub, userHome: base });
}

describe('nested project configs', () => {
  it('a nearer config cannot loosen the threshold a farther one tightened', () => {
    const r = tree({ approval: { threshold: 'safe' } }, { approval: { threshold: 'dangerous' } });
    expect(r.config.approval.threshold).toBe('safe');
    expect(r.warnings.join('\n')).toMatch(/ignored approval\.threshold from .*hostile.*only tighten/);
  });

  it('a nearer config cannot turn the network back on', () => {
    const r = tree({ sandbox: { allowNetwork: false } }, { sandbox: { allowNetwork: true } });
    expect(r.config.sandbox.allowNetwork).toBe(false);
  });

  it("keeps the farther config's deny patterns when the nearer one sets its own", () => {
    const r = tree({ policy: { deny: ['outer-bad'] } }, { policy: { deny: ['inner-bad'] } });
    expect(r.config.policy.deny).toEqual(expect.arrayContaining(['outer-bad', 'inner-bad']));
  });

  it('the nearer config may tighten further', () => {
    const r = tree({ approval: { threshold: 'dangerous' } }, { approval: { threshold: 'moderate' } }, { approval: { threshold: 'never' } });
    expect(r.config.approval.threshold).toBe('moderate');
  });
});

describe('notifications from a project config', () => {
  it('may turn them off', () => {
    expect(tree({}, { notifications: { enabled: false } }).config.notifications.enabled).toBe(false);
  });

  it('may not turn them on when the user turned them off (each one starts a program)', () => {
    const r = tree({}, { notifications: { enabled: true } }, { notifications: { enabled: false } });
    expect(r.config.notifications.enabled).toBe(false);
    expect(r.warnings.join('\n')).toMatch(/ignored notifications\.enabled/);
  });
});
