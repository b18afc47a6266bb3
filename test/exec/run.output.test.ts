// Output caps, binary output, the result text, and the paths where the sandbox is off or cannot be had.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSandbox, type SandboxDetection } from '../../src/gate/sandbox.js';
import { formatRunResult, runCommand, type RunOptions, type RunResult } from '../../src/exec/run.js';
import { dirOutsideTmp, removeAll, runOptions } from './helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));

function dirs(): { launchDir: string; wispHome: string; outside: string } {
  const base = dirOutsideTmp('output');
  made.push(base);
  const d = { launchDir: join(base, 'project'), wispHome: join(base, '.wisp'), outside: join(base, 'elsewhere') };
  mkdirSync(d.launchDir);
  mkdirSync(d.outside);
  return d;
}

describe('output caps', () => {
  it('keeps only the tail of 5 MB on each stream and says so', async () => {
    const d = dirs();
    const line =
      // 454546 lines of 11 bytes: just over 5 MB on each stream.
      'yes 0123456789 | head -n 454546; echo OUT-END; (yes abcdefghij | head -n 454546; echo ERR-END) >&2';
    const r = await runCommand(line, runOptions(d.launchDir, d.wispHome, { maxOutputBytes: 4096 }));
    expect(r.exitStatus).toBe(0);
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(r.stdout)).toBeGreaterThan(4000);
    expect(r.stdout.endsWith('0123456789\nOUT-END\n')).toBe(true);
    expect(r.stderr.endsWith('abcdefghij\nERR-END\n')).toBe(true);
  });

  it('does not grow memory with the output: 300 MB through a 4 KiB cap', async () => {
    const d = dirs();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const r = await runCommand('head -c 300000000 /dev/zero; echo', runOptions(d.launchDir, d.wispHome));
    clearInterval(sampler);
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBeLessThanOrEqual(4096);
    // Keeping it all would cost 300 MB; a tail buffer costs a few pipe chunks.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
  });

  it('leaves short output whole and not truncated', async () => {
    const d = dirs();
    const r = await runCommand('printf "a\\nb\\n"', runOptions(d.launchDir, d.wispHome));
    expect(r).toMatchObject({ stdout: 'a\nb\n', stderr: '', truncated: false });
  });
});

describe('binary output', () => {
  it('comes back as well-formed text without crashing', async () => {
    const d = dirs();
    const opts = runOptions(d.launchDir, d.wispHome, { maxOutputBytes: 8192 });
    const r = await runCommand('head -c 65536 /dev/urandom', opts);
    expect(r.exitStatus).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(r.stdout.isWellFormed()).toBe(true);
    expect(r.stdout).not.toContain('\0');
  });

  it('shows NUL and invalid bytes as replacement characters', async () => {
    const d = dirs();
    const r = await runCommand("printf 'a\\000b\\377c'", runOptions(d.launchDir, d.wispHome));
    expect(r.stdout).toBe('a\uFFFDb\uFFFDc');
  });
});

describe('with the sandbox disabled', () => {
  it('runs the line plainly, so it can write outside the roots', async () => {
    const d = dirs();
    const r = await runCommand(`echo plain > '${d.outside}/w.txt'; echo $0`, {
      ...runOptions(d.launchDir, d.wispHome),
      sandbox: { enabled: false, allowNetwork: true, writablePaths: [] },
    });
    expect(r).toMatchObject({ exitStatus: 0, sandboxed: 'none' });
    expect(r.stdout).toMatch(/bash|sh/);
    expect(readFileSync(join(d.outside, 'w.txt'), 'utf8')).toBe('plain\n');
  });
});

