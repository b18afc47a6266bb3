// Shared fixtures for the runner tests: directories outside every writable root, and /proc lookups for processes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import type { RunOptions } from '../../src/exec/run.js';

const repoRoot = resolve(import.meta.dirname, '..', '..');

function isInside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..');
}

/**
 * A fresh directory outside the temp dir (the temp dir is writable by design, so a "must not be writable" path
 * cannot live there). /var/tmp when it is not under the temp dir, else a git-ignored directory in the repo.
 */
export function dirOutsideTmp(prefix: string): string {
  const tmp = realpathSync(tmpdir());
  for (const base of ['/var/tmp', repoRoot]) {
    try {
      if (isInside(realpathSync(base), tmp)) continue;
      return mkdtempSync(join(base, `.wisp-test-${prefix}-`));
    } catch {
      // not there or not writable: try the next one
    }
  }
  throw new Error('no directory outside the temp dir is writable for the tests');
}

export function dirInTmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `wisp-test-${prefix}-`));
}

export function removeAll(dirs: string[]): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Options for a sandboxed run in `launchDir`; override what a test is about. */
export function runOptions(launchDir: string, wispHome: string, over: Partial<RunOptions> = {}): RunOptions {
  return {
    cwd: launchDir,
    launchDir,
    wispHome,
    sandbox: { enabled: true, allowNetwork: true, writablePaths: [] },
    timeoutMs: 10_000,
    maxOutputBytes: 4096,
    ...over,
  };
}

const markers: string[] = [];

/** A number no other process on the machine has in its argv, to find our `sleep`s in /proc. */
export function uniqueSleepSeconds(): string {
  const marker = (300 + Math.random()).toFixed(6);
  markers.push(marker);
  return marker;
}

/** SIGKILLs whatever a failed test left running with one of our markers, by pid. */
export function killLeftovers(): void {
  for (const marker of markers.splice(0)) {
    for (const pid of pidsWithArg(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/**
 * Host pids of the `sleep <marker>` processes. Only sleep's own argv counts: a stand-in wisp is often started with
 * the marker among its arguments too, and counting it let a test go on while one of its sleeps did not exist yet.
 */
export function pidsWithArg(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv.length === 3 && argv[0]?.endsWith('sleep') && argv[1] === marker) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Dead means gone, or a zombie (PID 1 in this container may never reap orphans). */
export function isDead(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return true;
  }
}

/** Polls until `count` processes carry `marker`, or fails after `ms`. */
export async function waitForPids(marker: string, count: number, ms = 5000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const pids = pidsWithArg(marker).filter((p) => !isDead(p));
    if (pids.length >= count) return pids;
    if (Date.now() > until) throw new Error(`expected ${count} processes with ${marker}, found ${pids.length}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** git with a fixed identity, and file:// submodules allowed (git 2.38 refuses them by default). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'protocol.file.allow=always', ...args], { cwd, encoding: 'utf8' });
}

/** Makes `project` a repository with a submodule at `path`, cloned from a one-commit repository beside it. */
export function withSubmodule(base: string, project: string, path: string): void {
  const lib = join(base, `lib-${path.replaceAll('/', '-')}`);
  mkdirSync(lib);
  git(lib, 'init', '-q');
  git(lib, 'commit', '-q', '--allow-empty', '-m', 'lib');
  git(project, 'init', '-q');
  git(project, 'submodule', '-q', 'add', lib, path);
}
