// A contained (unasked) run, with the real bwrap: read-only everywhere but a private /tmp, no network, home hidden,
// secrets covered. Each test is named after the attack it stops.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand, type RunOptions } from '../../src/exec/run.js';
import { forgetOwnerOnly } from '../../src/sandbox/owner-only.js';
import { dirInTmp, dirOutsideTmp, removeAll, runOptions } from './helpers.js';

const made: string[] = [];
const servers: Server[] = [];
afterAll(() => {
  removeAll(made);
  for (const s of servers) s.close();
});

/** A fake home with a project inside it, planted secrets, and a $WISP_HOME beside them. */
function world(): { base: string; home: string; project: string; wispHome: string; opts: (o?: Partial<RunOptions>) => RunOptions } {
  const base = dirOutsideTmp('contain');
  made.push(base);
  const home = join(base, 'home');
  const project = join(home, 'code', 'project');
  const wispHome = join(home, '.wisp');
  for (const d of [project, wispHome, join(home, '.ssh')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
  writeFileSync(join(project, '.env'), 'DB_PASSWORD=hunter2\n');
  writeFileSync(join(project, 'README.md'), 'readme\n');
  const env = {
    PATH: `.:bin:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    OPENAI_API_KEY: 'sk-test-secret',
    GITHUB_TOKEN: 'ghp-test-secret',
    AWS_SECRET_ACCESS_KEY: 'aws-test-secret',
    SOME_SERVICE_API_KEY: 'svc-test-secret',
    LANG: 'C.UTF-8',
  };
  const opts = (o: Partial<RunOptions> = {}): RunOptions => ({ ...runOptions(project, wispHome, { env, contained: true }), ...o });
  return { base, home, project, wispHome, opts };
}

describe('a contained run', () => {
  it('reads the project', async () => {
    const w = world();
    const r = await runCommand('cat README.md', w.opts());
    expect(r).toMatchObject({ exitStatus: 0, stdout: 'readme\n', sandboxed: 'bwrap' });
  });

  it('cannot write into the project', async () => {
    const w = world();
    const r = await runCommand('echo evil > README.md; echo new > made.txt', w.opts());
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(readFileSync(join(w.project, 'README.md'), 'utf8')).toBe('readme\n');
    expect(existsSync(join(w.project, 'made.txt'))).toBe(false);
  });

  it('cannot read a planted ~/.ssh/id_rsa', async () => {
    const w = world();
    const r = await runCommand('cat ~/.ssh/id_rsa; ls -a ~', w.opts());
    expect(r.stdout + r.stderr).not.toContain('PRIVATE-KEY-MATERIAL');
    expect(r.stdout).not.toMatch(/\.ssh/);
  });

  it('reads the project .env as empty', async () => {
    const w = world();
    const r = await runCommand('cat .env; wc -c < .env', w.opts());
    expect(r.stdout).not.toContain('hunter2');
    expect(r.stdout.trim()).toBe('0');
  });

  it('cannot read what is in a folder named like a secret (.env/prod, secrets/, credentials/, a .env.production folder), not even by grep -r (ADR 0101)', async () => {
    const w = world();
    rmSync(join(w.project, '.env')); // the world's .env file, to make it a folder here
    const hidden = ['.env/prod', 'secrets/api.txt', 'credentials/aws', 'deploy/.env.production/db', 'config/.secrets/token'];
    for (const rel of [...hidden, 'config/app.txt']) {
      mkdirSync(join(w.project, rel, '..'), { recursive: true });
      writeFileSync(join(w.project, rel), `PASSWORD=hunter2-${rel}\n`);
    }
    const r = await runCommand('grep -r PASSWORD . ; cat secrets/api.txt credentials/aws .env/prod', w.opts());
    expect(r.stdout).toContain('hunter2-config/app.txt'); // an ordinary folder stays readable
    for (const rel of hidden) {
      expect(r.stdout).not.toContain(`hunter2-${rel}`);
    }
  });

  it.runIf(process.getuid?.() === 0)(
    "as root, cannot read root's owner-only files outside the homes, by name or through a link in the project (ADR 0101)",
    async () => {
      const w = world();
      // Outside the project, the homes and the temp dir, like /etc/ssl/private or a database's data folder.
      const vault = join(w.base, 'vault');
      mkdirSync(join(vault, 'locked'), { recursive: true, mode: 0o755 });
      chmodSync(w.base, 0o755);
      chmodSync(join(vault, 'locked'), 0o700);
      writeFileSync(join(vault, 'locked', 'key'), 'LOCKED-KEY\n');
      writeFileSync(join(vault, 'server.conf'), 'SERVER-PASSWORD\n', { mode: 0o600 });
      writeFileSync(join(vault, 'public.conf'), 'PUBLIC\n', { mode: 0o644 });
      symlinkSync(join(vault, 'server.conf'), join(w.project, 'notes.txt'));
      forgetOwnerOnly();
      const r = await runCommand(`cat notes.txt ${vault}/locked/key ${vault}/server.conf ${vault}/public.conf`, w.opts());
      expect(r.stdout).toBe('PUBLIC\n');
      expect(r.stdout + r.stderr).not.toMatch(/LOCKED-KEY|SERVER-PASSWORD/);
    },
  );

  // The walk is reused for minutes: an owner-only folder or file it found and that went away since (another
  // program's private temp folder) made bwrap fail to cover it, and every unasked run failed with status 1 until
  // the walk was done again. Found under load by the suite: one test file's walk listed another's 0700 folder.
  it.runIf(process.getuid?.() === 0)('as root, still runs after an owner-only folder and file the last walk found are gone (ADR 0101)', async () => {
    const w = world();
    const gone = join(w.base, 'gone');
    mkdirSync(join(gone, 'private'), { recursive: true, mode: 0o755 });
    chmodSync(w.base, 0o755);
    chmodSync(join(gone, 'private'), 0o700);
    writeFileSync(join(gone, 'secret.conf'), 'S\n', { mode: 0o600 });
    forgetOwnerOnly();
    const first = await runCommand('echo first', w.opts());
    expect(first.exitStatus).toBe(0);
    rmSync(gone, { recursive: true, force: true });
    const r = await runCommand('echo again', w.opts());
    expect(r.stderr).toBe('');
    expect(r.exitStatus).toBe(0);
    expect(r.stdout).toBe('again\n');
  });

  it('cannot reach a listener on 127.0.0.1', async () => {
    const w = world();
    let heard = 0;
    const server = createServer((s) => {
      heard++;
      s.end('hello\n');
    });
    servers.push(server);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const port = (server.address() as { port: number }).port;
    const r = await runCommand(`echo leak > /dev/tcp/127.0.0.1/${port} && echo SENT`, w.opts());
    expect(r.stdout).not.toContain('SENT');
    expect(heard).toBe(0);
  });

  it('sees no *_API_KEY, token or secret variable, and a PATH without relative entries', async () => {
    const w = world();
    const r = await runCommand('env', w.opts());
    expect(r.exitStatus).toBe(0);
    expect(r.stdout).not.toMatch(/API_KEY|TOKEN|SECRET|test-secret/);
    expect(r.stdout).toMatch(/^LANG=C\.UTF-8$/m);
    const path = /^PATH=(.*)$/m.exec(r.stdout)?.[1] ?? '';
    expect(path.split(':').every((d) => d.startsWith('/'))).toBe(true);
  });

  it('cannot reach a unix socket in the host /tmp, nor one named by a path it can see', async () => {
    const w = world();
    const dir = dirInTmp('sock');
    made.push(dir);
    let heard = 0;
    const inTmp = createServer(() => heard++);
    const inProject = createServer(() => heard++);
    servers.push(inTmp, inProject);
    const tmpSock = join(dir, 'agent.sock');
    const projectSock = join(w.project, 'app.sock');
    await new Promise<void>((ok) => inTmp.listen(tmpSock, ok));
    await new Promise<void>((ok) => inProject.listen(projectSock, ok));
    const probe = (path: string) =>
      `node -e 'const s=require("net").connect(process.argv[1]);s.on("connect",()=>{console.log("CONNECTED");s.end()});s.on("error",e=>console.log(e.code))' '${path}'`;
    const r = await runCommand(`${probe(tmpSock)}; ${probe(projectSock)}`, w.opts());
    expect(r.stdout).not.toContain('CONNECTED');
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(heard).toBe(0);
  });

  it('cannot write anywhere outside its private /tmp, and that /tmp starts empty and is not the host one', async () => {
    const w = world();
    const hostTmpFile = join(tmpdir(), `wisp-contain-probe-${process.pid}`);
    const targets = [join(w.project, 'x'), join(w.home, 'x'), join(w.wispHome, 'x'), join(w.base, 'x'), '/var/tmp/wisp-contain-x', '/etc/wisp-contain-x', '/dev/shm/wisp-contain-x'];
    const line = [
      `ls -A /tmp | wc -l`,
      ...targets.map((t) => `(echo x > '${t}') 2>/dev/null && echo WROTE '${t}'`),
      `echo private > '${hostTmpFile}' && cat '${hostTmpFile}'`,
    ].join('; ');
    const r = await runCommand(line, w.opts());
    expect(r.stdout).not.toContain('WROTE');
    expect(r.stdout.split('\n')[0]).toBe('0');
    expect(r.stdout).toContain('private');
    for (const t of targets) expect(existsSync(t), t).toBe(false);
    expect(existsSync(hostTmpFile)).toBe(false);
  });

  it('a hostile repository: git diff with diff.external set runs the tool contained (no write, no secret, no network)', async () => {
    const w = world();
    execFileSync('git', ['init', '-q', w.project]);
    const git = (...args: string[]) => execFileSync('git', ['-C', w.project, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args]);
    git('add', 'README.md');
    git('commit', '-qm', 'x');
    writeFileSync(join(w.project, 'README.md'), 'changed\n');
    const hook = join(w.project, 'hook.sh');
    const loot = join(w.base, 'loot');
    writeFileSync(
      hook,
      `#!/bin/sh\necho RAN >&2\ncat "$HOME/.ssh/id_rsa" > '${loot}' 2>/dev/null\necho pwned > '${w.project}/pwned' 2>/dev/null\nenv > '${w.project}/env.txt' 2>/dev/null\nexit 1\n`,
      { mode: 0o755 },
    );
    // core.fsmonitor is not obeyed in an unasked run at all (ADR 0096); diff.external is, and is contained.
    execFileSync('git', ['-C', w.project, 'config', 'core.fsmonitor', hook]);
    expect((await runCommand('git status --short', w.opts())).stderr).not.toContain('RAN');
    execFileSync('git', ['-C', w.project, 'config', 'diff.external', hook]);
    const r = await runCommand('git diff', w.opts());
    expect(r.stderr).toContain('RAN'); // the tool did run: the containment, not the classifier, is what held
    expect(existsSync(loot)).toBe(false);
    expect(existsSync(join(w.project, 'pwned'))).toBe(false);
    expect(existsSync(join(w.project, 'env.txt'))).toBe(false);
    expect(readdirSync(w.project).sort()).toEqual(['.env', '.git', 'README.md', 'hook.sh']);
  });

  it('cannot use io_uring or the kernel keyring (seccomp)', async () => {
    const w = world();
    // syscall(425) is io_uring_setup on x86_64 and arm64; keyctl differs per arch, so only io_uring here.
    const r = await runCommand(
      `python3 -c 'import ctypes,os;l=ctypes.CDLL(None,use_errno=True);r=l.syscall(425,1,ctypes.create_string_buffer(120));print(r,os.strerror(ctypes.get_errno()))' 2>&1 || perl -e 'print syscall(425,1,"\\0"x120)," $!\\n"'`,
      w.opts(),
    );
    expect(r.stdout).toMatch(/-1 Operation not permitted/);
  });
});
