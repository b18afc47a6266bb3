// The sandbox a command runs in once the gate allows it (design.md §3 step 5): bubblewrap on Linux, sandbox-exec on
// macOS. Writes are confined to the launch directory, the temp dir and configured paths; $WISP_HOME is never
// writable; the network is cut only when asked. Reads are not confined. See docs/trust.md and
// docs/decisions/0002-linux-sandbox.md.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { ContainmentError, containedMounts, homeDirectories } from '../sandbox/contain.js';
import { seccompFilter } from '../sandbox/seccomp.js';
import { claimHeld } from '../sandbox/held-ledger.js';
import { heldPaths, type Watched } from '../sandbox/protect.js';
import { approvedLimits, containedLimits, type RunLimits } from '../sandbox/limits.js';

export type SandboxKind = 'bwrap' | 'sandbox-exec' | 'none';

export interface SandboxDetection {
  readonly kind: SandboxKind;
  /** The sandbox program, when one was found. */
  readonly path?: string;
  /** True when a trial run inside the sandbox succeeded. */
  readonly works: boolean;
  /** One line for a person: what was found, or why it does not work. */
  readonly detail: string;
  /** False when the sandbox works but cannot cut the network (`sandbox.allowNetwork: false` is then refused). */
  readonly isolatesNetwork?: boolean;
  /** Why it does not work: the program is not there, or it is there and failed its trial run. */
  readonly failure?: 'missing' | 'refused';
  /** False when this bwrap cannot bound a tmpfs (`--size` came with bwrap 0.8; ADR 0101): its temp dirs are then unbounded. */
  readonly boundsTmpfs?: boolean;
}

export interface DetectOptions {
  /** @default process.platform */
  readonly platform?: NodeJS.Platform;
  /** Use this bwrap instead of searching for one (tests point it at a missing or broken program). */
  readonly bwrapPath?: string;
  /** @default '/usr/bin/sandbox-exec' */
  readonly sandboxExecPath?: string;
  /** Probe again instead of reusing the cached answer. */
  readonly fresh?: boolean;
}

export interface SandboxOptions {
  /** Where wisp was started; writable. */
  readonly launchDir: string;
  /** The temp dir (os.tmpdir()); writable. */
  readonly tmpDir: string;
  /** wisp's own state; never writable, even when it lies under a writable root. Must exist. */
  readonly wispHome: string;
  /** `sandbox.writablePaths`; relative paths are taken from the launch dir, `~/` from the home directory. */
  readonly writablePaths: readonly string[];
  readonly allowNetwork: boolean;
  /** Where the command starts. Not made writable: a per-call working directory grants nothing. */
  readonly cwd: string;
  /** The sandbox program from {@link detectSandbox}; defaults to the usual location. */
  readonly sandboxPath?: string;
  /** @default {@link defaultShell}() */
  readonly shell?: string;
  /**
   * The line runs unasked (the gate's `unasked`): every file system read-only, only a private empty /tmp writable,
   * no network, whatever the config says.
   */
  readonly contained?: boolean;
  /** A private, empty /tmp (and temp dir) for an approved run; `sandbox.privateTmp`. @default true */
  readonly privateTmp?: boolean;
  /** Home directories hidden from a contained run. @default {@link homeDirectories}() */
  readonly homes?: readonly string[];
  /** The command's PATH, for the tool directories a contained run keeps under a hidden home. */
  readonly path?: string;
  /** What the run may take of the machine (ADR 0101). @default containedLimits() or approvedLimits() */
  readonly limits?: RunLimits;
}

/** What runs the command line: a file and its arguments, ready for spawn. */
export interface SandboxCommand {
  readonly file: string;
  readonly args: string[];
  /** Bytes the runner hands the sandbox on file descriptor 3 (the seccomp filter of a contained run). */
  readonly fd3?: Buffer;
  /**
   * A directory made for this run alone (macOS's private TMPDIR; bwrap's cleaned git config copies); the runner
   * removes it when the run ends.
   */
  readonly scratch?: string;
  /**
   * Gives back the run's claim on the empty stand-ins for missing protected paths (ADR 0098): the runner calls it
   * when the run ends, and a stand-in goes once no other run holds it (ADR 0101).
   */
  readonly release?: () => void;
  /** Protected names no mount holds (ADR 0098); the runner puts them back as they were when the run ends. */
  readonly watched?: readonly Watched[];
  /** The limits the arguments apply; the runner adds the process cap (a pids cgroup) where it can (ADR 0101). */
  readonly limits?: RunLimits;
}

