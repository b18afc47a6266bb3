// Runs one allowed command line: in the sandbox (or plainly, when the sandbox is off), as the leader of its own
// process group, with stdin at /dev/null, a timeout that kills the whole group, and each output stream capped to
// its tail.
//
// node:child_process, not execa: execa kills only the direct child, keeps the head of the output and stops the
// process at maxBuffer, while here the tail matters, the command keeps running, and the group is killed on our
// own timers. What is left of execa's convenience is a few lines below.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import {
  detectSandbox,
  networkUnavailableMessage,
  sandboxArgv,
  sandboxUnavailableMessage,
  type SandboxCommand,
  type SandboxDetection,
  type SandboxKind,
} from '../gate/sandbox.js';
import { homeDirectories } from '../sandbox/contain.js';
import { approvedEnv, containedEnv } from '../sandbox/env.js';
import { restoreWatched } from '../sandbox/protect.js';
import { approvedLimits, containedLimits, pidsCgroup, pidsWrapper, withoutSizes, type PidsCgroup } from '../sandbox/limits.js';
import { signalGroup, trackGroup, untrackGroup } from './group.js';
import { TailBuffer } from './tail.js';

export interface RunOptions {
  /** Where the command starts (the tool's workingDirectory). Never made writable by itself. */
  cwd: string;
  /** Where wisp was started: the main writable root. */
  launchDir: string;
  /** $WISP_HOME: kept read-only inside the sandbox; created (0700) if missing. */
  wispHome: string;
  sandbox: { enabled: boolean; allowNetwork: boolean; writablePaths: readonly string[]; privateTmp?: boolean };
  /** The gate allowed the line unasked: run it contained (read-only, no network). See docs/trust.md. */
  contained?: boolean;
  /** Wall-clock limit; 0 or less means none. */
  timeoutMs: number;
  /** Tail kept per stream, in bytes. */
  maxOutputBytes: number;
  /** Aborting kills the group, like a timeout. */
  signal?: AbortSignal;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** @default os.tmpdir() */
  tmpDir?: string;
  /** How the sandbox is found; tests inject a broken one. @default detectSandbox */
  detect?: () => Promise<SandboxDetection>;
  /** Between SIGTERM and SIGKILL. @default 1000 */
  killGraceMs?: number;
  /**
   * Sees each chunk of output as it arrives (for a face that shows it live). The chunk is also kept for the tail:
   * do not change it. A throw here is ignored: showing the output must never change how the command runs.
   */
  onOutput?: (stream: 'stdout' | 'stderr', chunk: Buffer) => void;
}

export interface RunResult {
  /** The exit status, or null when the command did not exit normally (signal, not started, refused). */
  exitStatus: number | null;
  /** The signal that ended the command (e.g. SIGTERM after a timeout). */
  signal?: string;
  timedOut: boolean;
  /** True when either stream lost bytes to the cap. */
  truncated: boolean;
  stdout: string;
  stderr: string;
  seconds: number;
  /** The sandbox the command ran in; 'none' when it ran plainly or did not run. */
  sandboxed: SandboxKind;
  /** Set when the sandbox was required but unavailable; nothing ran. */
  sandboxRefusal?: string;
  /** True when the caller's AbortSignal ended the command. */
  aborted?: boolean;
  /** Set when the command could not be started (missing working directory, spawn failure). */
  error?: string;
  /** Protected files the command created or replaced, which wisp removed or put back after it (ADR 0098). */
  restored?: string[];
  /** The process cap (ADR 0101) refused a fork during the run: how many processes and threads it allows. */
  processCap?: number;
}

