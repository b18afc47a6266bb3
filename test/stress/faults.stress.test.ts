// Issue #8 §3, the long runs: many SIGKILL trials per file wisp writes, 2 GB of command output with a memory bound,
// commands that never exit or leave grandchildren (repeated), and a `wisp mcp` client that disconnects while a
// dialog is open (real processes over stdio). The fast versions are in test/hardening/faults.test.ts.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTorn, readEvents } from '../../src/audit/reader.js';
import { BIN, freshHome } from '../helpers/cli.js';
import { killTrials, type ChurnKind } from '../hardening/kill.js';
import { waitFor } from '../mcp/helpers.js';

const TRIALS = Number(process.env.WISP_KILL_TRIALS ?? '25');
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'wisp-stress-faults-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe(`a process SIGKILLed while writing (${TRIALS} trials each)`, () => {
  it.each(['audit', 'store', 'queue', 'config'] as ChurnKind[])('%s', async (kind) => {
    const reports = await killTrials(kind, root, TRIALS);
    const torn = reports.reduce((n, r) => n + (r.torn ?? 0), 0);
    const leftovers = reports.reduce((n, r) => n + r.leftovers, 0);
    const cut = kind === 'audit' ? `, ${torn} cut final line(s)` : '';
    console.log(`${kind}: ${TRIALS} kills, ${reports.reduce((n, r) => n + r.records, 0)} records checked${cut}, ${leftovers} temp file(s) left`);
    expect(reports.filter((r) => r.records > 0).length).toBeGreaterThan(TRIALS / 2);
  }, 1_800_000);
});

function processesWith(tag: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(tag)) pids.push(Number(entry));
    } catch {
      // gone
    }
  }
  return pids;
}

/** Runs `wisp respond` and samples its peak resident memory (VmHWM) until it exits. */
async function respondMeasured(args: string[], cwd: string, home: string): Promise<{ status: number | null; stdout: string; stderr: string; peakKiB: number; seconds: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, WISP_HOME: home, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let peakKiB = 0;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const sample = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peakKiB = Math.max(peakKiB, Number(m[1]));
    } catch {
      // exited
    }
  }, 50);
  const status = await new Promise<number | null>((r) => child.on('close', r));
  clearInterval(sample);
  return { status, stdout, stderr, peakKiB, seconds: (Date.now() - started) / 1000 };
}

describe('commands that misbehave, through the CLI', () => {
  it('2 GB of output (head -c 2000000000 /dev/zero): bounded time and memory, the tail kept', async () => {
    const { dir, home } = freshHome();
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ commands: { timeoutSeconds: 600 } }));
    const script = join(dir, 's.json');
    writeFileSync(script, JSON.stringify({ responses: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'head -c 2000000000 /dev/zero' } }] }, { text: 'done' }] }));
    const r = await respondMeasured(['respond', '-m', `script:${script}`, 'flood'], work, home);
    console.log(`2 GB of output: ${r.seconds.toFixed(1)} s, peak RSS ${(r.peakKiB / 1024).toFixed(0)} MiB`);
    expect(r.status, r.stderr).toBe(0);
    expect(r.peakKiB).toBeGreaterThan(0);
    expect(r.peakKiB / 1024, 'peak RSS in MiB').toBeLessThan(400);
    const outcome = readEvents(join(home, 'logs', 'audit.jsonl')).find((e) => !isTorn(e) && e.kind === 'command.outcome');
    expect(outcome && !isTorn(outcome) ? outcome.details : {}).toMatchObject({ exitStatus: 0, truncated: true });
    rmSync(dir, { recursive: true, force: true });
  }, 900_000);

  it('never-ending commands and grandchildren, 5 times: each run ends within its timeout and leaves no process', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const tag = `2000.${process.pid}${trial}${Date.now() % 10000}`;
      const { dir, home } = freshHome();
      const work = join(dir, 'work');
      mkdirSync(work);
      writeFileSync(join(home, 'config.json'), JSON.stringify({ commands: { timeoutSeconds: 2 } }));
      const script = join(dir, 's.json');
      const lines = [
        `sleep ${tag}`,
        `(sleep ${tag} &) ; sleep ${tag}`,
        `setsid sh -c 'sleep ${tag} & sleep ${tag}' & wait`,
        `trap '' TERM; sleep ${tag}`,
        `yes | head -c 100000000; sleep ${tag}`,
      ];
      writeFileSync(script, JSON.stringify({ responses: [...lines.map((command) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] })), { text: 'done' }] }));
      const r = await respondMeasured(['respond', '-y', '-m', `script:${script}`, 'hang'], work, home);
      expect(r.status, r.stderr).toBe(0);
      expect(r.seconds).toBeLessThan(lines.length * 2 + 60);
      await waitFor(() => processesWith(tag).length === 0, 15_000);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});

