// Descriptors wisp was started with: node and bwrap pass them on, so without the init closing them a command held
// a file or socket the sandbox hides, and wrote where it may not. Both kinds of run, with the real bwrap.
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunOptions, RunResult } from '../../src/exec/run.js';
import { dirOutsideTmp, removeAll, runOptions } from './helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));

const fixture = resolve(import.meta.dirname, 'fixtures', 'run-line.ts');

/**
 * Runs `line` in a stand-in wisp whose fd 40 is `outside`, opened for appending: a log its parent left open. Above
 * 15 and after a gap, since node marks its first inherited descriptors close-on-exec itself (libuv's
 * uv_disable_stdio_inheritance stops at the first gap past 15).
 */
function runWithInheritedFd(line: string, opts: RunOptions, outside: string): Promise<RunResult> {
  const fd = openSync(outside, 'a');
  return new Promise((settle, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(opts), line], {
      stdio: ['ignore', 'pipe', 'inherit', ...Array<'ignore'>(37).fill('ignore'), fd],
    });
    closeSync(fd);
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', fail);
    child.on('close', () => {
      try {
        settle(JSON.parse(out) as RunResult);
      } catch (err) {
        fail(new Error(`no result from the stand-in: ${out} ${(err as Error).message}`));
      }
    });
  });
}

function world(): { project: string; wispHome: string; outside: string } {
  const base = dirOutsideTmp('fds');
  made.push(base);
  const project = join(base, 'project');
  const wispHome = join(base, 'wisp-home');
  for (const d of [project, wispHome]) mkdirSync(d, { recursive: true });
  return { project, wispHome, outside: join(base, 'parent.log') };
}

const attack = 'echo LEAKED >&40; ls /proc/self/fd | tr "\\n" " "';

describe('a descriptor wisp inherited from its parent', () => {
  it('does not reach a contained run (it wrote to a file outside the sandbox through fd 40)', async () => {
    const w = world();
    const env = { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: join(w.project, '..'), LANG: 'C.UTF-8' };
    const r = await runWithInheritedFd(attack, runOptions(w.project, w.wispHome, { env, contained: true }), w.outside);
    expect(r.sandboxed).toBe('bwrap');
    expect(readFileSync(w.outside, 'utf8')).toBe('');
    expect(r.stderr).toMatch(/Bad file descriptor/);
  }, 60_000);

  it('does not reach an approved run either (writes are confined to the writable roots)', async () => {
    const w = world();
    const r = await runWithInheritedFd(attack, runOptions(w.project, w.wispHome), w.outside);
    expect(r.sandboxed).toBe('bwrap');
    expect(readFileSync(w.outside, 'utf8')).toBe('');
    // ls's own directory handle is the one descriptor above 2 it may see.
    expect(r.stdout.trim().split(' ').filter((n) => Number(n) > 3)).toEqual([]);
  }, 60_000);
});
