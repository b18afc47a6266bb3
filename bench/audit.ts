// Benchmark 5 — the audit log: events per second through the synchronous writer (src/audit/writer.ts, as built),
// with its default options, and with fsync after every line (the old default, for reference). Baseline: the same
// JSON lines written with a bare writeSync to an O_APPEND file — the floor of one write(2) per event. The three are
// run in turn, each for a fixed time, several rounds; figures are medians over rounds.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as WriterModule from '../src/audit/writer.js';
import { type BenchContext, importDist, median, type Row } from './lib.js';

/** A command.outcome-sized event, as the gate writes after each command. */
const DETAILS = {
  command: 'npm test -- --run test/gate',
  workingDirectory: '/home/dev/project',
  exitStatus: 0,
  timedOut: false,
  truncated: false,
  stdout: ' ✓ test/gate/parse.test.ts (120 tests) 840ms\n ✓ test/gate/policy.test.ts (58 tests) 1098ms\n',
  stderr: '',
  seconds: 3.2,
  sandbox: 'bwrap',
};
const CTX = { session: 's-bench-0001', thread: 'bench', turn: 1 };

export async function auditBench(ctx: BenchContext): Promise<Row[]> {
  const { openAudit } = await importDist<typeof WriterModule>('src/audit/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'wisp-bench-audit-'));
  const sliceMs = ctx.quick ? 150 : 400;
  const rounds = ctx.quick ? 2 : 5;

  /** Events written in `sliceMs` (at least `min`), as a rate. */
  const rate = (write: () => void, min: number): number => {
    const start = performance.now();
    let n = 0;
    let elapsed = 0;
    while (elapsed < sliceMs || n < min) {
      for (let k = 0; k < 10; k++) write();
      n += 10;
      elapsed = performance.now() - start;
    }
    return (n * 1000) / elapsed;
  };

  const rates = { floor: [] as number[], default: [] as number[], fsync: [] as number[] };
  try {
    for (let r = 0; r < rounds; r++) {
      const file = join(dir, `raw-${r}.jsonl`);
      const fd = openSync(file, 'a', 0o600);
      let seq = 0;
      rates.floor.push(
        rate(() => {
          const line = JSON.stringify({ schema: 1, id: `e${seq++}`, time: new Date().toISOString(), ...CTX, kind: 'command.outcome', details: DETAILS }) + '\n';
          writeSync(fd, line);
        }, 100),
      );
      closeSync(fd);

      const writer = openAudit({ file: join(dir, `default-${r}`, 'audit.jsonl'), maxFileBytes: 10485760, keepFiles: 5 });
      rates.default.push(rate(() => void writer.write('command.outcome', DETAILS, CTX), 100));
      writer.close();

      const synced = openAudit({ file: join(dir, `fsync-${r}`, 'audit.jsonl'), maxFileBytes: 10485760, keepFiles: 5, fsync: true });
      rates.fsync.push(rate(() => void synced.write('command.outcome', DETAILS, CTX), 20));
      synced.close();
      rmSync(join(dir, `raw-${r}.jsonl`));
      rmSync(join(dir, `default-${r}`), { recursive: true });
      rmSync(join(dir, `fsync-${r}`), { recursive: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const floor = median(rates.floor);
  const row = (metric: string, xs: number[], budgeted: boolean): Row => ({
    bench: 'audit',
    metric,
    unit: '/s',
    median: median(xs),
    n: xs.length,
    baseline: { label: 'bare writeSync', median: floor },
    ratio: median(xs) / floor,
    ...(budgeted ? { budget: '≥ 20,000/s', ok: median(xs) >= 20_000 } : {}),
  });
  return [row('events per second, default writer', rates.default, true), row('events per second, fsync after each line', rates.fsync, false)];
}
