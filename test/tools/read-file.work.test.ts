// Issue 12.4: read_file of a large file without newlines is linear (it was quadratic: 120 MB took 88 s and 836 MB).
// Compared by work, not by a tight timing: the file is read once (bytes asked of the handle = its size, in 64 KiB
// reads), and four times the size costs about four times the CPU (a quadratic reader costs sixteen).
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPage } from '../../src/tools/read-file.js';

const base = mkdtempSync(join(tmpdir(), 'wisp-read-work-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function flatFile(name: string, mib: number): string {
  const file = join(base, name);
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(1 << 20, 'a');
  for (let i = 0; i < mib; i++) writeSync(fd, block);
  closeSync(fd);
  return file;
}

/** Reads `file` with a handle that counts what it is asked for; returns the bytes read, the calls, and CPU ms. */
async function measured(file: string): Promise<{ bytes: number; calls: number; cpu: number }> {
  const handle = await open(file, 'r');
  let bytes = 0;
  let calls = 0;
  const counting = new Proxy(handle, {
    get(target, key, receiver) {
      if (key === 'read') {
        return async (...args: Parameters<FileHandle['read']>) => {
          calls++;
          const r = await (target.read as (...a: unknown[]) => Promise<{ bytesRead: number }>)(...args);
          bytes += r.bytesRead;
          return r;
        };
      }
      const v = Reflect.get(target, key, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  try {
    const before = process.cpuUsage();
    const page = await readPage(counting, 1, 200, file);
    const used = process.cpuUsage(before);
    expect(page).toMatch(/^1\ta+ …\[line cut at 4 KiB\]\n\[end of file\]$/);
    return { bytes, calls, cpu: (used.user + used.system) / 1000 };
  } finally {
    await handle.close();
  }
}

describe('read_file on a file without newlines', () => {
  it('reads each byte once, in 64 KiB reads', async () => {
    for (const mib of [2, 8]) {
      const { bytes, calls } = await measured(flatFile(`once-${mib}.txt`, mib));
      expect(bytes).toBe(mib << 20);
      expect(calls).toBeLessThanOrEqual((mib << 20) / 65536 + 2);
    }
  });

  it('four times the size costs about four times the CPU, not sixteen', async () => {
    const small = flatFile('small.txt', 4);
    const large = flatFile('large.txt', 16);
    const best = async (file: string): Promise<number> => {
      let ms = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run++) ms = Math.min(ms, (await measured(file)).cpu);
      return ms;
    };
    const ratio = (await best(large)) / Math.max(await best(small), 1);
    expect(ratio).toBeLessThan(9);
  });
});
