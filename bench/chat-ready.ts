// Benchmark 2b — `wisp chat` to a ready input line (issue #16.4): the built bin started in a pseudo-terminal (a real
// TTY: raw mode, Ink's live frames), timed from spawn to the first frame that shows the input line's hint. Each round
// then types a few keys and waits for the input line to show them, so an input line that is drawn but does not take
// keys fails the benchmark instead of passing it. Baseline: `node -e 0` in the same kind of terminal, spawn to exit,
// in the same round. Budget: the median of the per-round ratios ≤ 6×.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { BIN, type BenchContext, median, pct, type Row, sorted, wallMs } from './lib.js';

/** What the input line shows while it is empty (ui/PromptInput.tsx). */
const READY = 'type a prompt, or /help';
const MAX_RATIO = 6;
const TYPED = 'ready7';

function ptyEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, TERM: 'xterm-256color', WISP_HOME: home, NODE_OPTIONS: '' })) {
    // Ink draws only the last frame when CI is set at all.
    if (typeof v === 'string' && k !== 'CI') env[k] = v;
  }
  return env;
}

/** Milliseconds from spawn to exit of `node -e 0` in a pseudo-terminal. */
function floorOnce(cwd: string, env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const t0 = wallMs();
    const p = pty.spawn(process.execPath, ['-e', '0'], { name: 'xterm-256color', cols: 120, rows: 40, cwd, env });
    p.onExit(() => resolve(wallMs() - t0));
  });
}

/** Milliseconds from spawn to the first output holding the input line's hint; then checks that typed keys show. */
function chatOnce(cwd: string, env: Record<string, string>, script: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = wallMs();
    const p = pty.spawn(process.execPath, [BIN, 'chat', '-m', `script:${script}`], { name: 'xterm-256color', cols: 120, rows: 40, cwd, env });
    let raw = '';
    let ready: number | undefined;
    let typedAt = 0;
    const timer = setTimeout(() => finish(new Error(`wisp chat: no ready input line within 60 s; it wrote ${JSON.stringify(raw.slice(-400))}`)), 60_000);
    const finish = (err?: Error) => {
      clearTimeout(timer);
      p.kill();
      if (err) reject(err);
      else resolve(ready!);
    };
    p.onExit(() => {
      if (ready === undefined || typedAt === 0) finish(new Error(`wisp chat exited before it was ready; it wrote ${JSON.stringify(raw.slice(-400))}`));
    });
    p.onData((d) => {
      raw += d;
      if (ready === undefined && raw.includes(READY)) {
        ready = wallMs() - t0;
        typedAt = raw.length;
        p.write(TYPED);
      } else if (ready !== undefined && raw.slice(typedAt).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').includes(TYPED)) {
        // The input line drew what was typed (raw mode: the terminal itself echoes nothing).
        finish();
      }
    });
  });
}

export async function chatReadyBench(ctx: BenchContext): Promise<Row[]> {
  const root = mkdtempSync(join(tmpdir(), 'wisp-bench-chat-ready-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(work);
  const script = join(root, 'script.json');
  writeFileSync(script, JSON.stringify({ responses: [{ text: 'ok' }] }));
  const env = ptyEnv(home);
  const rounds = ctx.quick ? 3 : 7;
  const chat: number[] = [];
  const floor: number[] = [];
  try {
    // One unmeasured round warms the page cache (and writes the code caches a first run writes).
    await floorOnce(work, env);
    await chatOnce(work, env, script);
    for (let r = 0; r < rounds; r++) {
      // Alternate which goes first, so neither always follows the other.
      if (r % 2 === 0) {
        floor.push(await floorOnce(work, env));
        chat.push(await chatOnce(work, env, script));
      } else {
        chat.push(await chatOnce(work, env, script));
        floor.push(await floorOnce(work, env));
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const ratio = median(chat.map((c, r) => c / floor[r]!));
  const s = sorted(chat);
  return [
    {
      bench: 'startup',
      metric: 'wisp chat → ready input line (pty)',
      unit: 'ms',
      median: median(s),
      p95: pct(s, 95),
      n: s.length,
      baseline: { label: 'node -e 0 (pty)', median: median(floor) },
      ratio,
      budget: `≤ ${MAX_RATIO}× node -e 0`,
      ok: ratio <= MAX_RATIO,
      note: `spawn to the first frame with the input line; typed keys must then show (per-round ratios ${chat.map((c, r) => (c / floor[r]!).toFixed(1)).join(', ')})`,
    },
  ];
}