describe('an MCP client that disconnects while a dialog is open (wisp mcp over stdio)', () => {
  it('abandons the escalation, audited, runs nothing and leaves no pending file (5 trials)', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const { dir, home } = freshHome();
      const work = join(dir, 'work');
      mkdirSync(work);
      const script = join(dir, 's.json');
      writeFileSync(script, JSON.stringify({ responses: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch marker' } }] }, { text: 'done' }] }));
      const client = new Client({ name: 'leaver', version: '1' }, { capabilities: { elicitation: { form: {} } } });
      let asked = false;
      client.setRequestHandler(ElicitRequestSchema, () => {
        asked = true;
        return new Promise(() => undefined); // the person never answers; the client goes away instead
      });
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '-m', `script:${script}`],
        cwd: work,
        env: { ...(process.env as Record<string, string>), WISP_HOME: home },
        stderr: 'pipe',
      });
      await client.connect(transport);
      const pid = transport.pid!;
      const call = client.callTool({ name: 'respond', arguments: { prompt: 'go', thread_id: 'leaving' } }, undefined, { timeout: 60_000 }).catch(() => 'gone');
      await waitFor(() => asked && existsSync(join(home, 'pending')) && readdirSync(join(home, 'pending')).some((n) => n.endsWith('.request.json')), 30_000);
      await client.close(); // closes wisp's stdin: the client is gone
      expect(await call).toBe('gone');
      await waitFor(() => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      }, 30_000);
      const events = readEvents(join(home, 'logs', 'audit.jsonl')).flatMap((e) => (isTorn(e) ? [] : [e]));
      const settled = events.filter((e) => e.kind === 'escalation.settled');
      expect(settled.map((e) => e.details?.outcome)).toContain('abandoned');
      expect(events.filter((e) => e.kind === 'approval.decided').map((e) => e.details?.decision)).toEqual(['denied']);
      expect(events.some((e) => e.kind === 'command.outcome')).toBe(false);
      expect(existsSync(join(work, 'marker'))).toBe(false);
      expect(readdirSync(join(home, 'pending'))).toEqual([]);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});

const canMount = spawnSync('unshare', ['-m', 'sh', '-c', 'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d" && rmdir "$d"']).status === 0;

describe.skipIf(!canMount)('$WISP_HOME on its own tmpfs (control for the full and read-only cases in test/hardening)', () => {
  it('a roomy tmpfs lets the same run through, so the refusals there come from the full or read-only home', () => {
    const { dir, home } = freshHome();
    const work = join(dir, 'work');
    mkdirSync(work);
    const script = join(dir, 's.json');
    writeFileSync(script, JSON.stringify({ responses: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch marker' } }] }, { text: 'done' }] }));
    const wisp = [process.execPath, BIN, 'respond', '-y', '-m', `script:${script}`, 'go'].map((a) => `'${a}'`).join(' ');
    const r = spawnSync('unshare', ['-m', 'sh', '-c', `mount -t tmpfs -o size=16m,mode=0700 tmpfs '${home}' && exec ${wisp}`], {
      cwd: work,
      env: { ...process.env, WISP_HOME: home, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(work, 'marker'))).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });
});
