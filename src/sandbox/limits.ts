// How much of the machine one run may take (ADR 0101 part 2). A fork bomb or `yes > /tmp/x` must end the run, not
// the machine: the private temp folders are size-bounded tmpfs (bwrap --size), a contained run's processes each get
// a data limit (RLIMIT_DATA, which counts what a process writes to, not the address space a runtime reserves), and
// the number of processes and threads is capped by a pids cgroup of the run's own where wisp may make one.
// RLIMIT_NPROC is no substitute: it counts every process of the uid, not of the run, and uid 0 is exempt from it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { sleepSync } from '../util/atomic.js';
import { processAlive } from '../util/process-alive.js';

const MiB = 1024 * 1024;

export interface RunLimits {
  /** Bytes of the private /tmp (and temp dir) tmpfs; undefined: the kernel's default (a bwrap without --size). */
  readonly tmpBytes?: number;
  /** Bytes of an approved run's /dev/shm tmpfs (a contained run's /dev is read-only); undefined as above. */
  readonly shmBytes?: number;
  /** RLIMIT_DATA of each process, in KiB (`ulimit -d`); undefined: none. */
  readonly dataKiB?: number;
  /** Processes and threads at once, where a pids cgroup can be made. */
  readonly pids: number;
}

/**
 * A contained run reads: it needs little temp space and no thousands of processes. 2 GiB of data per process lets
 * `rg`, `git log` or a script's parser work and stops a runaway allocation with the program's own error.
 */
export function containedLimits(): RunLimits {
  return { tmpBytes: 256 * MiB, shmBytes: 0, dataKiB: 2 * 1024 * 1024, pids: 512 };
}

/**
 * An approved run builds and tests: no per-process memory limit (a linker or a test runner may need much), a temp
 * folder of a quarter of the memory (the kernel's default for a tmpfs is half, and a run has two), and room for a
 * parallel build's processes and threads.
 */
export function approvedLimits(): RunLimits {
  const quarter = Math.max(256 * MiB, Math.floor(totalmem() / 4 / MiB) * MiB);
  return { tmpBytes: quarter, shmBytes: Math.max(64 * MiB, Math.floor(quarter / 2 / MiB) * MiB), pids: 4096 };
}

/** The limits without the tmpfs sizes, for a bwrap that has no --size (older than 0.8). */
export function withoutSizes(limits: RunLimits): RunLimits {
  return { pids: limits.pids, ...(limits.dataKiB !== undefined ? { dataKiB: limits.dataKiB } : {}) };
}

/** A run's own pids cgroup: spawn through {@link pidsWrapper} so every process of the run starts inside it. */
export interface PidsCgroup {
  /** The `cgroup.procs` file the wrapper writes its own pid to before it execs the sandbox. */
  readonly procs: string;
  readonly max: number;
  /** True when a fork was refused because the cap was reached (read before {@link remove}). */
  hit(): boolean;
  /** Removes the cgroup once its processes are gone (retries briefly; an empty one left behind is harmless). */
  remove(): void;
}

let base: string | undefined | null = null; // null: not looked for yet

/**
 * Where this process may make child pids cgroups: its own cgroup in the v1 `pids` hierarchy, or in the unified one
 * when `pids` is on in its subtree. Tried once with a child that a shell moves itself into, as a run would.
 */
function cgroupBase(): string | undefined {
  if (base !== null) return base;
  base = undefined;
  let own: string;
  try {
    own = readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return base;
  }
  const candidates: string[] = [];
  for (const line of own.split('\n')) {
    const [, controllers, path] = /^\d+:([^:]*):(\/.*)$/.exec(line) ?? [];
    if (path === undefined) continue;
    if (controllers!.split(',').includes('pids')) candidates.push(join('/sys/fs/cgroup/pids', path));
    else if (controllers === '') candidates.push(join('/sys/fs/cgroup', path), join('/sys/fs/cgroup/unified', path));
  }
  for (const dir of candidates) {
    const probe = make(dir, 8);
    if (probe === undefined) continue;
    const moved = spawnSync('/bin/sh', ['-c', 'echo $$ > "$0"', probe.procs], { stdio: 'ignore', timeout: 2000 });
    probe.remove();
    if (moved.status === 0) {
      base = dir;
      sweepLeftovers(dir);
      break;
    }
  }
  return base;
}

/** Removes the empty cgroups of wisps that are gone (one killed during a run leaves its own behind). */
function sweepLeftovers(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^wisp-run-(\d+)-[0-9a-f]+$/.exec(name)?.[1];
    if (pid === undefined || processAlive(Number(pid))) continue;
    try {
      rmdirSync(join(dir, name)); // refused while a process is still in it
    } catch {
      // busy or gone
    }
  }
}

function make(dir: string, max: number): PidsCgroup | undefined {
  const group = join(dir, `wisp-run-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(group);
  } catch {
    return undefined;
  }
  try {
    writeFileSync(join(group, 'pids.max'), String(max));
  } catch {
    rmQuietly(group);
    return undefined;
  }
  return {
    procs: join(group, 'cgroup.procs'),
    max,
    hit: () => {
      try {
        return /^max [1-9]/m.test(readFileSync(join(group, 'pids.events'), 'utf8'));
      } catch {
        return false;
      }
    },
    remove: () => rmQuietly(group),
  };
}

function rmQuietly(group: string): void {
  for (let i = 0; i < 50; i++) {
    try {
      rmdirSync(group);
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EBUSY') return;
      // The namespace's last processes are still being reaped.
      sleepSync(10);
    }
  }
}

/** A pids cgroup for one run, or undefined where wisp may not make one (then only the timeout bounds a fork bomb). */
export function pidsCgroup(max: number): PidsCgroup | undefined {
  if (process.platform !== 'linux') return undefined;
  const dir = cgroupBase();
  return dir === undefined ? undefined : make(dir, max);
}

/** The argv that moves itself into `group` and then runs `file args…` (same pid, so the same process group). */
export function pidsWrapper(group: PidsCgroup, file: string, args: readonly string[]): { file: string; args: string[] } {
  // A failed move must not run the command uncapped: status 125 and the shell's own words on stderr.
  return { file: '/bin/sh', args: ['-c', 'echo $$ > "$0" || exit 125; exec "$@"', group.procs, file, ...args] };
}
