// A contained run reads a repository's config without its credentials (ADR 0098): a token in a remote's URL or in
// an http extraheader (as CI checkouts leave it) reached the model from an unasked `cat .git/config`. Real bwrap.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand, type RunOptions } from '../../src/exec/run.js';
import { dirOutsideTmp, git, removeAll, runOptions, withSubmodule } from './helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));


function world(): { base: string; project: string; opts: (o?: Partial<RunOptions>) => RunOptions } {
  const base = dirOutsideTmp('contain-git');
  made.push(base);
  const home = join(base, 'home');
  const project = join(base, 'project');
  const wispHome = join(home, '.wisp');
  for (const d of [project, wispHome]) mkdirSync(d, { recursive: true });
  writeFileSync(join(project, 'README.md'), 'readme\n');
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' };
  return { base, project, opts: (o = {}) => ({ ...runOptions(project, wispHome, { env, contained: true }), ...o }) };
}

const scratchDirs = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith('wisp-run-'));

describe('a contained run reading .git/config', () => {
  it('does not see a token in a remote URL or an http extraheader, and git still works', async () => {
    const w = world();
    git(w.project, 'init', '-q', '-b', 'main');
    git(w.project, 'remote', 'add', 'origin', 'https://x-access-token:ghs_SECRET1@github.com/o/r.git');
    git(w.project, 'config', 'http.https://github.com/.extraheader', 'AUTHORIZATION: basic U0VDUkVUMg==');
    git(w.project, 'config', 'credential.helper', 'store --file /tmp/creds');
    git(w.project, 'config', 'branch.main.remote', 'origin');
    git(w.project, 'add', 'README.md');
    git(w.project, 'commit', '-q', '-m', 'one');
    const before = scratchDirs();
    const r = await runCommand('cat .git/config; git config --list; git remote -v; git log --oneline | wc -l', w.opts());
    const seen = r.stdout + r.stderr;
    expect(r.exitStatus).toBe(0);
    expect(seen).not.toMatch(/SECRET1|U0VDUkVUMg|extraheader|\/tmp\/creds/);
    expect(r.stdout).toContain('origin\thttps://github.com/o/r.git (fetch)');
    expect(r.stdout).toMatch(/^1$/m);
    expect(scratchDirs()).toEqual(before); // the cleaned copy went with the run
  });

  it('reads it as empty when no cleaned copy can be made (a temp dir that cannot be written), and still runs', async () => {
    const w = world();
    git(w.project, 'init', '-q');
    git(w.project, 'remote', 'add', 'origin', 'https://u:SECRET5@github.com/o/r.git');
    const r = await runCommand('wc -c < .git/config; cat README.md', w.opts({ tmpDir: join(w.base, 'no-such-tmp') }));
    expect(r.exitStatus).toBe(0);
    expect(r.stdout).toBe('0\nreadme\n');
  });

  it('does not see a token in a nested repository deeper in the project', async () => {
    const w = world();
    const nested = join(w.project, 'vendor', 'tool');
    mkdirSync(nested, { recursive: true });
    git(nested, 'init', '-q');
    git(nested, 'remote', 'add', 'origin', 'https://u:SECRET4@git.example/t.git');
    const r = await runCommand('cat vendor/tool/.git/config; git -C vendor/tool remote -v', w.opts());
    expect(r.stdout + r.stderr).not.toContain('SECRET4');
    expect(r.stdout).toContain('https://git.example/t.git');
  });

  it("does not see a token in a submodule's config either", async () => {
    const w = world();
    withSubmodule(w.base, w.project, 'vendor/lib');
    git(join(w.project, 'vendor', 'lib'), 'remote', 'set-url', 'origin', 'https://u:glpat-SECRET3@gitlab.example/o/lib.git');
    const r = await runCommand('cat .git/modules/vendor/lib/config; git -C vendor/lib remote -v', w.opts());
    expect(r.stdout + r.stderr).not.toContain('SECRET3');
    expect(r.stdout).toContain('https://gitlab.example/o/lib.git');
  });
});
