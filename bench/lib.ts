// Shared pieces of `npm run bench`: statistics, the result rows every benchmark returns, and the table.
//
// The machines this runs on are noisy (test suites of other people share the cores), so every figure is taken
// against a baseline measured in the same run, the runs alternate between the baseline and the measured thing, and
// what is compared is medians (see docs/performance.md).
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
export const BIN = join(DIST, 'bin', 'wisp.cjs');

/** One measured figure. `median`/`p95`/`p99` are in `unit`; `ratio` is median ÷ the baseline's median. */
export interface Row {
  readonly bench: string;
  readonly metric: string;
  readonly unit: string;
  readonly median: number;
  readonly p95?: number;
  readonly p99?: number;
  readonly n: number;
  readonly baseline?: { readonly label: string; readonly median: number; readonly p95?: number; readonly p99?: number };
  readonly ratio?: number;
  /** Human form of the budget, e.g. "p99 ≤ 100 µs". */
  readonly budget?: string;
  /** Whether the budget is met; undefined for an informational row. */
  readonly ok?: boolean;
  readonly note?: string;
}

export interface BenchContext {
  /** Print progress lines to stderr (never with --json on stdout, which stays clean anyway). */
  readonly log: (line: string) => void;
  /** Fewer repetitions (for a smoke run). */
  readonly quick: boolean;
}

export type Bench = (ctx: BenchContext) => Promise<Row[]>;

export function sorted(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

/** Nearest-rank percentile (p in 0..100) of an already sorted array. */
export function pct(sortedXs: readonly number[], p: number): number {
  if (sortedXs.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sortedXs.length);
  return sortedXs[Math.min(sortedXs.length - 1, Math.max(0, rank - 1))]!;
}

export function median(xs: readonly number[]): number {
  const s = sorted(xs);
  if (s.length === 0) return Number.NaN;
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function summary(xs: readonly number[]): { median: number; p95: number; p99: number; n: number } {
  const s = sorted(xs);
  return { median: median(s), p95: pct(s, 95), p99: pct(s, 99), n: s.length };
}

/**
 * Milliseconds on the system's monotonic clock (CLOCK_MONOTONIC), with sub-microsecond precision and comparable
 * across processes on one machine (unlike performance.now(), whose origin is per process).
 */
export function wallMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** CPU time (user + system) of this process so far, in microseconds. */
export function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** The built module `dist/<rel>` (what `wisp` runs), typed as its source. Fails with a hint when dist is missing. */
export async function importDist<T>(rel: string): Promise<T> {
  const file = join(DIST, rel);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` (npm ci does it) first`);
  return (await import(pathToFileURL(file).href)) as T;
}

export function requireBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` (npm ci does it) first`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// ---------------------------------------------------------------------------------------------------------------
// The table

function fmt(x: number | undefined, unit: string): string {
  if (x === undefined || Number.isNaN(x)) return '';
  const abs = Math.abs(x);
  const digits = unit === '/s' || abs >= 1000 ? 0 : abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  const s = x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return unit === '/s' ? `${s}/s` : `${s} ${unit}`;
}

export function renderTable(rows: readonly Row[]): string {
  const header = ['benchmark', 'median', 'p95', 'p99', 'baseline (median)', 'ratio', 'budget', ''];
  const body = rows.map((r) => [
    `${r.bench}: ${r.metric}`,
    fmt(r.median, r.unit),
    fmt(r.p95, r.unit),
    fmt(r.p99, r.unit),
    r.baseline ? `${r.baseline.label} ${fmt(r.baseline.median, r.unit)}` : '',
    r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}×`,
    r.budget ?? '',
    r.ok === undefined ? 'info' : r.ok ? 'ok' : 'MISS',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const notes = rows.filter((r) => r.note).map((r) => `  ${r.bench}: ${r.metric} — ${r.note}`);
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), ...(notes.length ? ['', 'notes:', ...notes] : [])].join('\n') + '\n';
}
