// Issue 17 §1: the package a user installs. Offline: the tarball `npm pack` makes is unpacked next to the clone's
// node_modules (what `npm install -g` would fetch) and its bin runs from another directory. The real global install,
// which needs the registry for the dependencies, is `.ci/pack-install` (run by `.ci/run`).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { VERSION } from '../../src/core/version.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  engines: { node: string };
  version: string;
};
const pkgVersion = pkg.version;

describe('the package', () => {
  it('attack: `npx wisp` outside a clone fetches an unrelated package named wisp — ours has another name, the command stays wisp', () => {
    expect(pkg.name).not.toBe('wisp');
    expect(pkg.name).toBe('wisp-harness');
    expect(pkg.bin).toEqual({ wisp: 'dist/bin/wisp.cjs' });
  });

  it('the bin, its ES-module twin and the engine all give the version package.json has', () => {
    const version = (bin: string) => execFileSync(process.execPath, [join(ROOT, 'dist/bin', bin), '--version'], { encoding: 'utf8' }).trim();
    expect(version('wisp.cjs')).toBe(pkgVersion);
    expect(version('wisp.js')).toBe(pkgVersion);
    expect(VERSION).toBe(pkgVersion);
  });

  it('engines names the maintained Node lines, 20, 22 and 24', () => {
    expect(pkg.engines.node).toBe('^20.19.0 || ^22.12.0 || ^24.0.0');
  });

  it('npm pack makes a tarball whose bin runs `wisp doctor` and `wisp check` from another directory', () => {
    const work = mkdtempSync(join(tmpdir(), 'wisp-pack-'));
    execFileSync('npm', ['pack', '--silent', '--ignore-scripts', '--offline', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8' });
    const tgz = join(work, `${pkg.name}-${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}.tgz`);
    const listing = execFileSync('tar', ['tzf', tgz], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(listing).toContain('package/dist/bin/wisp.cjs');
    expect(listing).toContain('package/dist/bin/bundle-loader.cjs');
    expect(listing).toContain('package/examples/safe.json');
    expect(listing.filter((f) => f.startsWith('package/test/') || f.startsWith('package/src/'))).toEqual([]);

    const unpacked = join(work, 'lib');
    mkdirSync(unpacked);
    execFileSync('tar', ['xzf', tgz, '-C', unpacked]);
    symlinkSync(join(ROOT, 'node_modules'), join(unpacked, 'package/node_modules'));
    // What npm does for `bin`: a link on PATH to an executable file.
    const bin = join(work, 'bin');
    mkdirSync(bin);
    chmodSync(join(unpacked, 'package/dist/bin/wisp.cjs'), 0o755);
    symlinkSync(join(unpacked, 'package/dist/bin/wisp.cjs'), join(bin, 'wisp'));

    const elsewhere = join(work, 'elsewhere');
    const home = join(work, 'home');
    mkdirSync(elsewhere);
    mkdirSync(home, { mode: 0o700 });
    writeFileSync(join(elsewhere, 'safe.json'), readFileSync(join(ROOT, 'examples/safe.json')));
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, WISP_HOME: home };
    delete env.CI;
    const run = (args: string[]) => spawnSync('wisp', args, { cwd: elsewhere, env, encoding: 'utf8', timeout: 60_000 });
    expect(run(['--version']).stdout.trim()).toBe(pkgVersion);
    const doctor = run(['doctor', '--json', '-m', 'script:safe.json']);
    const report = JSON.parse(doctor.stdout) as { checks: Array<{ name: string; status: string }> };
    expect(report.checks.find((c) => c.name === 'config')?.status).toBe('ok');
    expect(report.checks.find((c) => c.name === 'model')?.status).toBe('ok');
    const check = run(['check', '--', 'ls -la']);
    expect(check.status).toBe(0);
    expect(check.stdout).toContain('decision: run');
  }, 120_000);
});
