// writeStdout writes straight to fd 1 (no stream modules loaded) and hands what a direct write cannot take to
// process.stdout: a slow reader, a stdout Node made non-blocking, or a closed pipe must not lose or garble output.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src/util/write-out.ts', import.meta.url));

/** Runs a child that writes `size` bytes with writeStdout (after touching process.stdout when `touch`); reads slowly. */
function run(size: number, touch: boolean): Promise<{ out: Buffer; code: number | null }> {
  const script = `import { writeStdout } from ${JSON.stringify(MODULE)};
${touch ? 'process.stdout;' : ''}
const line = 'abcdefghijklmnopqrstuvwxyz0123456789-é\\n';
writeStdout(line.repeat(Math.ceil(${size} / line.length)));
writeStdout('end\\n');`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => {
      chunks.push(c);
      // A slow reader: the pipe fills and the writer must wait (or fall back).
      child.stdout.pause();
      setTimeout(() => child.stdout.resume(), 2);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ out: Buffer.concat(chunks), code }));
  });
}

function expectWhole(out: Buffer, size: number): void {
  const line = 'abcdefghijklmnopqrstuvwxyz0123456789-é\n';
  const expected = line.repeat(Math.ceil(size / line.length)) + 'end\n';
  expect(out.length).toBe(Buffer.byteLength(expected));
  expect(out.toString('utf8') === expected).toBe(true);
}

describe('writeStdout', () => {
  it('a blocking pipe read slowly gets every byte, in order', { timeout: 60_000 }, async () => {
    const r = await run(1 << 20, false);
    expect(r.code).toBe(0);
    expectWhole(r.out, 1 << 20);
  });

  it('attack: a stdout Node already made non-blocking, filled past the pipe buffer, loses nothing', { timeout: 60_000 }, async () => {
    const r = await run(1 << 20, true);
    expect(r.code).toBe(0);
    expectWhole(r.out, 1 << 20);
  });
});