/**
 * The shell lines run under. Bash, not /bin/sh: the gate reads lines with a bash grammar (tree-sitter-bash), so
 * running them with dash would let a line mean one thing to the gate and another to the shell (`$'…'` quoting,
 * `[[ ]]`, brace expansion). /bin/sh only where there is no bash.
 */
export function defaultShell(): string {
  return existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

/** `-c` takes the next word as the script; `--` first, so a line that starts with `-` is not read as an option. */
function shellArgs(line: string): string[] {
  return ['-c', '--', line];
}

/**
 * Inside bwrap the first process is a small init of our own: a shell that starts `shell -c -- line` (the very argv a
 * run has without the sandbox) in the background, reaps what it is given and leaves with the command's status (128 +
 * n for a signal, as bwrap's init reports it). Why not bwrap's own init (docs/decisions/0080-sandbox-init.md): bwrap's
 * pid 1 sets its parent-death signal only after it has forked the command, so a starved pid 1 let a command outlive
 * a SIGKILLed wisp. Ours is bwrap's first child, which takes the signal before it execs, while bwrap's launcher
 * takes its own before it lets that child go on. `2>/dev/null` on `wait` only: the init's own notes about how the
 * command died ("Segmentation fault …") are not the command's output, and bwrap's init printed none.
 */
function initArgs(shell: string, line: string, limits: RunLimits): string[] {
  // The data limit, soft and hard, before anything of the command's starts (ADR 0101); digits only.
  const data = limits.dataKiB !== undefined ? `ulimit -d ${Math.floor(limits.dataKiB)}; ` : '';
  return ['-c', `${CLOSE_INHERITED}${OOM_FIRST}${data}"$0" -c -- "$1" & wait "$!" 2>/dev/null`, shell, line];
}

/**
 * Neither node nor bwrap closes the descriptors wisp itself was started with (a parent's pipe, a log file, a
 * connected socket): they would reach the command, and through them a place the sandbox hides or a write it
 * forbids. The init closes every descriptor above 2 before it starts the line (ADR 0098). `eval` is how a shell closes a
 * descriptor whose number is in a variable, so only digits reach it (an unmatched glob would be a word to run).
 */
const CLOSE_INHERITED = 'for f in /proc/self/fd/*; do n=${f##*/}; case $n in ""|0|1|2|*[!0-9]*) ;; *) eval "exec $n>&-" 2>/dev/null;; esac; done; ';

/**
 * When the machine runs out of memory, the kernel's OOM killer takes the run's processes first, not wisp, the
 * person's editor or another session (ADR 0101). Raising one's own score needs no privilege; children inherit it.
 */
const OOM_FIRST = 'echo 1000 > /proc/self/oom_score_adj 2>/dev/null; ';

const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap', '/run/current-system/sw/bin/bwrap'];
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
const PROBE_TIMEOUT_MS = 5000;

/**
 * Namespaces and limits every bwrap run gets (and the probe tries):
 * - `--unshare-pid`: the command sees and can signal or ptrace only its own processes, and when bwrap dies the
 *   kernel kills everything left in the namespace — even a grandchild that called setsid to leave our process group.
 * - `--unshare-ipc`: no access to other programs' System V shared memory and semaphores.
 * - `--cap-drop ALL`: bwrap run by root otherwise keeps root's capabilities, and CAP_SYS_ADMIN could remount `/`
 *   read-write from inside.
 * - `--die-with-parent`: if wisp dies, even by SIGKILL, the sandbox dies with it.
 * - `--as-pid-1`: no bwrap init; the command line's own init (initArgs) is pid 1 and carries the parent-death signal
 *   from its first instruction, so when it dies the kernel takes the whole namespace down with it.
 * Not `--new-session`: it would move the command into a new session and process group, out of reach of the
 * group kill. The terminal-injection attack it guards against (TIOCSTI) needs a controlling terminal, and the
 * command has none: wisp spawns it detached (setsid), stdin is /dev/null and `--dev` hides the host's ttys.
 */
const BWRAP_ISOLATION = ['--unshare-pid', '--unshare-ipc', '--cap-drop', 'ALL', '--die-with-parent', '--as-pid-1'];

/** The base of every bwrap run: everything read-only, a fresh /dev and /proc. */
function bwrapBase(): string[] {
  return [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    // Root's uid may write many sysctls by file mode alone, capabilities or not; this bwrap leaves /proc/sys
    // writable, so cover it (and sysrq-trigger, where the kernel has one) read-only.
    '--ro-bind-try', '/proc/sys', '/proc/sys',
    '--ro-bind-try', '/proc/sysrq-trigger', '/proc/sysrq-trigger',
  ];
}

const cache = new Map<string, Promise<SandboxDetection>>();

/**
 * Finds the platform's sandbox and checks that it works by running `true` inside it once (cached per program).
 * On Linux the probe uses the same namespaces as a real run, so a kernel that forbids them fails here rather than
 * on the first command; a second trial checks the network namespace on its own.
 */
export function detectSandbox(options: DetectOptions = {}): Promise<SandboxDetection> {
  const platform = options.platform ?? process.platform;
  const key = `${platform}\0${options.bwrapPath ?? ''}\0${options.sandboxExecPath ?? ''}`;
  const cached = cache.get(key);
  if (cached && !options.fresh) return cached;
  const probe = probeSandbox(platform, options);
  cache.set(key, probe);
  return probe;
}

async function probeSandbox(platform: NodeJS.Platform, options: DetectOptions): Promise<SandboxDetection> {
  if (platform === 'linux') {
    const path = options.bwrapPath ?? findBwrap();
    if (!path || !isExecutable(path)) {
      const detail = `bubblewrap (bwrap) not found${path ? ` at ${path}` : ''}`;
      return { kind: 'bwrap', path, works: false, failure: 'missing', detail };
    }
    const base = [...bwrapBase(), ...BWRAP_ISOLATION];
    const trial = await trialRun(path, [...base, '--', 'true']);
    if (!trial.ok) {
      const detail = `bwrap at ${path} failed its trial run: ${trial.why}`;
      return { kind: 'bwrap', path, works: false, failure: 'refused', detail };
    }
    // Separately, because some hosts allow the other namespaces but not a network one (reported on Ubuntu 24.04).
    const net = await trialRun(path, [...base, '--unshare-net', '--', 'true']);
    // An older bwrap (Ubuntu 22.04 has 0.6) has no --size: it would refuse every run that used it.
    const sized = await trialRun(path, [...base, '--size', String(1024 * 1024), '--tmpfs', '/tmp', '--', 'true']);
    const detail = `bwrap at ${path} works (probe ${trial.ms} ms)${sized.ok ? '' : ', but cannot bound a tmpfs (no --size)'}`;
    if (net.ok) return { kind: 'bwrap', path, works: true, isolatesNetwork: true, boundsTmpfs: sized.ok, detail };
    const why = `${detail}, but cannot cut the network: ${net.why}`;
    return { kind: 'bwrap', path, works: true, isolatesNetwork: false, boundsTmpfs: sized.ok, detail: why };
  }
  if (platform === 'darwin') {
    // Only the system copy: one found on PATH could be anything.
    const path = options.sandboxExecPath ?? SANDBOX_EXEC;
    if (!isExecutable(path)) {
      return { kind: 'sandbox-exec', path, works: false, failure: 'missing', detail: `${path} not found` };
    }
    const trial = await trialRun(path, ['-p', '(version 1)\n(allow default)', '/usr/bin/true']);
    if (!trial.ok) {
      const why = `sandbox-exec at ${path} failed its trial run: ${trial.why}`;
      return { kind: 'sandbox-exec', path, works: false, failure: 'refused', detail: why };
    }
    const detail = `sandbox-exec at ${path} works (probe ${trial.ms} ms)`;
    return { kind: 'sandbox-exec', path, works: true, isolatesNetwork: true, detail };
  }
  return { kind: 'none', works: false, detail: `wisp has no sandbox for ${platform}` };
}

/**
 * System locations first, then absolute PATH entries: a `bwrap` planted in a project directory on PATH (or a
 * relative entry such as `.`) must not stand in for the real one.
 */
function findBwrap(): string | undefined {
  const fromPath = (process.env.PATH ?? '').split(delimiter).filter((d) => isAbsolute(d)).map((d) => join(d, 'bwrap'));
  return [...BWRAP_CANDIDATES, ...fromPath].find(isExecutable);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function trialRun(file: string, args: string[]): Promise<{ ok: boolean; ms: number; why: string }> {
  const started = performance.now();
  return new Promise((settle) => {
    let stderr = '';
    const child = spawn(file, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: PROBE_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (stderr.length < 2000) stderr += d;
    });
    child.on('error', (err) => settle({ ok: false, ms: 0, why: err.message }));
    child.on('close', (code, signal) => {
      const ms = Math.round(performance.now() - started);
      const firstLine = stderr.trim().split('\n')[0] ?? '';
      const why = firstLine || (signal ? `killed by ${signal}` : `exit status ${code}`);
      settle({ ok: code === 0, ms, why });
    });
  });
}

/**
 * The canonical form of a path that may not exist yet: the real path of its longest existing prefix, with the
 * rest appended. Mount points and Seatbelt rules match canonical paths, so a symlinked alias must not slip past.
 */
export function canonicalPath(path: string): string {
  const rest: string[] = [];
  let head = resolve(path);
  for (;;) {
    try {
      return join(realpathSync.native(head), ...rest);
    } catch {
      const parent = dirname(head);
      if (parent === head) return resolve(path);
      rest.unshift(basename(head));
      head = parent;
    }
  }
}

function expandPath(path: string, launchDir: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return join(homedir(), path.slice(2));
  return resolve(launchDir, path);
}

/**
 * The writable roots, canonical and de-duplicated: the launch dir, the temp dir, then `writablePaths`. Paths that
 * do not exist are skipped (there is nothing to bind). `/` is skipped too: binding it would lay the host's /proc
 * and /dev back over the sandbox's own — turn the sandbox off instead if everything should be writable.
 */
export function writableRoots(opts: Pick<SandboxOptions, 'launchDir' | 'tmpDir' | 'writablePaths'>): string[] {
  const wanted = [opts.launchDir, opts.tmpDir, ...opts.writablePaths].map((p) => expandPath(p, opts.launchDir));
  const roots: string[] = [];
  for (const p of wanted) {
    const real = canonicalPath(p);
    if (real === '/' || !existsSync(real) || roots.includes(real)) continue;
    roots.push(real);
  }
  return roots;
}

function protectedHome(wispHome: string): string {
  const real = canonicalPath(wispHome);
  // A missing $WISP_HOME cannot be covered read-only, and under a writable root the command could create it and
  // plant approvals in it; the runner creates it first, so reaching this is a bug in the caller.
  if (!existsSync(real)) throw new Error(`the wisp home ${wispHome} does not exist; create it before sandboxing`);
  return real;
}

/** The argv that runs `commandLine` under the given sandbox (`none`: the plain shell). */
export function sandboxArgv(kind: SandboxKind, opts: SandboxOptions, commandLine: string): SandboxCommand {
  const shell = opts.shell ?? defaultShell();
  switch (kind) {
    case 'none':
      return { file: shell, args: shellArgs(commandLine) };
    case 'bwrap':
      if (opts.contained) {
        const filter = seccompFilter();
        if (!filter) throw new ContainmentError(`wisp has no seccomp filter for ${process.arch}, so nothing runs unasked`);
        // Cleaned copies of git config files (ADR 0098) live in a directory of the run's own, made when needed.
        let scratch: string | undefined;
        const makeScratch = (): string => (scratch ??= mkdtempSync(join(canonicalPath(opts.tmpDir), 'wisp-run-')));
        try {
          const limits = opts.limits ?? containedLimits();
          const args = bwrapArgs({ ...opts, limits, scratch: makeScratch }, shell, commandLine, {});
          return { file: opts.sandboxPath ?? BWRAP_CANDIDATES[0], args, fd3: filter, limits, ...(scratch !== undefined ? { scratch } : {}) };
        } catch (err) {
          if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
          throw err;
        }
      }
      {
        const claim: { release?: () => void } = {};
        const watched: Watched[] = [];
        const limits = opts.limits ?? approvedLimits();
        try {
          const args = bwrapArgs({ ...opts, limits }, shell, commandLine, claim, watched);
          return {
            file: opts.sandboxPath ?? BWRAP_CANDIDATES[0],
            args,
            limits,
            ...(claim.release !== undefined ? { release: claim.release } : {}),
            ...(watched.length > 0 ? { watched } : {}),
          };
        } catch (err) {
          claim.release?.();
          throw err;
        }
      }
    case 'sandbox-exec': {
      const scratch = opts.contained ? mkdtempSync(join(canonicalPath(opts.tmpDir), 'wisp-run-')) : undefined;
      let args: string[];
      try {
        args = seatbeltArgs(opts, shell, commandLine, scratch);
      } catch (err) {
        if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
        throw err;
      }
      return { file: opts.sandboxPath ?? SANDBOX_EXEC, args, ...(scratch !== undefined ? { scratch } : {}) };
    }
    default: {
      const unknown: never = kind;
      throw new Error(`unknown sandbox kind: ${String(unknown)}`);
    }
  }
}

function bwrapArgs(
  opts: SandboxOptions & { scratch?: () => string; limits: RunLimits },
  shell: string,
  line: string,
  claim: { release?: () => void },
  watched: Watched[] = [],
): string[] {
  const args = bwrapBase();
  if (!opts.contained) {
    // bwrap's fresh /dev is a tmpfs of half the memory, writable by root's uid: /dev/shm gets a bounded tmpfs of its
    // own and the rest of /dev is read-only (device nodes such as /dev/null stay writable) (ADR 0101).
    args.push(...sized(opts.limits.shmBytes), '--tmpfs', '/dev/shm', '--remount-ro', '/dev');
  }
  if (opts.contained) {
    args.push(
      ...containedMounts({
        project: opts.launchDir,
        cwd: opts.cwd,
        wispHome: opts.wispHome,
        homes: opts.homes ?? homeDirectories(),
        tmpDirs: ['/tmp', opts.tmpDir],
        ...(opts.path !== undefined ? { path: opts.path } : {}),
        ...(opts.scratch !== undefined ? { scratch: opts.scratch } : {}),
        ...(opts.limits.tmpBytes !== undefined ? { tmpBytes: opts.limits.tmpBytes } : {}),
      }),
    );
    // The filter travels on fd 3 (SandboxCommand.fd3); bwrap loads it just before it runs the shell.
    // /dev read-only too: bwrap's fresh /dev is a tmpfs whose /dev/shm would be a second scratch area (device
    // nodes such as /dev/null stay writable on a read-only mount).
    args.push('--remount-ro', '/dev', ...BWRAP_ISOLATION, '--unshare-net', '--seccomp', '3');
    args.push('--chdir', canonicalPath(opts.cwd), '--', shell, ...initArgs(shell, line, opts.limits));
    return args;
  }
  // A private /tmp first (other programs' sockets and files in the host /tmp out of reach), then the writable
  // roots, outermost first so a root inside the temp dir is laid over the private one.
  const privateTmp = opts.privateTmp !== false;
  const tmps = privateTmp ? [...new Set(['/tmp', canonicalPath(opts.tmpDir)])].filter((d) => existsSync(d)) : [];
  // With a private temp dir, the host's is not a writable root (passing the launch dir in its place drops it).
  const roots = writableRoots({ ...opts, tmpDir: privateTmp ? opts.launchDir : opts.tmpDir });
  const ops = [
    ...tmps.map((d) => ({ path: d, rank: 0, args: [...sized(opts.limits.tmpBytes), '--tmpfs', d] })),
    ...roots.map((r) => ({ path: r, rank: 1, args: ['--bind', r, r] })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || a.rank - b.rank);
  for (const o of ops) args.push(...o.args);
  // Files that make later programs run code (shell start-up files, every git directory's hooks and config, editor
  // tasks, wisp's own config) stay read-only inside every writable root, even in an approved run; a missing one is
  // held by a placeholder, so it cannot be created either (ADR 0098). Another approved run in the same root may share
  // a placeholder: the ledger under $WISP_HOME keeps it until the last run holding it ends (ADR 0101).
  const home = protectedHome(opts.wispHome);
  const { held, readOnly, release } = claimHeld(home, () => heldPaths(roots, canonicalPath(opts.launchDir)));
  claim.release = release;
  watched.push(...held.watched);
  // Outermost first, and the pins before what they hold: a later mount covers an earlier one.
  for (const d of [...held.pinned].sort((a, b) => depth(a) - depth(b))) args.push('--bind', d, d);
  for (const p of [...readOnly].sort((a, b) => depth(a) - depth(b))) args.push('--ro-bind', p, p);
  // After the writable binds: a later mount covers an earlier one, so this wins even when $WISP_HOME lies under
  // the launch dir or /tmp.
  args.push('--ro-bind', home, home);
  args.push(...BWRAP_ISOLATION);
  if (!opts.allowNetwork) args.push('--unshare-net');
  args.push('--chdir', canonicalPath(opts.cwd), '--', shell, ...initArgs(shell, line, opts.limits));
  return args;
}

function depth(path: string): number {
  return path.split('/').filter(Boolean).length;
}

/** `--size N` for the next tmpfs, or nothing where the bwrap has no --size (ADR 0101). */
function sized(bytes: number | undefined): string[] {
  return bytes !== undefined ? ['--size', String(bytes)] : [];
}


/**
 * A Seatbelt profile for `sandbox-exec -p`. Paths are not spliced into the text: they travel as `-D` parameters
 * (WRITABLE_ROOT_n, WISP_HOME), so no quoting bug can change the rules. In SBPL the last matching rule wins, hence
 * the order: deny all writes, allow the roots and the few devices programs need, deny $WISP_HOME again.
 * Signals are limited to processes in the same sandbox, like the pid namespace on Linux.
 */
export function seatbeltProfile(rootCount: number, allowNetwork: boolean, heldCount = 0): string {
  const roots = Array.from({ length: rootCount }, (_, i) => `  (subpath (param "WRITABLE_ROOT_${i}"))`);
  // The protected files of the writable roots (ADR 0098), by path: Seatbelt needs no placeholder for a missing one.
  const held = Array.from({ length: heldCount }, (_, i) => ` (subpath (param "HELD_${i}"))`).join('');
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    '(allow file-write*',
    ...roots,
    '  (literal "/dev/null")',
    '  (literal "/dev/zero")',
    '  (regex #"^/dev/tty")',
    '  (subpath "/dev/fd"))',
    '(deny file-write* (subpath (param "WISP_HOME")))',
    ...(heldCount > 0 ? [`(deny file-write*${held})`] : []),
    '(deny signal)',
    '(allow signal (target same-sandbox))',
  ];
  if (!allowNetwork) lines.push('(deny network*)');
  return lines.join('\n') + '\n';
}

/** Secret names, as Seatbelt regexes (static text: no path is ever spliced into a profile). */
const SEATBELT_SECRET_REGEXES = [
  // `(/|$)`: a folder named like a secret file (`.env/prod`, `credentials/`) hides what is in it (ADR 0101).
  String.raw`/\.env(\.[^/]*)?(/|$)`,
  String.raw`[^/]\.env(/|$)`,
  String.raw`/\.(ssh|aws|gnupg|azure|kube|docker|password-store|gcloud)(/|$)`,
  String.raw`/(\.netrc|\.npmrc|\.pypirc|\.git-credentials|\.pgpass|\.envrc|\.vault-token)(/|$)`,
  String.raw`/\.?(secrets?|private[-_]keys|credentials(\.json)?)(/|$)`,
  String.raw`/id_(rsa|dsa|ecdsa|ed25519)(_sk)?(/|$)`,
  String.raw`\.(pem|key|p12|pfx|jks|keystore|kdbx)(/|$)`,
];

/**
 * The Seatbelt profile of a contained (unasked) run: deny by default, then allow running programs, reading the
 * system and the project, writing only the run's own temp dir. Home, $WISP_HOME, the host temp dirs and secret
 * names stay unreadable; no network, unix sockets included; mach services limited to the few that plain
 * read-only tools need. Parameters: PROJECT, HOME_n, WISP_HOME, TMP (the run's private temp dir).
 */
export function seatbeltContainedProfile(homeCount: number): string {
  const homes = Array.from({ length: homeCount }, (_, i) => `  (subpath (param "HOME_${i}"))`);
  return [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow user-preference-read)',
    '(allow mach-lookup',
    '  (global-name "com.apple.system.opendirectoryd.libinfo")',
    '  (global-name "com.apple.system.logger")',
    '  (global-name "com.apple.system.notification_center"))',
    '(allow file-read*)',
    '(deny file-read*',
    ...homes,
    '  (subpath "/private/tmp")',
    '  (subpath "/private/var/folders")',
    '  (subpath "/Volumes"))',
    '(allow file-read* (subpath (param "PROJECT")) (subpath (param "TMP")))',
    '(deny file-read* (subpath (param "WISP_HOME")))',
    ...SEATBELT_SECRET_REGEXES.map((r) => `(deny file-read* (regex #"${r}"))`),
    '(allow file-write* (subpath (param "TMP")))',
    '(allow file-read* file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/random") (literal "/dev/urandom"))',
    '(deny network*)',
    '',
  ].join('\n');
}

