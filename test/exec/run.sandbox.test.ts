// What the bwrap sandbox confines, checked with the real bwrap: writes, $WISP_HOME, the network, root's powers.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/exec/run.js';
import { dirInTmp, dirOutsideTmp, removeAll, runOptions } from './helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));

/** A launch dir and a fake $HOME, both outside the temp dir, and a $WISP_HOME beside them. */
function world(): { launchDir: string; home: string; wispHome: string; outside: string } {
  const base = dirOutsideTmp('sandbox');
  made.push(base);
  const w = {
    launchDir: join(base, 'project'),
    home: join(base, 'home'),
    wispHome: join(base, 'home', '.wisp'),
    outside: join(base, 'elsewhere'),
  };
  for (const d of Object.values(w)) mkdirSync(d, { recursive: true });
  return w;
}

describe('writes under bwrap', () => {
  it('may write in the launch directory', async () => {
    const w = world();
    const r = await runCommand('echo made > made.txt', runOptions(w.launchDir, w.wispHome));
    expect(r).toMatchObject({ exitStatus: 0, sandboxed: 'bwrap' });
    expect(readFileSync(join(w.launchDir, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('writes to /tmp land in a private temp dir of its own, not the host one', async () => {
    const w = world();
    const scratch = dirInTmp('scratch');
    made.push(scratch);
    const r = await runCommand(`ls -A /tmp | wc -l; mkdir -p '${scratch}' && echo t > '${scratch}/t.txt' && cat '${scratch}/t.txt'`, runOptions(w.launchDir, w.wispHome));
    expect(r.exitStatus).toBe(0);
    expect(r.stdout).toBe('0\nt\n');
    expect(existsSync(join(scratch, 't.txt'))).toBe(false);
  });

  it('may write in the host temp dir when sandbox.privateTmp is false', async () => {
    const w = world();
    const scratch = dirInTmp('scratch');
    made.push(scratch);
    const r = await runCommand(`echo t > '${scratch}/t.txt'`, {
      ...runOptions(w.launchDir, w.wispHome),
      sandbox: { enabled: true, allowNetwork: true, writablePaths: [], privateTmp: false },
    });
    expect(r.exitStatus).toBe(0);
    expect(existsSync(join(scratch, 't.txt'))).toBe(true);
  });

  it('cannot plant a git hook or rewrite .git/config, even approved', async () => {
    const w = world();
    mkdirSync(join(w.launchDir, '.git', 'hooks'), { recursive: true });
    writeFileSync(join(w.launchDir, '.git', 'config'), '[core]\n');
    const r = await runCommand('echo evil > .git/hooks/pre-commit; echo "fsmonitor = x" >> .git/config; echo ok > fine.txt', runOptions(w.launchDir, w.wispHome));
    expect(existsSync(join(w.launchDir, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(w.launchDir, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(readFileSync(join(w.launchDir, 'fine.txt'), 'utf8')).toBe('ok\n');
    expect(r.stderr).toMatch(/Read-only file system/);
  });

  it('may write in a configured writable path', async () => {
    const w = world();
    const r = await runCommand(`touch '${w.outside}/ok'`, {
      ...runOptions(w.launchDir, w.wispHome),
      sandbox: { enabled: true, allowNetwork: true, writablePaths: [w.outside] },
    });
    expect(r.exitStatus).toBe(0);
    expect(existsSync(join(w.outside, 'ok'))).toBe(true);
  });

  it('may not write in $HOME, though it may read there', async () => {
    const w = world();
    writeFileSync(join(w.home, '.profile'), 'original\n');
    const r = await runCommand('cat "$HOME/.profile" && echo evil >> "$HOME/.profile"', {
      ...runOptions(w.launchDir, w.wispHome),
      env: { ...process.env, HOME: w.home },
    });
    expect(r.stdout).toBe('original\n');
    expect(r.exitStatus).not.toBe(0);
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(join(w.home, '.profile'), 'utf8')).toBe('original\n');
  });

  it('does not make a per-call working directory outside the launch dir writable', async () => {
    const w = world();
    const r = await runCommand('pwd; touch here', { ...runOptions(w.launchDir, w.wispHome), cwd: w.outside });
    expect(r.stdout.trim()).toBe(w.outside);
    expect(r.exitStatus).not.toBe(0);
    expect(existsSync(join(w.outside, 'here'))).toBe(false);
  });

  it('may not escape through a symlink planted in the launch dir', async () => {
    const w = world();
    symlinkSync(w.home, join(w.launchDir, 'door'));
    const r = await runCommand('echo x > door/planted', runOptions(w.launchDir, w.wispHome));
    expect(r.exitStatus).not.toBe(0);
    expect(existsSync(join(w.home, 'planted'))).toBe(false);
  });
});

describe('$WISP_HOME under bwrap', () => {
  const plant = 'echo "[]" > "$WH/approvals.json"';

  it('is read-only when it sits inside the launch dir', async () => {
    const w = world();
    const wispHome = join(w.launchDir, '.wisp');
    mkdirSync(wispHome);
    writeFileSync(join(wispHome, 'approvals.json'), 'kept');
    const r = await runCommand(`${plant}; echo other > other.txt`, {
      ...runOptions(w.launchDir, wispHome),
      env: { ...process.env, WH: wispHome },
    });
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(join(wispHome, 'approvals.json'), 'utf8')).toBe('kept');
    // The rest of the launch dir stays writable.
    expect(existsSync(join(w.launchDir, 'other.txt'))).toBe(true);
  });

  it('is read-only when it sits in the temp dir', async () => {
    const w = world();
    const wispHome = dirInTmp('home');
    made.push(wispHome);
    const r = await runCommand(`mkdir "$WH/pending"; ${plant}`, {
      ...runOptions(w.launchDir, wispHome),
      env: { ...process.env, WH: wispHome },
    });
    expect(r.exitStatus).not.toBe(0);
    expect(existsSync(join(wispHome, 'approvals.json'))).toBe(false);
    expect(existsSync(join(wispHome, 'pending'))).toBe(false);
  });

  it('is created before the run when missing, so the command cannot create and fill it', async () => {
    const w = world();
    const wispHome = join(w.launchDir, 'fresh-home');
    const r = await runCommand(`mkdir -p "$WH" && ${plant}`, {
      ...runOptions(w.launchDir, wispHome),
      env: { ...process.env, WH: wispHome },
    });
    expect(r.exitStatus).not.toBe(0);
    expect(existsSync(join(wispHome, 'approvals.json'))).toBe(false);
  });

  it('is read-only through a symlink, and when named by a symlinked path', async () => {
    const w = world();
    const real = join(w.launchDir, 'state');
    mkdirSync(real);
    const alias = join(w.launchDir, 'state-alias');
    symlinkSync(real, alias);
    // wisp is told the alias; the command writes through another link to the same place.
    symlinkSync(real, join(w.launchDir, 'door'));
    const r = await runCommand('echo x > door/config.json', runOptions(w.launchDir, alias));
    expect(r.exitStatus).not.toBe(0);
    expect(existsSync(join(real, 'config.json'))).toBe(false);
  });
});

describe('what else bwrap takes away', () => {
  it('leaves the command no capabilities, even when wisp runs as root', async () => {
    const w = world();
    const r = await runCommand('grep CapEff /proc/self/status', runOptions(w.launchDir, w.wispHome));
    expect(r.stdout).toMatch(/CapEff:\s+0+\n/);
  });

  it('keeps /proc/sys read-only (writing the current hostname back is harmless if this ever regresses)', async () => {
    const w = world();
    const r = await runCommand(
      'h=$(cat /proc/sys/kernel/hostname); printf %s "$h" > /proc/sys/kernel/hostname',
      runOptions(w.launchDir, w.wispHome),
    );
    expect(r.exitStatus).not.toBe(0);
    expect(r.stderr).toMatch(/Read-only file system|Permission denied/);
  });

  it('shows the command only its own processes', async () => {
    const w = world();
    const r = await runCommand('ls /proc | grep -c "^[0-9]"', runOptions(w.launchDir, w.wispHome));
    // bwrap's init, the shell, ls and grep — not the host's processes.
    expect(Number(r.stdout.trim())).toBeLessThan(10);
  });
});

describe('the network under bwrap', () => {
  let server: Server;
  let port = 0;
  let received: string[] = [];

  beforeAll(async () => {
    server = createServer((socket) => {
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (data += d));
      socket.on('end', () => received.push(data));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    port = address.port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  afterEach(() => {
    received = [];
  });

  const connect = (): string => `exec 3<>/dev/tcp/127.0.0.1/${port} && printf ping >&3 && exec 3>&-`;

  it('is on by default: a local listener gets the connection', async () => {
    const w = world();
    const r = await runCommand(connect(), runOptions(w.launchDir, w.wispHome));
    expect(r.exitStatus).toBe(0);
    await expect.poll(() => received).toEqual(['ping']);
  });

  it('is cut when allowNetwork is false: the listener hears nothing', async () => {
    const w = world();
    const r = await runCommand(connect(), {
      ...runOptions(w.launchDir, w.wispHome),
      sandbox: { enabled: true, allowNetwork: false, writablePaths: [] },
    });
    expect(r.exitStatus).not.toBe(0);
    expect(r.stderr).toMatch(/Connection refused|Network is unreachable/);
    await new Promise((res) => setTimeout(res, 100));
    expect(received).toEqual([]);
  });
});
