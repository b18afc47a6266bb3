// read_file: pages in linear time whatever the file's shape, and the containment's rules as checks (it runs in
// wisp's own process, outside the sandbox).
import { mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readConcerns, readPage } from '../../src/tools/read-file.js';

const base = mkdtempSync(join(tmpdir(), 'wisp-read-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('readPage', () => {
  it('reads 64 MB without a newline in one pass and cuts the line (was quadratic: 120 MB took 88 s)', async () => {
    const file = join(base, 'flat.txt');
    const fd = openSync(file, 'w');
    const block = Buffer.alloc(1 << 20, 'a');
    for (let i = 0; i < 64; i++) writeSync(fd, block);
    closeSync(fd);
    const page = await readPage(file, 1, 200);
    expect(page).toMatch(/^1\ta+ …\[line cut at 4 KiB\]\n\[end of file\]$/);
    expect(Buffer.byteLength(page)).toBeLessThanOrEqual(4096 + 64);
  });

  it('stops after a bounded scan of a huge file with words to act on, not minutes later (ADR 0101)', async () => {
    const flat = join(base, 'huge-flat.txt');
    writeFileSync(flat, 'a'.repeat(1 << 20));
    const first = await readPage(flat, 1, 200, flat, 256 * 1024);
    expect(first).toMatch(/^1\ta+ …\[line cut at 4 KiB\]\n\[stopped: read_file looks at most at the first 0 MiB/);
    const lines = join(base, 'huge-lines.txt');
    writeFileSync(lines, 'line\n'.repeat(1 << 18));
    const deep = await readPage(lines, 200_000, 10, lines, 256 * 1024);
    expect(deep).toMatch(/^\[stopped: .*read further with a command \(tail, sed -n\)\]$/);
    expect(await readPage(lines, 2, 1, lines, 256 * 1024)).toBe('2\tline\n[more: call again with offset 3]');
  });

  it('finds a line after a very long one by offset', async () => {
    const file = join(base, 'long-then-short.txt');
    writeFileSync(file, 'x'.repeat(3_000_000) + '\nsecond\nthird\n');
    expect(await readPage(file, 2, 10)).toBe('2\tsecond\n3\tthird\n[end of file]');
  });

  it('keeps a multi-byte character whole across a 64 KiB read boundary', async () => {
    const file = join(base, 'utf8.txt');
    writeFileSync(file, 'a'.repeat(65535) + 'é\nend\n');
    const page = await readPage(file, 2, 10);
    expect(page).toBe('2\tend\n[end of file]');
    const first = await readPage(file, 1, 1);
    expect(first).not.toContain('\uFFFD');
  });

  it('pages: a full page says where to go on, a last line without a newline is read', async () => {
    const file = join(base, 'lines.txt');
    writeFileSync(file, 'one\ntwo\nthree');
    expect(await readPage(file, 1, 2)).toBe('1\tone\n2\ttwo\n[more: call again with offset 3]');
    expect(await readPage(file, 3, 2)).toBe('3\tthree\n[end of file]');
    expect(await readPage(file, 9, 2)).toBe('error: the file has only 3 lines');
  });
});

describe('readConcerns', () => {
  const project = join(base, 'home', 'project');
  const home = join(base, 'home');
  const wisp = join(home, '.wisp');
  mkdirSync(join(project, 'src'), { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  mkdirSync(wisp, { recursive: true });

  it('has none for an ordinary file in the project: it runs unasked', () => {
    const f = join(project, 'src', 'a.ts');
    expect(readConcerns(f, f, project, wisp)).toEqual([]);
  });

  it('asks for a file outside the project, in the home directory or anywhere else', () => {
    expect(readConcerns(join(home, 'notes.txt'), join(home, 'notes.txt'), project, wisp)).toContain('reads outside the project');
    expect(readConcerns('/etc/hostname', '/etc/hostname', project, wisp)).toContain('reads outside the project');
  });

  it("asks for anything of wisp's own: the audit log, approvals, pending, config", () => {
    const log = join(wisp, 'logs', 'audit.jsonl');
    expect(readConcerns(log, log, project, wisp)).toContain("reads wisp's own state (audit log, approvals, config)");
  });

  it('asks for secret-named files in the project: .env, .env.local, keys', () => {
    for (const name of ['.env', '.env.local', 'prod.env', 'server.pem', 'id_ed25519', '.npmrc', 'deploy/.ssh/config']) {
      const f = join(project, name);
      expect(readConcerns(f, f, project, wisp), name).toContain('reads a file whose name marks a secret');
    }
  });

  it('a harmless-looking link inside the project that points at ~/.ssh/id_rsa is judged by its target', () => {
    const link = join(project, 'notes.md');
    const target = join(home, '.ssh', 'id_rsa');
    writeFileSync(target, 'KEY');
    symlinkSync(target, link);
    const reasons = readConcerns(link, target, project, wisp);
    expect(reasons).toContain('the link points outside the project');
    expect(reasons).toContain('reads a file whose name marks a secret');
  });

  it('a link named like a secret asks even when its target has an innocent name', () => {
    const f = join(project, 'plain.txt');
    writeFileSync(f, 'x');
    expect(readConcerns(join(project, '.env'), f, project, wisp)).toContain('reads a file whose name marks a secret');
  });
});
