// Benchmark 3 — queue pick-up: from the moment another process's answer file appears (its link() returned) to the
// moment the waiting `QueueChannel.raise()` resumes with the answer. Two processes, as in real use (the answerer is
// bench/queue-answerer.ts). Baseline, alternating with each answer: how long a plain new file in the same directory
// takes to reach an fs.watch listener at all. Measured with the directory watched (the default) and with polling
// alone (the fallback when fs.watch is unavailable).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type * as KindsModule from '../src/audit/kinds.js';
import type * as QueueModule from '../src/escalation/queue/asker.js';
import type * as QueueFilesModule from '../src/escalation/queue/files.js';
import type * as PathsModule from '../src/core/paths.js';
import { type BenchContext, importDist, median, pct, ROOT, type Row, sorted, wallMs } from './lib.js';

export async function queueBench(ctx: BenchContext): Promise<Row[]> {
  const { MemoryAudit } = await importDist<typeof KindsModule>('src/audit/kinds.js');
  const { QueueChannel } = await importDist<typeof QueueModule>('src/escalation/queue/asker.js');
  const { pendingDir } = await importDist<typeof QueueFilesModule>('src/escalation/queue/files.js');
  const { wispPaths } = await importDist<typeof PathsModule>('src/core/paths.js');

  const home = fs.mkdtempSync(join(tmpdir(), 'wisp-bench-queue-'));
  const paths = wispPaths(home);
  pendingDir(paths, { create: true });
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'queue-answerer.ts')], {
    cwd: ROOT,
    env: { ...process.env, WISP_HOME: home },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const replies = new Map<string, (at: number) => void>();
  let ready: () => void = () => {};
  const isReady = new Promise<void>((r) => (ready = r));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') return ready();
    const msg = JSON.parse(line) as { id: string; at?: number; error?: string };
    if (msg.error) throw new Error(`answerer: ${msg.error}`);
    replies.get(msg.id)?.(msg.at!);
  });
  const ask = (verb: 'answer' | 'ping', id: string): Promise<number> => {
    const landed = new Promise<number>((r) => replies.set(id, r));
    child.stdin!.write(`${verb} ${id}\n`);
    return landed;
  };

  /** Baseline: a plain file created by the other process, seen by an fs.watch listener here. */
  const ping = async (id: string): Promise<number> => {
    let seen: (at: number) => void = () => {};
    const noticed = new Promise<number>((r) => (seen = r));
    const watcher = fs.watch(paths.pending, { persistent: false }, (_e, name) => {
      if (String(name) === id) seen(wallMs());
    });
    try {
      const at = await ask('ping', id);
      const noticedAt = await Promise.race([noticed, new Promise<number>((r) => setTimeout(() => r(Number.NaN), 2000))]);
      return noticedAt - at;
    } finally {
      watcher.close();
      fs.rmSync(join(paths.pending, id), { force: true });
    }
  };

  const runs = ctx.quick ? 8 : 40;
  const measure = async (label: string, watch: boolean) => {
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600, watch, pollMs: 25 });
    const pickup: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const id = `bench${watch ? 'w' : 'p'}${i}`;
      const outcome = channel.raise(
        { verb: 'approval', request: { command: 'true', line: 'true', pattern: 'true', directory: home, level: 'moderate', reasons: [] } },
        { session: 'bench', timeoutMs: 10_000, escalationId: id },
      );
      const at = await ask('answer', id);
      const result = await outcome;
      const resumedAt = wallMs();
      if (result.kind !== 'approved') throw new Error(`run ${i}: ${JSON.stringify(result)}`);
      const base = await ping(`ping-${id}`);
      if (i >= 3) {
        // The first few warm up the JIT and the answerer.
        pickup.push(resumedAt - at);
        floor.push(base);
      }
    }
    return { label, pickup: sorted(pickup), floor: sorted(floor.filter((x) => !Number.isNaN(x))) };
  };

  try {
    await isReady;
    const watched = await measure('fs.watch + 25 ms poll (default)', true);
    const polled = await measure('25 ms poll only (fallback)', false);
    return [watched, polled].map((m, k) => ({
      bench: 'queue',
      metric: `pick-up, ${m.label}`,
      unit: 'ms',
      median: median(m.pickup),
      p95: pct(m.pickup, 95),
      n: m.pickup.length,
      baseline: { label: 'fs.watch floor', median: median(m.floor) },
      ratio: median(m.pickup) / median(m.floor),
      budget: 'p50 ≤ 5 ms',
      ok: k === 0 ? median(m.pickup) <= 5 : undefined,
    }) satisfies Row);
  } finally {
    child.stdin!.end();
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(home, { recursive: true, force: true });
  }
}
