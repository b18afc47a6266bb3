// A contained (unasked) run, with the real bwrap: read-only everywhere but a private /tmp, no network, home hidden,
// secrets covered. Each test is named after the attack it stops.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand, type RunOptions } from '../../src/exec/run.js';
import { dirOutsideTmp, removeAll, runOptions } from './helpers.js';

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
  const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, OPENAI_API_KEY: 'sk-test-secret' };
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
});
