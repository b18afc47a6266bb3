// What one run may take of the machine (ADR 0101 part 2), with the real bwrap: a run that fills its temp folder,
// allocates without end or forks without end ends with a clear message, and wisp runs the next command as before.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatRunResult, runCommand, type RunOptions } from '../../src/exec/run.js';
import { detectSandbox } from '../../src/gate/sandbox.js';
import { containedLimits, pidsCgroup } from '../../src/sandbox/limits.js';
import { dirOutsideTmp, removeAll, runOptions } from './helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));

function world(contained: boolean): { project: string; opts: (o?: Partial<RunOptions>) => RunOptions } {
  const base = dirOutsideTmp('limits');
  made.push(base);
  const project = join(base, 'project');
  const wispHome = join(base, 'wisp-home');
  for (const d of [project, wispHome]) mkdirSync(d, { recursive: true });
  writeFileSync(join(project, 'README.md'), 'readme\n');
  // System programs only: a python3 shim under the (hidden) home would not run.
  const env = { PATH: '/usr/bin:/bin', HOME: base, LANG: 'C.UTF-8' };
  const opts = (o: Partial<RunOptions> = {}): RunOptions => ({ ...runOptions(project, wispHome, { contained, env }), ...o });
  return { project, opts };
}

/** A pids cgroup can be made here (root, or a delegated cgroup); without one a fork bomb is bounded by the timeout only. */
const capped = ((): boolean => {
  const g = pidsCgroup(8);
  g?.remove();
  return g !== undefined;
})();

describe('a contained run', () => {
  it('that fills /tmp (yes > /tmp/x) stops at the tmpfs size with "No space left on device"', async () => {
    const w = world(true);
    const r = await runCommand('yes > /tmp/x; echo "status $?"; du -m /tmp/x | cut -f1', w.opts({ timeoutMs: 30_000 }));
    expect(r.stderr).toMatch(/No space left on device/);
    const mib = Number(r.stdout.trim().split('\n').at(-1));
    expect(mib).toBeLessThanOrEqual(containedLimits().tmpBytes! / 1024 / 1024);
    expect(mib).toBeGreaterThan(100);
  }, 40_000);

  it('that allocates without end gets its own out-of-memory error, not the machine\'s OOM killer', async () => {
    const w = world(true);
    const r = await runCommand('python3 -c "a = bytearray(3 * 1024 ** 3)" || echo FAILED; ulimit -d', w.opts());
    expect(r.stderr).toMatch(/MemoryError/);
    expect(r.stdout).toContain('FAILED');
    expect(r.stdout).toContain(String(containedLimits().dataKiB));
  });

  it.runIf(capped)('cannot start more processes and threads than its cap: of 600 threads at most 512 start, and the result says so', async () => {
    const w = world(true);
    // Python threads, not a shell loop: bash retries a refused fork for a long while before it gives up. A thread
    // is a task like a process, and cheaper to make on a busy machine.
    const script = [
      'import threading, time',
      'threading.stack_size(1 << 16)', // small stacks: the data limit must not be what stops them
      'n = 0',
      'for _ in range(600):',
      '    try: threading.Thread(target=time.sleep, args=(30,), daemon=True).start()',
      '    except RuntimeError: break',
      '    n += 1',
      'print(n)',
    ].join('\n');
    const r = await runCommand(`python3 -c '${script}'`, w.opts({ timeoutMs: 20_000 }));
    const n = Number(r.stdout.trim());
    expect(n).toBeLessThanOrEqual(containedLimits().pids);
    expect(n).toBeGreaterThan(100);
    expect(r.processCap).toBe(containedLimits().pids);
    expect(formatRunResult(r)).toMatch(/limit reached: the run may have 512 processes/);
  }, 30_000);

  it.runIf(capped)('cannot leave its pids cgroup: the cgroup files are read-only inside, contained or approved', async () => {
    const w = world(true);
    // The hierarchy's root, v1 or unified: moving there would leave the cap.
    const line =
      'for f in /sys/fs/cgroup/pids/cgroup.procs /sys/fs/cgroup/cgroup.procs; do echo $$ 2>/dev/null > $f && echo LEFT; done; grep -q wisp-run- /proc/self/cgroup && echo STILL-IN';
    for (const contained of [true, false]) {
      const r = await runCommand(line, w.opts({ contained }));
      expect(r.stdout).not.toContain('LEFT');
      expect(r.stdout).toContain('STILL-IN');
    }
  });

  it.runIf(capped)("the empty cgroup of a wisp killed during a run is removed by the next wisp's first run", async () => {
    const dir = (await import('node:child_process')).execFileSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./src/sandbox/limits.ts').then((m) => { const g = m.pidsCgroup(8); console.log(g.procs); })"],
      { encoding: 'utf8' },
    ).trim();
    // That process is gone and never removed its cgroup; a fresh process (a vitest worker's first run) sweeps it.
    const group = join(dir, '..');
    const { existsSync } = await import('node:fs');
    expect(existsSync(group)).toBe(true);
    (await import('node:child_process')).execFileSync(process.execPath, ['--import', 'tsx', '-e', "import('./src/sandbox/limits.ts').then((m) => m.pidsCgroup(8)?.remove())"]);
    expect(existsSync(group)).toBe(false);
  });

  it.runIf(capped)('a fork bomb ends with the timeout and the cap named, and the next run works', async () => {
    const w = world(true);
    const r = await runCommand('b() { b | b & }; b; sleep 60', w.opts({ timeoutMs: 6000, killGraceMs: 200 }));
    expect(r.timedOut).toBe(true);
    expect(r.processCap).toBe(containedLimits().pids);
    const after = await runCommand('cat README.md', w.opts());
    expect(after).toMatchObject({ exitStatus: 0, stdout: 'readme\n' });
  }, 30_000);
});

