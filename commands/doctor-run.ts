// The body of `wisp doctor`. Each check reports ok, warn (works, but you should know) or FAIL with what to do.
// Nothing here changes wisp's state: the sandbox probe writes only into a temp directory of its own, and the
// audit log is checked for writability, not written to.
import { accessSync, constants, mkdtempSync, rmSync, statSync, existsSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadConfig, type LoadedConfig } from '../src/config/load.js';
import { ConfigSchema, type Config } from '../src/config/schema.js';
import { visible } from '../src/core/visible.js';
import { wispHome, wispPaths, type WispPaths } from '../src/core/paths.js';
import { errnoCode } from '../src/util/atomic.js';
import { shellQuote } from '../src/util/shell-quote.js';

export interface DoctorFlags {
  model?: string;
  json?: boolean;
}

export type CheckStatus = 'ok' | 'warn' | 'FAIL';

export interface CheckResult {
  readonly name: string;
  readonly status: CheckStatus;
  /** What was found. */
  readonly detail: string;
  /** What to do about it (for warn and FAIL). */
  readonly fix?: string;
}

const ok = (name: string, detail: string): CheckResult => ({ name, status: 'ok', detail });
const warn = (name: string, detail: string, fix?: string): CheckResult => ({ name, status: 'warn', detail, ...(fix ? { fix } : {}) });
const fail = (name: string, detail: string, fix: string): CheckResult => ({ name, status: 'FAIL', detail, fix });