describe('with the sandbox enabled but unavailable', () => {
  const attempt = async (detect: RunOptions['detect'], allowNetwork = true) => {
    const d = dirs();
    const r = await runCommand('touch marker', {
      ...runOptions(d.launchDir, d.wispHome),
      sandbox: { enabled: true, allowNetwork, writablePaths: [] },
      detect,
    });
    return { r, ran: existsSync(join(d.launchDir, 'marker')) };
  };

  it('refuses to run when bwrap is missing, and says how to install it or turn the sandbox off', async () => {
    const { r, ran } = await attempt(() => detectSandbox({ bwrapPath: '/nonexistent/bwrap', fresh: true }));
    expect(ran).toBe(false);
    expect(r).toMatchObject({ exitStatus: null, sandboxed: 'none', stdout: '', stderr: '' });
    expect(r.sandboxRefusal).toContain('apt-get install bubblewrap');
    expect(r.sandboxRefusal).toContain('dnf install bubblewrap');
    expect(r.sandboxRefusal).toContain('wisp config set sandbox.enabled false');
    expect(formatRunResult(r)).toBe(r.sandboxRefusal);
  });

  it('refuses to run when bwrap is there but fails, and points at the likely cause', async () => {
    const { r, ran } = await attempt(() => detectSandbox({ bwrapPath: '/bin/false', fresh: true }));
    expect(ran).toBe(false);
    expect(r.sandboxRefusal).toMatch(/failed its trial run/);
    expect(r.sandboxRefusal).toMatch(/AppArmor/);
    expect(r.sandboxRefusal).toContain('wisp config set sandbox.enabled false');
  });

  it('refuses a network-off run when the sandbox cannot cut the network, but runs network-on ones', async () => {
    const real = await detectSandbox();
    const noNet = async (): Promise<SandboxDetection> => ({ ...real, isolatesNetwork: false });
    const off = await attempt(noNet, false);
    expect(off.ran).toBe(false);
    expect(off.r.sandboxRefusal).toContain('wisp config set sandbox.allowNetwork true');
    const on = await attempt(noNet, true);
    expect(on.ran).toBe(true);
    expect(on.r.sandboxed).toBe('bwrap');
  });
});

describe('a working directory that does not exist', () => {
  it('is reported, and nothing runs', async () => {
    const d = dirs();
    const opts = runOptions(d.launchDir, d.wispHome, { cwd: join(d.launchDir, 'nope') });
    const r = await runCommand('touch marker', opts);
    expect(r.error).toMatch(/working directory does not exist/);
    expect(existsSync(join(d.launchDir, 'marker'))).toBe(false);
  });
});

describe('exit status', () => {
  it('passes through the sandbox', async () => {
    const d = dirs();
    expect((await runCommand('exit 7', runOptions(d.launchDir, d.wispHome))).exitStatus).toBe(7);
  });
});

describe('formatRunResult', () => {
  const base: RunResult = {
    exitStatus: 0,
    timedOut: false,
    truncated: false,
    stdout: '',
    stderr: '',
    seconds: 0.1,
    sandboxed: 'bwrap',
  };

  it('shows the status and omits empty streams', () => {
    expect(formatRunResult({ ...base, stdout: 'hi\n' })).toBe('exit status: 0\nstdout:\nhi');
    expect(formatRunResult(base)).toBe('exit status: 0');
  });

  it('shows both streams under labels', () => {
    expect(formatRunResult({ ...base, exitStatus: 2, stdout: 'o', stderr: 'e\n' })).toBe(
      'exit status: 2\nstdout:\no\nstderr:\ne',
    );
  });

  it('shows a timeout, the signal as a negative status, and truncation', () => {
    const text = formatRunResult({
      ...base,
      exitStatus: null,
      signal: 'SIGTERM',
      timedOut: true,
      truncated: true,
      stdout: 'tail',
    });
    expect(text).toBe(
      [
        'exit status: -15 (killed by signal SIGTERM)',
        'timed out: the command was killed',
        'output truncated: only the tail of each stream is shown',
        'stdout:\ntail',
      ].join('\n'),
    );
  });

  it('says when the caller cancelled', () => {
    expect(formatRunResult({ ...base, exitStatus: null, signal: 'SIGTERM', aborted: true })).toContain(
      'cancelled: the command was killed',
    );
    expect(formatRunResult({ ...base, exitStatus: null, aborted: true })).toBe('not run: the call was cancelled');
  });
});