/** After the leader exits, how long to wait for the pipes to close before giving up on what is left in them. */
const DRAIN_MS = 250;
const DEFAULT_KILL_GRACE_MS = 1000;
/** setTimeout's own ceiling (~24.8 days); longer limits are treated as that. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function runCommand(line: string, opts: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started) / 1000;
  const notRun = (extra: Partial<RunResult>): RunResult => ({
    exitStatus: null,
    timedOut: false,
    truncated: false,
    stdout: '',
    stderr: '',
    seconds: elapsed(),
    sandboxed: 'none',
    ...extra,
  });

  if (opts.signal?.aborted) return notRun({ aborted: true });
  if (!isDirectory(opts.cwd)) return notRun({ error: `the working directory does not exist: ${opts.cwd}` });

  let kind: SandboxKind = 'none';
  let sandboxPath: string | undefined;
  let boundsTmpfs = true;
  if (opts.sandbox.enabled) {
    const detection = await (opts.detect ?? detectSandbox)();
    if (!detection.works || detection.kind === 'none') {
      return notRun({ sandboxRefusal: sandboxUnavailableMessage(detection) });
    }
    if ((opts.contained || !opts.sandbox.allowNetwork) && detection.isolatesNetwork === false) {
      return notRun({ sandboxRefusal: networkUnavailableMessage(detection) });
    }
    kind = detection.kind;
    sandboxPath = detection.path;
    boundsTmpfs = detection.boundsTmpfs !== false;
  }

  let argv: SandboxCommand;
  try {
    // The sandbox can only cover a home that exists; see protectedHome in gate/sandbox.ts.
    if (kind !== 'none') mkdirSync(opts.wispHome, { recursive: true, mode: 0o700 });
    argv = sandboxArgv(
      kind,
      {
        launchDir: opts.launchDir,
        tmpDir: opts.tmpDir ?? tmpdir(),
        wispHome: opts.wispHome,
        writablePaths: opts.sandbox.writablePaths,
        allowNetwork: opts.sandbox.allowNetwork,
        privateTmp: opts.sandbox.privateTmp !== false,
        cwd: opts.cwd,
        sandboxPath,
        ...(boundsTmpfs ? {} : { limits: withoutSizes(opts.contained ? containedLimits() : approvedLimits()) }),
        ...(opts.contained
          ? { contained: true, homes: homeDirectories(opts.env ?? process.env), path: (opts.env ?? process.env).PATH ?? '' }
          : {}),
      },
      line,
    );
  } catch (err) {
    return notRun({ error: `could not set up the sandbox: ${(err as Error).message}` });
  }

  let restored: string[] = [];
  // Every process of the run, the sandbox's first included, starts in a pids cgroup of its own where one can be made.
  let cap: PidsCgroup | undefined;
  try {
    if (opts.signal?.aborted) return notRun({ aborted: true });
    if (argv.limits !== undefined) cap = pidsCgroup(argv.limits.pids);
    const outcome = await supervise(cap !== undefined ? { ...argv, ...pidsWrapper(cap, argv.file, argv.args) } : argv, opts);
    // The group is gone: put back the protected names no mount could hold (ADR 0098).
    if (argv.watched !== undefined) restored = restoreWatched(argv.watched);
    return {
      ...outcome,
      seconds: elapsed(),
      sandboxed: outcome.error ? 'none' : kind,
      ...(restored.length > 0 ? { restored } : {}),
      ...(cap?.hit() ? { processCap: cap.max } : {}),
    };
  } finally {
    cap?.remove();
    // What the run wrote to its private temp directory goes with it (the process group is gone by now).
    if (argv.scratch !== undefined) rmSync(argv.scratch, { recursive: true, force: true });
    try {
      argv.release?.();
    } catch {
      // The ledger's lock could not be taken: the stand-ins stay (empty, harmless); the next run sweeps them.
    }
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}


type Outcome = Omit<RunResult, 'seconds' | 'sandboxed'>;

/** Spawns the command as a group leader and watches it until it and its output are done, or given up on. */
function supervise(argv: SandboxCommand, opts: RunOptions): Promise<Outcome> {
  const grace = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const stdout = new TailBuffer(opts.maxOutputBytes);
  const stderr = new TailBuffer(opts.maxOutputBytes);

  return new Promise<Outcome>((settle) => {
    let child: ChildProcess;
    try {
      // detached: the child calls setsid, so it leads a new process group (pgid = its pid) with no terminal.
      child = spawn(argv.file, argv.args, {
        cwd: opts.cwd,
        env: opts.contained ? containedEnv(opts.env ?? process.env) : approvedEnv(opts.env ?? process.env),
        detached: true,
        stdio: argv.fd3 ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
      });
      // The seccomp filter: bwrap reads fd 3 to its end before it starts the command.
      if (argv.fd3) {
        const filter = child.stdio[3] as NodeJS.WritableStream;
        // A bwrap that fails before it reads the filter resets the socket (ECONNRESET, EPIPE): that error has no
        // listener otherwise and would end wisp; the run's own status and stderr already say what failed.
        filter.on('error', () => {});
        filter.end(argv.fd3);
      }
    } catch (err) {
      const error = (err as Error).message;
      settle({ exitStatus: null, timedOut: false, truncated: false, stdout: '', stderr: '', error });
      return;
    }
    const pgid = child.pid;

    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let openPipes = 2;
    let timedOut = false;
    let aborted = false;
    let terminating = false;
    let done = false;
    let deadline: NodeJS.Timeout | undefined;
    let drain: NodeJS.Timeout | undefined;
    let spawnError: string | undefined;

    /** SIGTERM to the whole group now, SIGKILL after the grace period; idempotent. */
    const terminate = (): void => {
      if (terminating || pgid === undefined) return;
      terminating = true;
      if (!signalGroup(pgid, 'SIGTERM')) {
        untrackGroup(pgid);
        return;
      }
      const kill = setTimeout(() => {
        signalGroup(pgid, 'SIGKILL');
        untrackGroup(pgid);
        // The leader is dead by now; give its pipes a moment, then stop waiting for them.
        if (!done) drain ??= setTimeout(finish, DRAIN_MS);
      }, grace);
      // Not a reason to keep wisp alive: the exit hook SIGKILLs tracked groups anyway.
      kill.unref();
    };

    const onAbort = (): void => {
      if (exit) return; // already over; leftovers are being terminated anyway
      aborted = true;
      terminate();
    };

    function finish(): void {
      if (done) return;
      done = true;
      clearTimeout(deadline);
      clearTimeout(drain);
      opts.signal?.removeEventListener('abort', onAbort);
      // A process outside our reach (one that left the group) may still hold the pipes; stop reading them.
      child.stdout?.destroy();
      child.stderr?.destroy();
      settle({
        exitStatus: exit?.code ?? null,
        ...(exit?.signal ? { signal: exit.signal } : {}),
        timedOut,
        truncated: stdout.truncated || stderr.truncated,
        stdout: stdout.text(),
        stderr: stderr.text(),
        ...(aborted ? { aborted: true } : {}),
        ...(spawnError ? { error: spawnError } : {}),
      });
    }

    const show = (stream: 'stdout' | 'stderr', chunk: Buffer): void => {
      try {
        opts.onOutput?.(stream, chunk);
      } catch {
        /* the face's problem, not the command's */
      }
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      show('stdout', chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      show('stderr', chunk);
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('close', () => {
        openPipes--;
        if (exit && openPipes === 0) finish();
      });
    }

    child.on('error', (err) => {
      // Spawn failed (no such file, not executable): there is no process and no exit event to wait for.
      if (pgid !== undefined) untrackGroup(pgid);
      spawnError = err.message;
      finish();
    });

    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Nothing a command starts outlives it: background leftovers in its group are terminated too.
      terminate();
      if (openPipes === 0) finish();
      else drain ??= setTimeout(finish, DRAIN_MS);
    });

    if (pgid === undefined) return; // the 'error' event follows
    trackGroup(pgid);
    if (opts.timeoutMs > 0 && Number.isFinite(opts.timeoutMs)) {
      deadline = setTimeout(
        () => {
          if (exit) return;
          timedOut = true;
          terminate();
        },
        Math.min(opts.timeoutMs, MAX_TIMER_MS),
      );
    }
    opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The result as the model reads it (wisp-spec §5): status lines, then each non-empty stream under a label. */
export function formatRunResult(r: RunResult): string {
  if (r.sandboxRefusal) return r.sandboxRefusal;
  const lines: string[] = [];
  if (r.error) lines.push(`error: ${r.error}`);
  if (r.signal) {
    const n = (osConstants.signals as Record<string, number | undefined>)[r.signal];
    lines.push(`exit status: ${n === undefined ? '?' : -n} (killed by signal ${r.signal})`);
  } else if (r.exitStatus !== null) {
    lines.push(`exit status: ${r.exitStatus}`);
  } else if (r.aborted && !r.error) {
    lines.push('not run: the call was cancelled');
  }
  if (r.timedOut) lines.push('timed out: the command was killed');
  if (r.aborted && (r.signal || r.exitStatus !== null)) lines.push('cancelled: the command was killed');
  if (r.truncated) lines.push('output truncated: only the tail of each stream is shown');
  if (r.processCap !== undefined) lines.push(`limit reached: the run may have ${r.processCap} processes and threads at once, and a fork past that failed`);
  if (r.restored) lines.push(`undone: the command made or replaced files that make later programs run code, and wisp put them back: ${r.restored.join(', ')}`);
  if (r.stdout) lines.push(`stdout:\n${withoutFinalNewline(r.stdout)}`);
  if (r.stderr) lines.push(`stderr:\n${withoutFinalNewline(r.stderr)}`);
  return lines.join('\n');
}

function withoutFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
