// `wisp models pull`: one file over HTTP(S) into $WISP_HOME/models, resumable and checksum-verified.
// The bytes go to NAME.gguf.part; a later pull continues it with a Range request. Only a file whose SHA-256 matches is
// renamed into place, so a half or wrong file never looks like a model.
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { WispError } from '../core/errors.js';

export interface DownloadOptions {
  url: string;
  /** Final path; the download is kept in `${dest}.part` until it is verified. */
  dest: string;
  /** Expected SHA-256 (hex); unset = the one the server announces (`X-Linked-Etag`), and none at all is an error. */
  sha256?: string;
  signal?: AbortSignal;
  /** Called as bytes arrive: bytes on disk so far, and the total when known. */
  onProgress?: (done: number, total: number | undefined) => void;
  /** Longest silence allowed, in milliseconds (default 30 s). */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  sha256: string;
  /** Whether an earlier partial download was continued. */
  resumed: boolean;
}

export class DownloadError extends WispError {
  constructor(
    message: string,
    /** `keep`: the partial file stays for a later resume; `dropped`: it was removed. */
    readonly partial: 'keep' | 'dropped' | 'none',
  ) {
    super(message, 1);
    this.name = 'DownloadError';
  }
}

const HEX64 = /^[0-9a-f]{64}$/;
const MAX_REDIRECTS = 5;

/** The SHA-256 a server announces for a file: Hugging Face sends it as `X-Linked-Etag` on the first (redirecting) answer. */
export function announcedSha256(headers: Headers): string | undefined {
  for (const name of ['x-linked-etag', 'etag']) {
    const v = headers.get(name)?.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();
    if (v && HEX64.test(v)) return v;
  }
  return undefined;
}

export async function download(opts: DownloadOptions): Promise<DownloadResult> {
  const part = `${opts.dest}.part`;
  mkdirSync(dirname(opts.dest), { recursive: true, mode: 0o700 });
  const have = sizeOf(part);
  const hash = createHash('sha256');
  if (have > 0) await hashFile(part, hash);

  const { res, announced } = await open(opts, have);
  let expected = opts.sha256?.toLowerCase() ?? announced;
  if (opts.sha256 && !HEX64.test(opts.sha256.toLowerCase())) throw new DownloadError(`the expected SHA-256 "${opts.sha256}" is not 64 hex digits`, 'none');

  let resumed = false;
  let start = 0;
  let total: number | undefined;
  if (res.status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.headers.get('content-range') ?? '');
    if (!range || Number(range[1]) !== have) {
      await res.body?.cancel();
      throw new DownloadError(`the server resumed at the wrong place (${res.headers.get('content-range') ?? 'no Content-Range'}); delete ${part} and pull again`, 'keep');
    }
    resumed = true;
    start = have;
    if (range[3] !== '*') total = Number(range[3]);
  } else if (res.status === 416 && have > 0) {
    // Nothing left to fetch: what is on disk is the whole file (checked below).
    await res.body?.cancel();
    return finish(opts.dest, part, hash, have, expected, true);
  } else if (res.status === 200) {
    const length = Number(res.headers.get('content-length'));
    if (Number.isFinite(length) && length > 0) total = length;
    if (have > 0) hash.destroy();
  } else {
    await res.body?.cancel();
    throw new DownloadError(`${opts.url} answered HTTP ${res.status}`, have > 0 ? 'keep' : 'none');
  }
  const digest = start === 0 ? createHash('sha256') : hash;

  const fd = openSync(part, start === 0 ? 'w' : 'a', 0o600);
  let done = start;
  opts.onProgress?.(done, total);
  try {
    if (!res.body) throw new DownloadError(`${opts.url} sent no body`, 'keep');
    const reader = res.body.getReader();
    const idle = opts.idleTimeoutMs ?? 30_000;
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const next = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new DownloadError(`no data from ${hostOf(opts.url)} for ${idle / 1000} s`, 'keep')), idle);
        }),
      ]).finally(() => clearTimeout(timer));
      if (next.done) break;
      const chunk = Buffer.from(next.value);
      writeAll(fd, chunk);
      digest.update(chunk);
      done += chunk.length;
      opts.onProgress?.(done, total);
    }
  } catch (err) {
    closeSync(fd);
    if (err instanceof DownloadError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      throw new DownloadError(
        `the disk is full (${code}) after ${formatBytes(done)} of ${total ? formatBytes(total) : 'the file'}; free some space and run wisp models pull again to continue (${part} is kept)`,
        'keep',
      );
    }
    if (opts.signal?.aborted) throw new DownloadError(`cancelled after ${formatBytes(done)}; run wisp models pull again to continue`, 'keep');
    const why = err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err);
    throw new DownloadError(`the download stopped after ${formatBytes(done)} (${why}); run wisp models pull again to continue`, 'keep');
  }
  closeSync(fd);
  if (total !== undefined && done !== total) {
    throw new DownloadError(`the download stopped after ${formatBytes(done)} of ${formatBytes(total)}; run wisp models pull again to continue`, 'keep');
  }
  return finish(opts.dest, part, digest, done, expected, resumed);
}

function finish(
  dest: string,
  part: string,
  digest: ReturnType<typeof createHash>,
  bytes: number,
  expected: string | undefined,
  resumed: boolean,
): DownloadResult {
  const sha256 = digest.digest('hex');
  if (expected === undefined) {
    throw new DownloadError(
      `no checksum to verify ${dest} against (the server announced none): set models.download.sha256 (or pass --sha256) and pull again`,
      'keep',
    );
  }
  if (sha256 !== expected) {
    rmSync(part, { force: true });
    throw new DownloadError(`the file's SHA-256 is ${sha256}, not the expected ${expected}: it was deleted; pull again`, 'dropped');
  }
  renameSync(part, dest);
  return { path: dest, bytes, sha256, resumed };
}

async function open(opts: DownloadOptions, have: number): Promise<{ res: Response; announced: string | undefined }> {
  let url = opts.url;
  let announced: string | undefined;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let res: Response;
    try {
      res = await fetch(url, {
        redirect: 'manual',
        headers: have > 0 ? { range: `bytes=${have}-` } : {},
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
    } catch (err) {
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : err instanceof Error ? err.message : String(err);
      throw new DownloadError(`cannot reach ${hostOf(url)} (${cause})`, have > 0 ? 'keep' : 'none');
    }
    announced ??= announcedSha256(res.headers);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      url = new URL(location, url).toString();
      continue;
    }
    return { res, announced };
  }
  throw new DownloadError(`more than ${MAX_REDIRECTS} redirects from ${hostOf(opts.url)}`, have > 0 ? 'keep' : 'none');
}

function writeAll(fd: number, chunk: Buffer): void {
  let off = 0;
  while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
}

async function hashFile(path: string, hash: ReturnType<typeof createHash>): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}

function sizeOf(path: string): number {
  try {
    const fd = openSync(path, 'r');
    try {
      return fstatSync(fd).isFile() ? fstatSync(fd).size : 0;
    } finally {
      closeSync(fd);
    }
  } catch {
    return 0;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

