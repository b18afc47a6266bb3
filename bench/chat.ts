// Benchmark 6 — chat rendering: the chat App (dist/ui, as `wisp chat` renders it) with 1,000 transcript items, in
// a child process per run (bench/chat-child.mjs): time from a keystroke to the frame that shows it, and resident
// memory. Baseline: the same App with an empty transcript, in runs alternating with the measured ones.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { type BenchContext, median, pct, ROOT, type Row, sorted } from './lib.js';

interface ChildResult {
  readonly items: number;
  readonly mode: string;
  readonly latencies: number[];
  readonly loadMs: number;
  readonly rssMiB: number;
  readonly heapUsedMiB: number;
}

function runChild(items: number, keys: number, mode: 'feed' | 'initial'): ChildResult {
  const r = spawnSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'chat-child.mjs'), String(items), String(keys), mode], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  // Ink shows the cursor again on exit (an escape sequence after the JSON line).
  const line = r.stdout
    .split('\n')
    .map((l) => l.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').trim())
    .find((l) => l.startsWith('{'));
  if (r.status !== 0 || !line) throw new Error(`chat child (${items} items) failed: ${r.status} ${r.stderr.slice(0, 400)}`);
  return JSON.parse(line) as ChildResult;
}

export async function chatBench(ctx: BenchContext): Promise<Row[]> {
  const rounds = ctx.quick ? 1 : 3;
  const keys = ctx.quick ? 10 : 30;
  const full: ChildResult[] = [];
  const empty: ChildResult[] = [];
  for (let r = 0; r < rounds; r++) {
    empty.push(runChild(0, keys, 'feed'));
    full.push(runChild(1000, keys, 'feed'));
  }
  const atOnce = runChild(1000, 5, 'initial');
  const lat = (rs: ChildResult[]) => sorted(rs.flatMap((r) => r.latencies.slice(1)).filter((x) => !Number.isNaN(x)));
  const missing = full.concat(empty).flatMap((r) => r.latencies).filter((x) => Number.isNaN(x)).length;
  const l = lat(full);
  const l0 = lat(empty);
  const rss = median(full.map((r) => r.rssMiB));
  const rss0 = median(empty.map((r) => r.rssMiB));
  ctx.log(`chat: ${l.length} keystrokes timed${missing ? `, ${missing} never shown within 1 s` : ''}`);
  return [
    {
      bench: 'chat',
      metric: 'keystroke → frame, 1,000 items',
      unit: 'ms',
      median: median(l),
      p95: pct(l, 95),
      n: l.length,
      baseline: { label: 'empty transcript', median: median(l0), p95: pct(l0, 95) },
      ratio: median(l) / median(l0),
      budget: '≤ 16 ms',
      ok: missing === 0 && median(l) <= 16,
      ...(missing ? { note: `${missing} keystrokes never showed within 1 s` } : {}),
    },
    {
      bench: 'chat',
      metric: 'resident memory, 1,000 items',
      unit: 'MiB',
      median: rss,
      n: full.length,
      baseline: { label: 'empty transcript', median: rss0 },
      ratio: rss / rss0,
      budget: '≤ 150 MiB',
      ok: rss <= 150,
      note: `items arriving a few at a time, as in a session; all 1,000 laid out in one frame (initial transcript): ${atOnce.rssMiB.toFixed(0)} MiB`,
    },
  ];
}
