// The macOS profile of a contained run, as text (no Mac in CI): deny by default, no network, paths as parameters.
import { describe, expect, it } from 'vitest';
import { sandboxArgv, seatbeltContainedProfile } from '../../src/gate/sandbox.js';
import { dirOutsideTmp } from '../exec/helpers.js';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

describe('seatbeltContainedProfile', () => {
  const p = seatbeltContainedProfile(2);
  it('denies by default and cuts the network, unix sockets included', () => {
    expect(p.split('\n').slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    expect(p).toContain('(deny network*)');
    expect(p).not.toContain('(allow network');
  });
  it('allows writes only under the run\'s own TMP', () => {
    const writes = p.split('\n').filter((l) => l.includes('file-write'));
    expect(writes.every((l) => l.includes('(param "TMP")') || l.includes('/dev/'))).toBe(true);
  });
  it('hides every home and the host temp dirs, then lets the project back, then hides WISP_HOME and secrets', () => {
    const at = (s: string) => p.indexOf(s);
    expect(at('(param "HOME_0")')).toBeGreaterThan(-1);
    expect(at('(param "HOME_1")')).toBeGreaterThan(-1);
    expect(at('(subpath "/private/tmp")')).toBeLessThan(at('(subpath (param "PROJECT"))'));
    expect(at('(subpath (param "PROJECT"))')).toBeLessThan(at('(deny file-read* (subpath (param "WISP_HOME")))'));
    expect(p).toMatch(/\(deny file-read\* \(regex #"[^"]*\\\.env/);
  });
  it('passes paths as -D parameters, never in the profile text', () => {
    const base = dirOutsideTmp('sbx');
    const project = join(base, 'pro"ject');
    const wisp = join(base, 'w');
    mkdirSync(project);
    mkdirSync(wisp);
    try {
      const { args } = sandboxArgv('sandbox-exec', { launchDir: project, cwd: project, tmpDir: base, wispHome: wisp, writablePaths: [], allowNetwork: true, contained: true, homes: [base] }, 'ls');
      expect(args[1]).not.toContain(base);
      expect(args).toContain(`PROJECT=${project}`);
      const env = args.indexOf('/usr/bin/env');
      expect(args[env + 1]).toMatch(new RegExp(`^TMPDIR=${base}/wisp-run-`));
      expect(args.slice(-3)).toEqual(['-c', '--', 'ls']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
  it('names the per-run temp directory as scratch, so the runner removes it when the run ends', () => {
    const base = dirOutsideTmp('sbx');
    const project = join(base, 'p');
    mkdirSync(project);
    mkdirSync(join(base, 'w'));
    try {
      const cmd = sandboxArgv('sandbox-exec', { launchDir: project, cwd: project, tmpDir: base, wispHome: join(base, 'w'), writablePaths: [], allowNetwork: true, contained: true, homes: [base] }, 'ls');
      expect(cmd.scratch).toMatch(new RegExp(`^${base}/wisp-run-`));
      expect(existsSync(cmd.scratch!)).toBe(true);
      expect(cmd.args).toContain(`TMP=${cmd.scratch}`);
      expect(cmd.args).toContain(`TMPDIR=${cmd.scratch}`);
      // An approved run writes where the config says: no scratch directory to remove.
      const approved = sandboxArgv('sandbox-exec', { launchDir: project, cwd: project, tmpDir: base, wispHome: join(base, 'w'), writablePaths: [], allowNetwork: true }, 'ls');
      expect(approved.scratch).toBeUndefined();
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
