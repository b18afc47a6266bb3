// Runs the built CLI (dist/bin/wisp.cjs, the package's bin) as a real process, with its own WISP_HOME.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'dist/bin/wisp.cjs');

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function freshHome(): { dir: string; home: string } {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-cli-'));
  const home = join(dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  return { dir, home };
}

function childEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, WISP_HOME: home, NO_COLOR: '1', ...extra };
  delete env.CI;
  return env;
}

export function wisp(args: readonly string[], opts: { cwd: string; home: string; input?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: childEnv(opts.home, opts.env),
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts the CLI in the background; `done` resolves when it exits. */
export function wispAsync(args: readonly string[], opts: { cwd: string; home: string; env?: NodeJS.ProcessEnv }) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, env: childEnv(opts.home, opts.env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CliResult>((res) => child.on('close', (status) => res({ status, stdout, stderr })));
  return { child, done };
}

/** Runs the CLI with a pseudo-terminal on stdin/stdout (util-linux `script`), as a person at a terminal would. */
export function wispInPty(args: readonly string[], opts: { cwd: string; home: string }): CliResult {
  const quoted = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', quoted, '/dev/null'], { cwd: opts.cwd, env: childEnv(opts.home), encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface LoggedEvent {
  readonly kind: string;
  readonly session: string;
  readonly thread?: string;
  readonly details: Record<string, unknown>;
}

/** The audit log under `home`, parsed (empty when there is none yet). */
export function auditLog(home: string): LoggedEvent[] {
  const file = join(home, 'logs', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoggedEvent);
}
