// Queue pick-up latency: from the moment another process's answer file appears (link() returns) to the moment the
// waiting `QueueChannel.raise()` resolves. Two processes, as in real use; p50/p95 over N runs, with the directory
// watched (default) and with polling alone (the fallback).
//   node --import tsx bench/queue-pickup.ts [runs]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { MemoryAudit } from '../src/audit/kinds.js';
import { answerRequest, QueueChannel } from '../src/escalation/queue.js';
import { readRequest } from '../src/escalation/queue-files.js';
import { wispPaths } from '../src/paths.js';

const wallMs = (): number => performance.timeOrigin + performance.now();

if (process.argv[2] === '--answerer') {
  // Child: for each id read on stdin, answer it at once and report when the answer landed.
  const paths = wispPaths();
  for await (const id of createInterface({ input: process.stdin })) {
    const r = readRequest(paths.pending, id);
    if (!r.ok) {
      process.stdout.write(JSON.stringify({ id, error: r.reason }) + '\n');
      continue;
    }
    answerRequest(paths, r.value, { decision: 'once' }, { via: 'cli' });
    process.stdout.write(JSON.stringify({ id, at: wallMs() }) + '\n');
  }
  process.exit(0);
}

const runs = Number(process.argv[2] ?? '50');
const home = fs.mkdtempSync(join(tmpdir(), 'wisp-bench-'));
const paths = wispPaths(home);
const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--answerer'], {
  env: { ...process.env, WISP_HOME: home },
  stdio: ['pipe', 'pipe', 'inherit'],
});
const replies = new Map<string, (at: number) => void>();
createInterface({ input: child.stdout! }).on('line', (line) => {
  const msg = JSON.parse(line) as { id: string; at?: number; error?: string };
  if (msg.error) throw new Error(`answerer: ${msg.error}`);
  replies.get(msg.id)?.(msg.at!);
});

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function measure(label: string, watch: boolean): Promise<void> {
  const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600, watch, pollMs: 25 });
  const samples: number[] = [];
  for (let i = 0; i < runs + 3; i++) {
    const id = `bench${watch ? 'w' : 'p'}${i}`;
    const answered = new Promise<number>((r) => replies.set(id, r));
    const outcome = channel.raise(
      { verb: 'approval', request: { command: 'true', line: 'true', pattern: 'true', directory: home, level: 'moderate', reasons: [] } },
      { session: 'bench', timeoutMs: 10_000, escalationId: id },
    );
    child.stdin!.write(id + '\n');
    const result = await outcome;
    const resumedAt = wallMs();
    if (result.kind !== 'approved') throw new Error(`run ${i}: ${JSON.stringify(result)}`);
    const at = await answered;
    if (i >= 3) samples.push(resumedAt - at); // the first few warm up the JIT and the answerer
  }
  samples.sort((a, b) => a - b);
  const f = (n: number) => `${n.toFixed(2)} ms`;
  process.stdout.write(
    `queue pick-up, ${label}: p50 ${f(percentile(samples, 50))}  p95 ${f(percentile(samples, 95))}  max ${f(samples[samples.length - 1]!)}  (n=${samples.length})\n`,
  );
}

try {
  await measure('fs.watch + 25 ms poll', true);
  await measure('25 ms poll only', false);
} finally {
  child.stdin!.end();
  fs.rmSync(home, { recursive: true, force: true });
}
