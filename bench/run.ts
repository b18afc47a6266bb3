// `npm run bench [-- --json] [--only NAME[,NAME…]] [--quick]`: wisp's performance budgets (issue #9,
// docs/performance.md). Each benchmark measures its figure against a baseline taken in the same run, alternating
// between the two, and reports medians; the table shows median, p95/p99, the baseline, the ratio and the budget.
// Exit status: 0 when every budget is met, 1 when one is missed, 64 for bad arguments. Not part of `npm test`.
import { arch, cpus, platform } from 'node:os';
import { auditBench } from './audit.js';
import { chatBench } from './chat.js';
import { chatReadyBench } from './chat-ready.js';
import { gateBench } from './gate.js';
import { type Bench, type Row, renderTable, requireBuilt } from './lib.js';
import { mcpBench } from './mcp.js';
import { modelBench } from './model.js';
import { queueBench } from './queue.js';
import { startupBench } from './startup.js';

const BENCHES: ReadonlyArray<readonly [string, Bench]> = [
  ['gate', gateBench],
  // The start-up of the chat (in a pseudo-terminal) is a start-up figure: `--only startup` runs it too.
  ['startup', async (ctx) => [...(await startupBench(ctx)), ...(await chatReadyBench(ctx))]],
  ['queue', queueBench],
  ['mcp', mcpBench],
  ['audit', auditBench],
  ['chat', chatBench],
  ['model', modelBench],
];

const USAGE = `usage: npm run bench -- [--json] [--only ${BENCHES.map(([n]) => n).join('|')}[,…]] [--quick]\n`;

function parseArgs(argv: string[]): { json: boolean; only: string[]; quick: boolean } | string {
  let json = false;
  let quick = false;
  const only: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--quick') quick = true;
    else if (a === '--only' || a.startsWith('--only=')) {
      const v = a === '--only' ? argv[++i] : a.slice('--only='.length);
      if (!v) return '--only needs a benchmark name';
      only.push(...v.split(',').filter(Boolean));
    } else if (a === '-h' || a === '--help') return '';
    else return `unknown argument ${a}`;
  }
  const unknown = only.filter((n) => !BENCHES.some(([name]) => name === n));
  if (unknown.length) return `unknown benchmark ${unknown.join(', ')}`;
  return { json, only, quick };
}

const args = parseArgs(process.argv.slice(2));
if (typeof args === 'string') {
  process.stderr.write((args ? `bench: ${args}\n` : '') + USAGE);
  process.exit(args ? 64 : 0);
}

requireBuilt();
const log = (line: string) => process.stderr.write(line + '\n');
const selected = BENCHES.filter(([name]) => args.only.length === 0 || args.only.includes(name));
const rows: Row[] = [];
const failures: Array<{ bench: string; error: string }> = [];
const started = Date.now();
for (const [name, bench] of selected) {
  const t = Date.now();
  log(`bench: ${name}…`);
  try {
    rows.push(...(await bench({ log, quick: args.quick })));
  } catch (err) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    failures.push({ bench: name, error: message });
    log(`bench: ${name} failed: ${message}`);
  }
  log(`bench: ${name} done in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

const machine = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${platform()} ${arch()}`,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model ?? 'unknown',
  seconds: Math.round((Date.now() - started) / 100) / 10,
};
const missed = rows.filter((r) => r.ok === false);
if (args.json) {
  process.stdout.write(JSON.stringify({ machine, rows, failures, ok: missed.length === 0 && failures.length === 0 }, null, 2) + '\n');
} else {
  process.stdout.write(`\nwisp bench — ${machine.date}, node ${machine.node}, ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.seconds} s\n\n`);
  process.stdout.write(renderTable(rows));
  if (failures.length) process.stdout.write(`\nfailed: ${failures.map((f) => f.bench).join(', ')}\n`);
  process.stdout.write(missed.length || failures.length ? `\n${missed.length} budget(s) missed\n` : '\nall budgets met\n');
}
process.exitCode = missed.length || failures.length ? 1 : 0;
