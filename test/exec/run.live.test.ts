// The streaming hook: a command's output reaches `onOutput` while the command still runs, chunk by chunk, and a
// face that fails while drawing it changes nothing about the run.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { liveText } from '../../src/exec/live.js';
import { runCommand } from '../../src/exec/run.js';
import { dirOutsideTmp, removeAll, runOptions } from './helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));

function dirs(): { launchDir: string; wispHome: string } {
  const base = dirOutsideTmp('live');
  made.push(base);
  const d = { launchDir: join(base, 'project'), wispHome: join(base, '.wisp') };
  mkdirSync(d.launchDir);
  return d;
}

describe('runCommand onOutput', () => {
  it('hands over output while the command runs: the command waits for proof that its first line was seen', async () => {
    const d = dirs();
    const go = join(d.launchDir, 'go');
    // The command prints `first`, then waits (up to ~20 s) for the file the test writes only after onOutput has
    // delivered `first`. Delivered only at the end, the wait would run out and the command would say so.
    const line = `echo first; for i in $(seq 200); do [ -e go ] && break; sleep 0.1; done; [ -e go ] && echo second || echo never-seen`;
    const seen: string[] = [];
    const r = await runCommand(
      line,
      runOptions(d.launchDir, d.wispHome, {
        sandbox: { enabled: false, allowNetwork: false, writablePaths: [] },
        timeoutMs: 60_000,
        onOutput: (stream, chunk) => {
          seen.push(`${stream}:${chunk.toString()}`);
          if (chunk.toString().includes('first') && !existsSync(go)) writeFileSync(go, '');
        },
      }),
    );
    expect(r.stdout).toBe('first\nsecond\n');
    expect(seen.join('')).toBe('stdout:first\nstdout:second\n');
  });

  it('keeps stdout and stderr apart', async () => {
    const d = dirs();
    const seen: Array<[string, string]> = [];
    await runCommand('echo out; echo err >&2', runOptions(d.launchDir, d.wispHome, {
      sandbox: { enabled: false, allowNetwork: false, writablePaths: [] },
      onOutput: (stream, chunk) => seen.push([stream, chunk.toString()]),
    }));
    expect(seen.filter(([s]) => s === 'stdout').map(([, t]) => t).join('')).toBe('out\n');
    expect(seen.filter(([s]) => s === 'stderr').map(([, t]) => t).join('')).toBe('err\n');
  });

  it('a hook that throws (a face that broke while drawing) does not change the run or its result', async () => {
    const d = dirs();
    const r = await runCommand('echo a; echo b >&2; exit 3', runOptions(d.launchDir, d.wispHome, {
      sandbox: { enabled: false, allowNetwork: false, writablePaths: [] },
      onOutput: () => {
        throw new Error('drawing failed');
      },
    }));
    expect(r.exitStatus).toBe(3);
    expect(r.stdout).toBe('a\n');
    expect(r.stderr).toBe('b\n');
  });
});

describe('liveText', () => {
  it('decodes a character cut between two chunks whole, per stream', () => {
    const got: string[] = [];
    const feed = liveText((stream, text) => got.push(`${stream}:${text}`));
    const e = Buffer.from('é€', 'utf8'); // 2 + 3 bytes
    feed('stdout', e.subarray(0, 1));
    feed('stderr', Buffer.from('x'));
    feed('stdout', e.subarray(1, 3));
    feed('stdout', e.subarray(3));
    expect(got).toEqual(['stderr:x', 'stdout:é', 'stdout:€']);
  });

  it('turns NUL into U+FFFD, as the tail does, and leaves escapes for visible() to show', () => {
    const got: string[] = [];
    liveText((_s, text) => got.push(text))('stdout', Buffer.from('a\0b\x1b[2J'));
    expect(got).toEqual(['a\uFFFDb\x1b[2J']);
  });
});
