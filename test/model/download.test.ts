// `wisp models pull`'s download against a local HTTP server: whole file, resume with Range, wrong checksum, a server
// that hangs up mid-body, and a full disk (the partial file is a link to /dev/full, which the kernel answers ENOSPC).
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DownloadError, announcedSha256, download } from '../../src/model/download.js';

const body = randomBytes(256 * 1024);
const sha = createHash('sha256').update(body).digest('hex');
let server: Server;
let base = '';
const seenRanges: Array<string | undefined> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '/';
    seenRanges.push(req.headers.range);
    if (url === '/redirect') {
      res.writeHead(302, { location: '/plain', 'x-linked-etag': `"${sha}"` });
      res.end();
      return;
    }
    if (url === '/cut') {
      // Promises the whole file, sends half, hangs up.
      res.writeHead(200, { 'content-length': String(body.length) });
      res.write(body.subarray(0, body.length / 2), () => res.destroy());
      return;
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range && url === '/plain') {
      const start = Number(range[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` });
        res.end();
        return;
      }
      res.writeHead(206, { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}`, 'content-length': String(body.length - start) });
      res.end(body.subarray(start));
      return;
    }
    if (url === '/plain' || url === '/no-range') {
      res.writeHead(200, { 'content-length': String(body.length) });
      res.end(body);
      return;
    }
    res.writeHead(404);
    res.end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wisp-dl-'));
  seenRanges.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('download', () => {
  it('fetches a whole file and renames it into place only after the checksum matches', async () => {
    const dest = join(dir, 'm.gguf');
    const r = await download({ url: `${base}/plain`, dest, sha256: sha });
    expect(r).toMatchObject({ bytes: body.length, sha256: sha, resumed: false });
    expect(readFileSync(dest).equals(body)).toBe(true);
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it('resumes a partial file with a Range request and verifies the whole', async () => {
    const dest = join(dir, 'm.gguf');
    writeFileSync(`${dest}.part`, body.subarray(0, 100_000));
    const r = await download({ url: `${base}/plain`, dest, sha256: sha });
    expect(seenRanges).toContain('bytes=100000-');
    expect(r.resumed).toBe(true);
    expect(readFileSync(dest).equals(body)).toBe(true);
  });

  it('a complete partial file (HTTP 416) is verified and kept', async () => {
    const dest = join(dir, 'm.gguf');
    writeFileSync(`${dest}.part`, body);
    const r = await download({ url: `${base}/plain`, dest, sha256: sha });
    expect(r.bytes).toBe(body.length);
    expect(readFileSync(dest).equals(body)).toBe(true);
  });

  it('a wrong checksum deletes the download and never creates the model file', async () => {
    const dest = join(dir, 'm.gguf');
    const err = await download({ url: `${base}/plain`, dest, sha256: '0'.repeat(64) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as DownloadError).message).toMatch(/SHA-256 is [0-9a-f]{64}, not the expected 0{64}/);
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it('a resumed file whose start was wrong fails the checksum too', async () => {
    const dest = join(dir, 'm.gguf');
    writeFileSync(`${dest}.part`, Buffer.alloc(1000, 7));
    await expect(download({ url: `${base}/plain`, dest, sha256: sha })).rejects.toThrow(/not the expected/);
    expect(existsSync(dest)).toBe(false);
  });

  it('uses the checksum the server announces on a redirect when none is configured', async () => {
    const dest = join(dir, 'm.gguf');
    const r = await download({ url: `${base}/redirect`, dest });
    expect(r.sha256).toBe(sha);
    expect(announcedSha256(new Headers({ 'x-linked-etag': `"${sha}"` }))).toBe(sha);
    expect(announcedSha256(new Headers({ etag: '"abc"' }))).toBeUndefined();
  });

  it('refuses to install a file it cannot verify (no checksum anywhere), keeping it for a later pull', async () => {
    const dest = join(dir, 'm.gguf');
    await expect(download({ url: `${base}/no-range`, dest })).rejects.toThrow(/no checksum to verify/);
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(`${dest}.part`)).toBe(true);
  });

  it('a server that hangs up mid-body leaves a partial file that the next pull resumes', async () => {
    const dest = join(dir, 'm.gguf');
    const err = await download({ url: `${base}/cut`, dest, sha256: sha }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as DownloadError).message).toMatch(/stopped after .*pull again to continue/);
    expect((err as DownloadError).partial).toBe('keep');
    expect(existsSync(dest)).toBe(false);
    const r = await download({ url: `${base}/plain`, dest, sha256: sha });
    expect(r.resumed).toBe(true);
    expect(readFileSync(dest).equals(body)).toBe(true);
  });

  it('a full disk is a clear error (ENOSPC from /dev/full), not a crash or a bad model file', async () => {
    const dest = join(dir, 'm.gguf');
    symlinkSync('/dev/full', `${dest}.part`);
    const err = await download({ url: `${base}/no-range`, dest, sha256: sha }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as DownloadError).message).toMatch(/disk is full \(ENOSPC\)/);
    expect(existsSync(dest)).toBe(false);
  });

  it('HTTP errors and unreachable hosts are clear errors', async () => {
    await expect(download({ url: `${base}/missing`, dest: join(dir, 'x.gguf'), sha256: sha })).rejects.toThrow(/answered HTTP 404/);
    await expect(download({ url: 'http://127.0.0.1:1/x', dest: join(dir, 'y.gguf'), sha256: sha })).rejects.toThrow(/cannot reach 127\.0\.0\.1:1/);
  });
});
