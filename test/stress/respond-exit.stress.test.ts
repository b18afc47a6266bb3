// Issue 17 §6: `wisp respond` exits as soon as its work is done. The issue asks for a wall-clock bound, so this
// lives with the stress runs (run alone by CI, not beside the parallel suite on a shared machine).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { BIN, freshHome } from '../helpers/cli.js';

let dir: string;
let home: string;

beforeEach(() => {
  ({ dir, home } = freshHome());
});

const script = (name: string, responses: unknown[]): string => {
  const p = join(dir, `${name}.json`);
  writeFileSync(p, JSON.stringify({ responses }));
  return p;
};

describe('wisp respond exits when its work is done', () => {
  /** Milliseconds from the child's last byte of output to its exit. */
  const lingerMs = (args: string[]): Promise<number> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: dir,
        env: { ...process.env, WISP_HOME: home, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let last = performance.now();
      child.stdout.on('data', () => (last = performance.now()));
      child.stderr.on('data', () => (last = performance.now()));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(performance.now() - last) : reject(new Error(`exit ${code}`))));
    });

  // The issue asks for this bound. A timer or handle left behind delays every run by the same amount; a busy
  // machine delays some runs. So the best of three runs is what is held to 300 ms.
  it('exits within 300 ms of its last output, with a command run and with no tools', async () => {
    const s = script('run', [{ toolCalls: [{ name: 'run_command', arguments: { command: 'ls -la | wc -l' } }] }, { text: 'counted' }]);
    const withTools: number[] = [];
    for (let i = 0; i < 3; i++) withTools.push(await lingerMs(['respond', '-m', `script:${s}`, 'count']));
    expect(Math.min(...withTools)).toBeLessThan(300);
    const t = script('text', [{ text: 'plain' }]);
    const noTools: number[] = [];
    for (let i = 0; i < 3; i++) noTools.push(await lingerMs(['respond', '--no-tools', '-m', `script:${t}`, 'hi']));
    expect(Math.min(...noTools)).toBeLessThan(300);
  }, 120_000);
});