function seatbeltArgs(opts: SandboxOptions, shell: string, line: string, scratch: string | undefined): string[] {
  if (opts.contained && scratch !== undefined) {
    // Seatbelt cannot lay an empty /tmp over the real one: the run gets a fresh directory as TMPDIR instead.
    const tmp = scratch;
    const homes = (opts.homes ?? homeDirectories()).map((h) => canonicalPath(h));
    const params = ['-D', `PROJECT=${canonicalPath(opts.launchDir)}`, '-D', `TMP=${tmp}`];
    params.push('-D', `WISP_HOME=${protectedHome(opts.wispHome)}`);
    homes.forEach((h, i) => params.push('-D', `HOME_${i}=${h}`));
    // The line itself goes to the shell untouched; /usr/bin/env sets TMPDIR for it.
    return ['-p', seatbeltContainedProfile(homes.length), ...params, '/usr/bin/env', `TMPDIR=${tmp}`, shell, ...shellArgs(line)];
  }
  const roots = writableRoots(opts);
  const params = roots.flatMap((root, i) => ['-D', `WRITABLE_ROOT_${i}=${root}`]);
  params.push('-D', `WISP_HOME=${protectedHome(opts.wispHome)}`);
  const found = heldPaths(roots, canonicalPath(opts.launchDir));
  const held = [...new Set([...found.present, ...found.absent.map((a) => a.path), ...found.watched.map((w) => w.path)])];
  held.forEach((h, i) => params.push('-D', `HELD_${i}=${h}`));
  // sandbox-exec has no --chdir: the runner spawns it with cwd set.
  return ['-p', seatbeltProfile(roots.length, opts.allowNetwork, held.length), ...params, shell, ...shellArgs(line)];
}

