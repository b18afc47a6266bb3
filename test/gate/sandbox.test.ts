import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  canonicalPath,
  detectSandbox,
  sandboxArgv,
  sandboxUnavailableMessage,
  seatbeltProfile,
  writableRoots,
  type SandboxOptions,
} from '../../src/gate/sandbox.js';
import { dirInTmp, dirOutsideTmp, removeAll } from '../exec/helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));

function fixture(): SandboxOptions & { base: string } {
  const base = dirOutsideTmp('argv');
  made.push(base);
  const launchDir = join(base, 'project');
  const tmpDir = join(base, 'tmp');
  const wispHome = join(base, 'home', '.wisp');
  const cwd = join(base, 'elsewhere');
  for (const d of [launchDir, tmpDir, wispHome, cwd]) mkdirSync(d, { recursive: true });
  return { base, launchDir, tmpDir, wispHome, cwd, writablePaths: [], allowNetwork: true, shell: '/bin/bash' };
}

/** The sources of every `flag SRC DEST` triple, in order. */
function mounts(args: string[], flag: string): string[] {
  return args.flatMap((a, i) => (a === flag ? [args[i + 1]] : []));
}

describe('sandboxArgv for bwrap', () => {
  it('starts from a read-only root with a fresh /dev and /proc', () => {
    const { args } = sandboxArgv('bwrap', fixture(), 'true');
    expect(args.slice(0, 7)).toEqual(['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']);
    expect(args.slice(7, 10)).toEqual(['--ro-bind-try', '/proc/sys', '/proc/sys']);
  });

  it('binds the launch dir and configured paths writable, and lays a private tmpfs over /tmp and the temp dir', () => {
    const o = fixture();
    const extra = join(o.base, 'cache');
    mkdirSync(extra);
    const { args } = sandboxArgv('bwrap', { ...o, writablePaths: [extra] }, 'true');
    expect(mounts(args, '--bind')).toEqual([o.launchDir, extra]);
    expect(args.flatMap((a, i) => (a === '--tmpfs' && args[i + 1] !== '/dev/shm' ? [args[i + 1]] : []))).toEqual(['/tmp', o.tmpDir]);
  });

  it('with privateTmp false, binds the host temp dir writable instead', () => {
    const o = fixture();
    const { args } = sandboxArgv('bwrap', { ...o, privateTmp: false }, 'true');
    expect(mounts(args, '--bind')).toEqual([o.launchDir, o.tmpDir]);
    // Only /dev/shm's own bounded tmpfs (ADR 0101), no private temp dir.
    expect(args.flatMap((a, i) => (a === '--tmpfs' ? [args[i + 1]] : []))).toEqual(['/dev/shm']);
  });

  it('keeps git hooks, git config and shell start-up files read-only inside a writable root', () => {
    const o = fixture();
    mkdirSync(join(o.launchDir, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(o.launchDir, '.git', 'config'), '');
    writeFileSync(join(o.launchDir, '.bashrc'), '');
    const { args } = sandboxArgv('bwrap', o, 'true');
    const ro = mounts(args, '--ro-bind');
    for (const p of ['.git/hooks', '.git/config', '.bashrc']) expect(ro).toContain(join(o.launchDir, p));
    expect(args.lastIndexOf('--bind')).toBeLessThan(args.indexOf(join(o.launchDir, '.git/hooks')));
  });

  it('never binds the per-call working directory writable, only changes into it', () => {
    const o = fixture();
    const { args } = sandboxArgv('bwrap', o, 'true');
    expect(mounts(args, '--bind')).not.toContain(o.cwd);
    expect(args[args.indexOf('--chdir') + 1]).toBe(o.cwd);
  });

  it('covers $WISP_HOME read-only after the writable binds, so it wins under a writable root', () => {
    const o = fixture();
    const inside = join(o.launchDir, '.wisp');
    mkdirSync(inside);
    const { args } = sandboxArgv('bwrap', { ...o, wispHome: inside }, 'true');
    const homeAt = args.findIndex((a, i) => a === '--ro-bind' && args[i + 1] === inside);
    const lastBind = args.lastIndexOf('--bind');
    expect(homeAt).toBeGreaterThan(lastBind);
  });

  it('resolves symlinked roots to their real paths and skips ones that do not exist', () => {
    const o = fixture();
    const link = join(o.base, 'link-to-project');
    symlinkSync(o.launchDir, link);
    const { args } = sandboxArgv('bwrap', { ...o, launchDir: link, writablePaths: [join(o.base, 'missing')], privateTmp: false }, 'true');
    expect(mounts(args, '--bind')).toEqual([o.launchDir, o.tmpDir]);
  });

  it('skips / as a writable root (it would lay the host /proc back over the sandbox)', () => {
    expect(writableRoots({ ...fixture(), writablePaths: ['/'] })).not.toContain('/');
  });

  it('takes relative writable paths from the launch dir', () => {
    const o = fixture();
    mkdirSync(join(o.launchDir, 'out'));
    expect(writableRoots({ ...o, writablePaths: ['out'] })).toContain(join(o.launchDir, 'out'));
  });

  it('cuts the network only when allowNetwork is false', () => {
    const o = fixture();
    expect(sandboxArgv('bwrap', o, 'true').args).not.toContain('--unshare-net');
    expect(sandboxArgv('bwrap', { ...o, allowNetwork: false }, 'true').args).toContain('--unshare-net');
  });

  it('isolates pids and ipc, drops capabilities, dies with wisp, and keeps the process group', () => {
    const { args } = sandboxArgv('bwrap', fixture(), 'true');
    expect(args).toEqual(expect.arrayContaining(['--unshare-pid', '--unshare-ipc', '--die-with-parent']));
    expect(args[args.indexOf('--cap-drop') + 1]).toBe('ALL');
    // --new-session would move the command out of the group that a timeout kills.
    expect(args).not.toContain('--new-session');
  });

  it('runs the line with bash -c, after -- so a line starting with - is not an option, under its own init', () => {
    const { file, args } = sandboxArgv('bwrap', { ...fixture(), sandboxPath: '/opt/bwrap' }, '-e x');
    expect(file).toBe('/opt/bwrap');
    // The init (pid 1, --as-pid-1) starts "$0" -c -- "$1": the same argv as an unsandboxed run.
    // It first closes the descriptors wisp inherited (ADR 0098) and offers the run to the OOM killer first (ADR 0101).
    const [dashes, shell, c, init, zero, line] = args.slice(-6);
    expect([dashes, shell, c, zero, line]).toEqual(['--', '/bin/bash', '-c', '/bin/bash', '-e x']);
    expect(init).toMatch(/^for f in \/proc\/self\/fd\/\*; .*; done; echo 1000 > \/proc\/self\/oom_score_adj 2>\/dev\/null; "\$0" -c -- "\$1" & wait "\$!" 2>\/dev\/null$/);
    expect(args).toContain('--as-pid-1');
  });

  it('refuses to build a sandbox for a $WISP_HOME that does not exist', () => {
    const o = fixture();
    const missing = { ...o, wispHome: join(o.launchDir, 'no-such-home') };
    expect(() => sandboxArgv('bwrap', missing, 'true')).toThrow(/does not exist/);
  });
});

describe('sandboxArgv for none', () => {
  it('is the plain shell', () => {
    expect(sandboxArgv('none', fixture(), 'echo hi')).toEqual({ file: '/bin/bash', args: ['-c', '--', 'echo hi'] });
  });
});

describe('the Seatbelt profile (macOS)', () => {
  it('denies writes, allows the roots and terminal devices, then denies $WISP_HOME again', () => {
    expect(seatbeltProfile(2, true)).toBe(
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write*',
        '  (subpath (param "WRITABLE_ROOT_0"))',
        '  (subpath (param "WRITABLE_ROOT_1"))',
        '  (literal "/dev/null")',
        '  (literal "/dev/zero")',
        '  (regex #"^/dev/tty")',
        '  (subpath "/dev/fd"))',
        '(deny file-write* (subpath (param "WISP_HOME")))',
        '(deny signal)',
        '(allow signal (target same-sandbox))',
        '',
      ].join('\n'),
    );
  });

  it('denies writes to the protected files of every root, existing or not, after the roots are allowed (ADR 0098)', () => {
    const o = fixture();
    mkdirSync(join(o.launchDir, '.git', 'hooks'), { recursive: true });
    const { args } = sandboxArgv('sandbox-exec', o, 'ls');
    const profile = args[1].split('\n');
    const deny = profile.findIndex((l) => l.startsWith('(deny file-write* (subpath (param "HELD_0"))'));
    expect(deny).toBeGreaterThan(profile.findIndex((l) => l.includes('WRITABLE_ROOT_0')));
    const held = args.filter((a) => a.startsWith('HELD_')).map((a) => a.slice(a.indexOf('=') + 1));
    expect(held).toEqual(expect.arrayContaining([join(o.launchDir, '.git', 'hooks'), join(o.launchDir, '.envrc'), join(o.launchDir, '.claude')]));
    expect(profile[deny].match(/HELD_/g)).toHaveLength(held.length);
    expect(existsSync(join(o.launchDir, '.envrc'))).toBe(false); // by path: no placeholder on macOS
  });

  it('adds (deny network*) only when the network is off', () => {
    expect(seatbeltProfile(1, true)).not.toContain('network');
    expect(seatbeltProfile(1, false).trimEnd().split('\n').at(-1)).toBe('(deny network*)');
  });

  it('passes paths as -D parameters, never inside the profile text', () => {
    const o = fixture();
    const odd = join(o.base, 'we"ird) (allow default');
    mkdirSync(odd);
    const { file, args } = sandboxArgv('sandbox-exec', { ...o, writablePaths: [odd] }, 'ls');
    expect(file).toBe('/usr/bin/sandbox-exec');
    expect(args[0]).toBe('-p');
    expect(args[1]).not.toContain(o.base);
    expect(args).toEqual(
      expect.arrayContaining([
        `WRITABLE_ROOT_0=${o.launchDir}`,
        `WRITABLE_ROOT_1=${o.tmpDir}`,
        `WRITABLE_ROOT_2=${odd}`,
        `WISP_HOME=${o.wispHome}`,
      ]),
    );
    expect(args.slice(-4)).toEqual(['/bin/bash', '-c', '--', 'ls']);
  });
});

