// `wisp models list | pull | rm` as a person runs them (the built CLI), against a local HTTP server.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome, wisp, wispAsync } from '../helpers/cli.js';

const body = Buffer.concat([Buffer.from('GGUF'), randomBytes(64 * 1024)]);
const sha = createHash('sha256').update(body).digest('hex');
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/m.gguf') {
      res.writeHead(200, { 'content-length': String(body.length) });
      res.end(body);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('wisp models', () => {
  it('list on an empty home says how to get a model', () => {
    const { dir, home } = freshHome();
    const r = wisp(['models', 'list'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/No model files in .*models pull/s);
    rmSync(dir, { recursive: true, force: true });
  });

  it('pull --url --sha256 installs a verified file that list shows and -m llama:NAME accepts; rm deletes it', async () => {
    const { dir, home } = freshHome();
    const pulled = wispAsync(['models', 'pull', '--url', `${base}/m.gguf`, '--sha256', sha, '--name', 'tiny'], { cwd: dir, home });
    const r = await pulled.done;
    expect(r.stderr).not.toMatch(/wisp: /);
    expect(r.status).toBe(0);
    expect(readFileSync(join(home, 'models', 'tiny.gguf')).equals(body)).toBe(true);
    const list = wisp(['models', 'list', '--json'], { cwd: dir, home });
    expect(JSON.parse(list.stdout).models).toMatchObject([{ name: 'tiny', bytes: body.length, partial: false }]);
    const doctor = wisp(['doctor', '-m', 'llama:tiny'], { cwd: dir, home, timeoutMs: 60_000 });
    expect(doctor.stdout).toMatch(/GGUF file .*tiny\.gguf/);
    const rm = wisp(['models', 'rm', 'tiny'], { cwd: dir, home });
    expect(rm.status).toBe(0);
    expect(existsSync(join(home, 'models', 'tiny.gguf'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a wrong --sha256 fails with exit 1 and installs nothing', async () => {
    const { dir, home } = freshHome();
    const r = await wispAsync(['models', 'pull', '--url', `${base}/m.gguf`, '--sha256', 'f'.repeat(64), '--name', 'bad'], { cwd: dir, home }).done;
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/not the expected f{64}/);
    expect(existsSync(join(home, 'models', 'bad.gguf'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('bad names and URLs are usage errors (64) that change nothing', () => {
    const { dir, home } = freshHome();
    expect(wisp(['models', 'pull', '--url', 'file:///etc/passwd', '--name', 'x'], { cwd: dir, home }).status).toBe(64);
    expect(wisp(['models', 'pull', '--url', `${base}/m.gguf`, '--name', '../escape'], { cwd: dir, home }).status).toBe(64);
    expect(wisp(['models', 'rm', '../config'], { cwd: dir, home }).status).toBe(64);
    mkdirSync(join(home, 'models'), { recursive: true });
    writeFileSync(join(home, 'config.json'), '{}');
    expect(wisp(['models', 'rm', 'config'], { cwd: dir, home }).status).toBe(1);
    expect(existsSync(join(home, 'config.json'))).toBe(true);
    expect(existsSync(join(home, 'models'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
