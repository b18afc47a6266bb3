// The sandbox's pid 1 is wisp's own small init (ADR 0080). These run real bwrap: the init must be invisible to the
// command (status, signals, output, `$$`), and a command must not outlive a SIGKILLed wisp even when pid 1 is slow.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/exec/run.js';
import { detectSandbox, sandboxArgv } from '../../src/gate/sandbox.js';
import { dirOutsideTmp, isDead, killLeftovers, removeAll, runOptions, uniqueSleepSeconds, waitForPids } from './helpers.js';

const made: string[] = [];
afterAll(() => {
  killLeftovers();
  removeAll(made);
});

function dirs(): { launchDir: string; wispHome: string } {
  const base = dirOutsideTmp('init');
  made.push(base);
  const launchDir = join(base, 'project');
  mkdirSync(launchDir);
  mkdirSync(join(base, '.wisp'));
  return { launchDir, wispHome: join(base, '.wisp') };
}

describe('the sandbox init is invisible to the command', () => {
  const run = (line: string) => {
    const d = dirs();
    return runCommand(line, runOptions(d.launchDir, d.wispHome));
  };

  it('passes the exit status through', async () => {
    expect((await run('exit 7')).exitStatus).toBe(7);
  });

  it('reports a command killed by a signal as 128 + n, and says nothing of its own about it', async () => {
    const r = await run('kill -SEGV $$');
    expect(r.exitStatus).toBe(139);
    expect(r.stderr).toBe('');
  });

  it('gives the command pid 2 with pid 1 as its parent, as bwrap did', async () => {
    expect((await run('echo $$ $PPID')).stdout).toBe('2 1\n');
  });

  it('runs a line that starts with - as the line, not as an option', async () => {
    const r = await run('-e x');
    expect(r.exitStatus).toBe(127);
    expect(r.stderr).toContain('-e: command not found');
  });

  it('keeps stdout and stderr apart and takes the line as one argument', async () => {
    const r = await run('echo "$0 $#"; echo oops >&2; exit 3');
    expect(r).toMatchObject({ exitStatus: 3, stdout: '/bin/bash 0\n', stderr: 'oops\n' });
  });
});

describe('a slow pid 1 does not let a command outlive a SIGKILLed wisp (attack: starve the sandbox init)', () => {
  // bwrap's own init swept every inherited descriptor before it set its parent-death signal; with thousands to
  // sweep, the command was already running when wisp died, and in 3 of 5 trials it kept running. A stand-in wisp
  // (bash) opens that many, starts the sandbox exactly as wisp builds it, and is SIGKILLed once the command runs.
  it('takes the command down every time', { timeout: 60_000 }, async () => {
    const detection = await detectSandbox();
    expect(detection.works).toBe(true);
    for (let trial = 0; trial < 5; trial++) {
      const d = dirs();
      const s = uniqueSleepSeconds();
      const { file, args } = sandboxArgv(
        'bwrap',
        { ...d, tmpDir: tmpdir(), writablePaths: [], allowNetwork: true, cwd: d.launchDir, sandboxPath: detection.path },
        `sleep ${s} & sleep ${s}`,
      );
      const standIn = spawn(
        '/bin/bash',
        ['-c', 'n=$(ulimit -Hn); n=$((n > 20000 ? 20000 : n)); ulimit -n "$n"; for ((i = 10; i < n - 20; i++)); do eval "exec $i</dev/null"; done; "$@" & wait', 'wisp', file, ...args],
        { stdio: 'ignore' },
      );
      const pids = await waitForPids(s, 2, 30_000);
      standIn.kill('SIGKILL');
      await expect.poll(() => pids.every(isDead), { timeout: 5000 }).toBe(true);
    }
  });
});