const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap); ' +
  'on macOS sandbox-exec is built in';
const TURN_OFF = 'To run commands without a sandbox instead: wisp config set sandbox.enabled false';

/** What to tell a person when the sandbox is on but cannot be used. */
export function sandboxUnavailableMessage(detection: SandboxDetection): string {
  let fix: string;
  if (detection.kind === 'sandbox-exec') {
    fix = 'sandbox-exec is built into macOS; check that /usr/bin/sandbox-exec is present and runs';
  } else if (detection.kind === 'bwrap' && detection.failure === 'refused') {
    // Installed but refused by the kernel: installing it again would not help.
    fix =
      'bwrap is installed but may not create the namespaces it needs. On Ubuntu 23.10 and later AppArmor blocks ' +
      'them unless bwrap has its own profile (see docs/trust.md); in a container, the container must allow them';
  } else if (detection.kind === 'bwrap') {
    fix = INSTALL_HINT;
  } else {
    fix = `wisp sandboxes commands with bubblewrap on Linux and sandbox-exec on macOS; ${INSTALL_HINT}`;
  }
  return `not run: the sandbox is enabled but unavailable (${detection.detail}). To fix it, ${fix}. ${TURN_OFF}`;
}

/** What to tell a person when the network should be cut but the sandbox cannot cut it. */
export function networkUnavailableMessage(detection: SandboxDetection): string {
  return (
    `not run: sandbox.allowNetwork is false, but the sandbox cannot cut the network here (${detection.detail}). ` +
    'To run commands with the network on: wisp config set sandbox.allowNetwork true'
  );
}