describe('an approved run', () => {
  it('that fills its private /tmp or /dev/shm stops at the tmpfs size, and cannot write the rest of /dev', async () => {
    const w = world(false);
    const r = await runCommand(
      'df -B1 --output=size /tmp /dev/shm | tail -n +2; echo x > /dev/planted || echo DEV-RO; echo ok > /dev/null && echo NULL-OK',
      w.opts(),
    );
    const [tmp, shm] = r.stdout.trim().split('\n').slice(0, 2).map(Number);
    const { approvedLimits } = await import('../../src/sandbox/limits.js');
    expect(tmp).toBe(approvedLimits().tmpBytes);
    expect(shm).toBe(approvedLimits().shmBytes);
    expect(r.stdout).toContain('DEV-RO');
    expect(r.stdout).toContain('NULL-OK');
  });
});

describe('when the machine runs out of memory', () => {
  it("the OOM killer takes a run's processes first, not wisp: their score is raised to the most, contained or approved", async () => {
    const w = world(true);
    for (const contained of [true, false]) {
      const r = await runCommand('cat /proc/self/oom_score_adj; sh -c "cat /proc/self/oom_score_adj"', w.opts({ contained }));
      expect(r.stdout).toBe('1000\n1000\n');
    }
    expect(Number((await import('node:fs')).readFileSync('/proc/self/oom_score_adj', 'utf8'))).toBeLessThan(1000);
  });
});

describe('a bwrap older than 0.8 (no --size)', () => {
  it('is found to work without bounding a tmpfs, and runs contained and approved lines instead of refusing each', async () => {
    const w = world(true);
    const fake = join(w.project, '..', 'old-bwrap');
    // Refuses --size as bwrap 0.6 does, and is the real bwrap otherwise.
    writeFileSync(fake, '#!/bin/sh\nfor a in "$@"; do [ "$a" = --size ] && { echo "bwrap: Unknown option --size" >&2; exit 1; }; done\nexec /usr/bin/bwrap "$@"\n');
    chmodSync(fake, 0o755);
    const detection = await detectSandbox({ bwrapPath: fake, fresh: true });
    expect(detection).toMatchObject({ works: true, boundsTmpfs: false });
    const detect = (): Promise<typeof detection> => Promise.resolve(detection);
    const contained = await runCommand('cat README.md', w.opts({ detect }));
    expect(contained).toMatchObject({ exitStatus: 0, stdout: 'readme\n' });
    const approved = await runCommand('echo ok > made.txt && cat made.txt', w.opts({ detect, contained: false }));
    expect(approved).toMatchObject({ exitStatus: 0, stdout: 'ok\n' });
  });
});