describe('canonicalPath', () => {
  it('resolves the longest existing prefix and keeps the missing rest', () => {
    const base = dirInTmp('canon');
    made.push(base);
    mkdirSync(join(base, 'real'));
    symlinkSync(join(base, 'real'), join(base, 'alias'));
    expect(canonicalPath(join(base, 'alias', 'not', 'yet'))).toBe(join(canonicalPath(base), 'real', 'not', 'yet'));
  });
});

describe('detectSandbox', () => {
  it('finds a working bwrap on this Linux machine by running it', async () => {
    const found = await detectSandbox({ fresh: true });
    expect(found).toMatchObject({ kind: 'bwrap', works: true, isolatesNetwork: true });
    expect(found.path).toMatch(/bwrap$/);
  });

  it('probes once and reuses the answer', async () => {
    const first = detectSandbox();
    expect(detectSandbox()).toBe(first);
    await first;
  });

  it('reports a missing bwrap as not working', async () => {
    const found = await detectSandbox({ bwrapPath: '/nonexistent/bwrap', fresh: true });
    expect(found).toMatchObject({ kind: 'bwrap', works: false, failure: 'missing' });
    expect(found.detail).toMatch(/not found/);
  });

  it('reports a bwrap that fails its trial run as not working', async () => {
    const found = await detectSandbox({ bwrapPath: '/bin/false', fresh: true });
    expect(found).toMatchObject({ works: false, failure: 'refused' });
    expect(found.detail).toMatch(/failed its trial run/);
  });

  it('looks only at the system sandbox-exec on macOS', async () => {
    const found = await detectSandbox({ platform: 'darwin', sandboxExecPath: '/nonexistent/x', fresh: true });
    expect(found).toMatchObject({ kind: 'sandbox-exec', works: false });
  });

  it('has no sandbox elsewhere', async () => {
    expect(await detectSandbox({ platform: 'win32', fresh: true })).toMatchObject({ kind: 'none', works: false });
  });
});

describe('sandboxUnavailableMessage', () => {
  it('says how to install bubblewrap and how to turn the sandbox off', () => {
    const text = sandboxUnavailableMessage({ kind: 'bwrap', works: false, detail: 'bubblewrap (bwrap) not found' });
    expect(text).toContain('apt-get install bubblewrap');
    expect(text).toContain('dnf install bubblewrap');
    expect(text).toContain('wisp config set sandbox.enabled false');
    expect(text).toContain('bubblewrap (bwrap) not found');
  });

  it('does not tell a person to install a bwrap that is installed but refused by the kernel', () => {
    const text = sandboxUnavailableMessage({
      kind: 'bwrap',
      path: '/usr/bin/bwrap',
      works: false,
      failure: 'refused',
      detail: 'bwrap at /usr/bin/bwrap failed its trial run: bwrap: setting up uid map: Permission denied',
    });
    expect(text).not.toContain('apt-get');
    expect(text).toContain('AppArmor');
    expect(text).toContain('wisp config set sandbox.enabled false');
  });
});
