// Benchmark 2 — cold start of whole processes: `wisp --version`, `wisp tools --json` and `wisp check -- "ls"`, each
// against `node -e 0` (the floor), run in turn round after round so that load on the machine falls on all alike.
//
// The ratio is the median over rounds of (this run ÷ the floor's run in the same round).
// Each run goes through bash so that its CPU time (the children line of `times`) can be read besides the wall time;
// the wall time is taken inside bash around the process (EPOCHREALTIME), so bash's own start-up is not counted.
// Without bash 5, only the wall time around spawnSync is reported. A fresh WISP_HOME and working directory are used
// (no config files: the common case).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, type BenchContext, median, pct, type Row, sorted } from './lib.js';

interface Target {
  readonly label: string;
  readonly argv: readonly string[];
  /** Budget: at most this many times the floor (median wall time). */
  readonly maxRatio?: number;
}

// Budgets of issue #16 (ADRs 0040, 0041).
const TARGETS: readonly Target[] = [
  { label: 'node -e 0', argv: ['-e', '0'] },
  { label: 'wisp --version', argv: [BIN, '--version'], maxRatio: 1.2 },
  { label: 'wisp tools --json', argv: [BIN, 'tools', '--json'], maxRatio: 1.3 },
  { label: 'wisp check -- "ls"', argv: [BIN, 'check', '--', 'ls'], maxRatio: 1.4 },
  // A pipeline once made V8 optimise the parser's wasm before exit (+1 s, ADR 0012); it needs the parser.
  { label: 'wisp check -- "git log | head"', argv: [BIN, 'check', '--', 'git log --oneline | head -5'], maxRatio: 1.6 },
];

/** Peak resident memory of `wisp check -- ls`, at most this many times `node -e 0`'s (issue #16). */
const MAX_RSS_RATIO = 1.3;

// $1… are the process; prints "<t0> <t1> <status>" then the `times` lines.
const SCRIPT = 't0=$EPOCHREALTIME; "$@" >/dev/null 2>&1; s=$?; t1=$EPOCHREALTIME; echo "$t0 $t1 $s"; times';

interface Sample {
  readonly wallMs: number;
  readonly cpuMs?: number;
  readonly status: number | null;
}

function hasBash5(): boolean {
  const r = spawnSync('bash', ['-c', 'echo ${EPOCHREALTIME:-none}'], { encoding: 'utf8' });
  return r.status === 0 && /^\d+[.,]\d+$/.test(r.stdout.trim());
}

function seconds(text: string): number {
  // `times` prints `0m0.123s`; EPOCHREALTIME may use the locale's decimal comma.
  const m = /^(\d+)m([\d.,]+)s$/.exec(text);
  if (m) return Number(m[1]) * 60 + Number(m[2]!.replace(',', '.'));
  return Number(text.replace(',', '.'));
}

function runOnce(t: Target, env: NodeJS.ProcessEnv, cwd: string, bash: boolean): Sample {
  if (!bash) {
    const start = performance.now();
    const r = spawnSync(process.execPath, t.argv, { env, cwd, stdio: 'ignore' });
    return { wallMs: performance.now() - start, status: r.status };
  }
  const r = spawnSync('bash', ['-c', SCRIPT, 'bench', process.execPath, ...t.argv], { env: { ...env, LC_ALL: 'C' }, cwd, encoding: 'utf8' });
  const lines = r.stdout.trim().split('\n');
  const [t0, t1, status] = (lines[0] ?? '').split(' ');
  // `times`: the shell's own user/sys, then its children's.
  const [cu, cs] = (lines[2] ?? '').trim().split(/\s+/);
  return {
    wallMs: (seconds(t1!) - seconds(t0!)) * 1000,
    cpuMs: (seconds(cu!) + seconds(cs!)) * 1000,
    status: Number(status),
  };
}