export async function runDoctor(flags: DoctorFlags): Promise<number> {
  const paths = wispPaths();
  const checks: CheckResult[] = [];
  const { result: configCheck, loaded } = checkConfig(paths);
  checks.push(configCheck);
  const config = loaded?.config ?? ConfigSchema.parse({});
  checks.push(await checkModel(flags.model ?? config.model, config, flags.model !== undefined));
  checks.push(await checkSandbox(config, paths));
  checks.push(checkPrivateDir('home', paths.home, '$WISP_HOME', true));
  checks.push(checkPrivateDir('pending', paths.pending, 'the queue directory pending/', false));
  checks.push(await checkApprovals(paths));
  checks.push(checkAuditLog(paths));

  const failed = checks.some((c) => c.status === 'FAIL');
  if (flags.json) {
    process.stdout.write(JSON.stringify({ ok: !failed, checks }, null, 2) + '\n');
  } else {
    const width = Math.max(...checks.map((c) => c.name.length));
    for (const c of checks) {
      const fix = c.fix ? ` — ${c.fix}` : '';
      process.stdout.write(`${c.status.padEnd(4)}  ${c.name.padEnd(width)}  ${c.detail}${fix}\n`);
    }
  }
  return failed ? 1 : 0;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function checkConfig(paths: WispPaths): { result: CheckResult; loaded?: LoadedConfig } {
  try {
    const loaded = loadConfig({ home: paths.home, cwd: process.cwd() });
    const user = loaded.userFile ? `user ${loaded.userFile}` : `no user config (${paths.config} absent; defaults apply)`;
    const project = loaded.projectFile ? `project ${loaded.projectFile}` : 'no project config';
    const detail = `valid: ${user}; ${project}`;
    if (loaded.warnings.length > 0) {
      return { result: warn('config', `${detail}; ${loaded.warnings.length} warning(s): ${loaded.warnings.join('; ')}`), loaded };
    }
    return { result: ok('config', detail), loaded };
  } catch (err) {
    return {
      result: fail('config', message(err), 'fix the file named (wisp config schema shows every key), or wisp config unset KEY'),
    };
  }
}

async function checkModel(spec: string, config: Config, fromFlag: boolean): Promise<CheckResult> {
  // Each backend probes itself (src/model/probe.ts); loaded only when the model is checked.
  const { probeModel } = await import('../src/model/probe.js');
  const got = await probeModel(spec, config, { home: wispHome(), cwd: process.cwd() }, fromFlag ? 'correct -m' : 'wisp config set model BACKEND:NAME');
  return got.ok ? ok('model', got.detail) : fail('model', got.detail, got.fix ?? '');
}

/**
 * Finds the sandbox and runs a real command in it: it must print, and it must NOT be able to write into
 * $WISP_HOME (which the sandbox keeps read-only). Runs in a temp directory of its own.
 */
async function checkSandbox(config: Config, paths: WispPaths): Promise<CheckResult> {
  const name = 'sandbox';
  if (!config.sandbox.enabled) {
    return warn(name, 'disabled (sandbox.enabled false): commands run with your full permissions', 'wisp config set sandbox.enabled true');
  }
  const { detectSandbox, sandboxUnavailableMessage } = await import('../src/gate/sandbox.js');
  const { runCommand } = await import('../src/exec/run.js');
  const detection = await detectSandbox({ fresh: true });
  if (!detection.works) return fail(name, detection.detail, sandboxUnavailableMessage(detection).replace(/^not run: /, ''));
  const dir = mkdtempSync(join(tmpdir(), 'wisp-doctor-'));
  const probe = join(paths.home, `.doctor-probe-${process.pid}`);
  try {
    const line = `printf wisp-sandbox-ok; if (: > ${shellQuote(probe)}) 2>/dev/null; then printf ' home-writable'; fi`;
    const result = await runCommand(line, {
      cwd: dir,
      launchDir: dir,
      wispHome: paths.home,
      sandbox: { enabled: true, allowNetwork: config.sandbox.allowNetwork, writablePaths: config.sandbox.writablePaths },
      timeoutMs: 15_000,
      maxOutputBytes: 4096,
      detect: async () => detection,
    });
    if (result.sandboxRefusal) return fail(name, result.sandboxRefusal, 'install or repair the sandbox, see docs/trust.md');
    if (result.exitStatus !== 0 || !result.stdout.startsWith('wisp-sandbox-ok')) {
      const why = result.error ?? (result.timedOut ? 'timed out' : `exit ${result.exitStatus ?? result.signal}: ${visible(result.stderr.trim(), { maxChars: 200 })}`);
      return fail(name, `${detection.kind} found but a trial command failed (${why})`, 'see docs/trust.md for what the sandbox needs');
    }
    if (result.stdout.includes('home-writable') || existsSync(probe)) {
      return fail(name, `${detection.kind}: a sandboxed command could write into ${paths.home}`, 'report this: the sandbox must keep $WISP_HOME read-only');
    }
    return ok(name, `${detection.detail}; a trial command ran and could not write to $WISP_HOME${config.sandbox.allowNetwork ? '' : '; network off'}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(probe, { force: true });
  }
}

/** A private directory: owned by this user, no access for group or others. Missing is fine (created 0700 on use). */
function checkPrivateDir(name: string, dir: string, what: string, mustBeWritable: boolean): CheckResult {
  let st: Stats;
  try {
    st = statSync(dir);
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return ok(name, `${dir} does not exist yet (created 0700 on first use)`);
    return fail(name, `${dir}: ${message(err)}`, `check ${what}`);
  }
  if (!st.isDirectory()) return fail(name, `${dir} is not a directory`, `move it aside; wisp creates ${what} itself`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    return fail(name, `${dir} belongs to uid ${st.uid}, not you (uid ${uid})`, `chown ${uid} ${shellQuote(dir)}`);
  }
  const mode = st.mode & 0o777;
  if ((mode & 0o077) !== 0) {
    return fail(
      name,
      `${dir} is ${mode.toString(8).padStart(4, '0')}: others can read${name === 'pending' ? ' or plant requests and answers' : ' your approvals and logs'}`,
      `chmod 700 ${shellQuote(dir)}`,
    );
  }
  if (mustBeWritable) {
    try {
      accessSync(dir, constants.W_OK);
    } catch {
      return fail(name, `${dir} is not writable`, `chmod u+w ${shellQuote(dir)}`);
    }
  }
  return ok(name, `${dir} is private (${mode.toString(8).padStart(4, '0')}, yours)`);
}

async function checkApprovals(paths: WispPaths): Promise<CheckResult> {
  const { ApprovalStore } = await import('../src/gate/store.js');
  try {
    const n = new ApprovalStore(paths.approvals).list().length;
    return ok('approvals', existsSync(paths.approvals) ? `${paths.approvals} readable, ${n} live` : 'no stored approvals yet');
  } catch (err) {
    return fail('approvals', message(err).replace(/; move it aside.*$/, ''), 'move it aside, or wisp approvals clear (keeps a copy)');
  }
}

/** The audit log can be appended to (or created): checked with access(2), nothing written. */
function checkAuditLog(paths: WispPaths): CheckResult {
  const name = 'audit log';
  const file = paths.audit;
  try {
    const st = statSync(file);
    if (!st.isFile()) return fail(name, `${file} is not a regular file`, 'move it aside');
    accessSync(file, constants.W_OK);
    const mode = st.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      return warn(name, `${file} is writable but ${mode.toString(8).padStart(4, '0')} (it holds commands and output)`, `chmod 600 ${shellQuote(file)}`);
    }
    return ok(name, `${file} is writable`);
  } catch (err) {
    if (errnoCode(err) !== 'ENOENT') return fail(name, `${file}: ${message(err)}`, 'make it writable for you (chmod u+w), or move it aside');
  }
  // Not there yet: the nearest existing ancestor must let us create it.
  let dir = dirname(file);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return ok(name, `${file} will be created on first use (${dir} is writable)`);
  } catch {
    return fail(name, `${file} cannot be created: ${dir} is not writable`, `chmod u+w ${shellQuote(dir)}`);
  }
}