export async function startupBench(ctx: BenchContext): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'wisp-bench-start-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(work);
  const env: NodeJS.ProcessEnv = { ...process.env, WISP_HOME: home, NODE_OPTIONS: '' };
  const bash = hasBash5();
  const rounds = ctx.quick ? 4 : 15;
  const samples = new Map<string, Sample[]>(TARGETS.map((t) => [t.label, []]));
  const rss = new Map<string, number[]>(TARGETS.map((t) => [t.label, []]));
  try {
    // One unmeasured round warms the page cache.
    for (const t of TARGETS) runOnce(t, env, work, bash);
    for (let r = 0; r < rounds; r++) {
      // Rotate the order each round so no target always follows the same one.
      for (let k = 0; k < TARGETS.length; k++) {
        const t = TARGETS[(k + r) % TARGETS.length]!;
        const s = runOnce(t, env, work, bash);
        if (s.status !== 0) throw new Error(`${t.label} exited with ${s.status}`);
        samples.get(t.label)!.push(s);
      }
    }
    // Peak resident memory, from GNU time (when there is one), paired per round like the times.
    if (existsSync(GNU_TIME)) {
      for (let r = 0; r < (ctx.quick ? 3 : 7); r++) {
        for (const t of [TARGETS[0]!, TARGETS[3]!]) rss.get(t.label)!.push(peakRssKiB(t, env, work));
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }

  // Each round's figure is paired with the floor of the same round (ratio of the two), and the medians of those
  // ratios are what the budgets are checked against: load that drifts during the run cancels out.
  const floor = samples.get(TARGETS[0]!.label)!;
  const floorWall = median(floor.map((s) => s.wallMs));
  const rows: Row[] = [];
  for (const t of TARGETS) {
    const ss = samples.get(t.label)!;
    const wall = sorted(ss.map((s) => s.wallMs));
    const ratio = median(ss.map((s, r) => s.wallMs / floor[r]!.wallMs));
    const cpuRatio = bash ? median(ss.map((s, r) => s.cpuMs! / floor[r]!.cpuMs!)) : undefined;
    const cpu = bash ? median(ss.map((s) => s.cpuMs!)) : undefined;
    rows.push({
      bench: 'startup',
      metric: `${t.label} (wall)`,
      unit: 'ms',
      median: median(wall),
      p95: pct(wall, 95),
      n: wall.length,
      ...(t === TARGETS[0] ? {} : { baseline: { label: 'node -e 0', median: floorWall }, ratio }),
      ...(t.maxRatio !== undefined ? { budget: `≤ ${t.maxRatio}× node -e 0`, ok: ratio <= t.maxRatio } : {}),
      ...(cpu !== undefined && cpuRatio !== undefined
        ? { note: `CPU time (user+sys) median ${cpu.toFixed(0)} ms, ${cpuRatio.toFixed(2)}× node -e 0 (paired per round)` }
        : {}),
    });
  }
  const floorRss = rss.get(TARGETS[0]!.label)!;
  const checkRss = rss.get(TARGETS[3]!.label)!;
  if (floorRss.length > 0 && checkRss.length === floorRss.length) {
    const ratio = median(checkRss.map((k, r) => k / floorRss[r]!));
    const mib = (k: number) => k / 1024;
    rows.push({
      bench: 'startup',
      metric: `${TARGETS[3]!.label} (peak RSS)`,
      unit: 'MiB',
      median: mib(median(checkRss)),
      n: checkRss.length,
      baseline: { label: 'node -e 0', median: mib(median(floorRss)) },
      ratio,
      budget: `≤ ${MAX_RSS_RATIO}× node -e 0`,
      ok: ratio <= MAX_RSS_RATIO,
    });
  }
  return rows;
}

const GNU_TIME = '/usr/bin/time';

/** Peak RSS in KiB of one run, as GNU time reports it (`%M`). */
function peakRssKiB(t: Target, env: NodeJS.ProcessEnv, cwd: string): number {
  const r = spawnSync(GNU_TIME, ['-f', '%M', process.execPath, ...t.argv], { env, cwd, encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
  const kib = Number(r.stderr.trim().split('\n').pop());
  if (r.status !== 0 || !Number.isFinite(kib)) throw new Error(`${t.label}: no peak RSS from ${GNU_TIME} (status ${r.status})`);
  return kib;
}
