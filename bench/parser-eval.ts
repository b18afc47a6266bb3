// Parser evaluation for the gate (docs/decisions/0001-shell-parser.md): sh-syntax vs web-tree-sitter + the
// tree-sitter-bash grammar, over every command line of wisp-spec §8.
//   correctness: does the parser give us the parts the §8 scenario table expects (executables, in order)?
//   speed:       one-time init, then µs per line (sequential, after a warm-up).
// Run: npx tsx bench/parser-eval.ts [--iterations N]
import { createRequire } from 'node:module';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Language, Parser } from 'web-tree-sitter';
import { parse as shParse } from 'sh-syntax';
import { initParser, parseLine } from '../src/gate/parse.js';
import { resolveCommand } from '../src/gate/wrappers.js';
import { roughSegments } from '../src/gate/words.js';
import { ALL_SPEC_LINES, SCENARIOS } from '../test/gate/spec-vectors.js';

const iterations = Number(process.argv[process.argv.indexOf('--iterations') + 1]) || 200;

function executablesOf(wordLists: readonly (readonly string[])[]): string[] {
  return wordLists.map((w) => resolveCommand(w).executable);
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Wall-clock and CPU time per line, in µs. CPU time is what the ADR compares: it does not grow with machine load. */
interface PerLine {
  readonly wall: number;
  readonly cpu: number;
}

function measureSync(count: number, fn: () => void): PerLine {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const wall = ((performance.now() - t0) * 1000) / count;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / count };
}

async function measureAsync(count: number, fn: () => Promise<void>): Promise<PerLine> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wall = ((performance.now() - t0) * 1000) / count;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / count };
}

const fmt = (p: PerLine): string => `${p.cpu.toFixed(1)} µs CPU/line (${p.wall.toFixed(1)} µs wall)`;

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main(): Promise<void> {
  const lines = ALL_SPEC_LINES;
  const out: string[] = [];
  out.push(`lines: ${lines.length} (every command line of wisp-spec §8), ${iterations} iterations each`);
  out.push(`machine: ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);

  // --- tree-sitter: raw parse (what the ADR's 11 µs refers to) and the gate's full parseLine ---
  const require = createRequire(import.meta.url);
  const tInitTs = await timeAsync(async () => {
    await Parser.init({ locateFile: () => require.resolve('web-tree-sitter/web-tree-sitter.wasm') });
  });
  let language: Language | undefined;
  const tLangTs = await timeAsync(async () => {
    language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
  });
  const raw = new Parser();
  raw.setLanguage(language!);
  await initParser();

  for (let w = 0; w < 20; w++) for (const l of lines) raw.parse(l)?.delete();
  const tsRaw = measureSync(iterations * lines.length, () => {
    for (let i = 0; i < iterations; i++) for (const l of lines) raw.parse(l)?.delete();
  });

  for (let w = 0; w < 20; w++) for (const l of lines) parseLine(l);
  const tsFull = measureSync(iterations * lines.length, () => {
    for (let i = 0; i < iterations; i++) for (const l of lines) parseLine(l);
  });

  let tsCorrect = 0;
  const tsMisses: string[] = [];
  for (const row of SCENARIOS) {
    const parts = parseLine(row.line).parts;
    const got = parts.map((p) => resolveCommand(p.words).executable);
    if (same(got, row.executables)) tsCorrect++;
    else tsMisses.push(`${row.line} ⇒ ${got.join(',')} (expected ${row.executables.join(',')})`);
  }
  const tsErrors = lines.filter((l) => parseLine(l).hadErrors);

  // --- sh-syntax: async, a fresh Go/WASM instance per call; its JSON tree carries statements and positions only ---
  const shInitMs = await timeAsync(() => shParse('true'));
  const shCmdKeys = new Set<string>();
  let shCorrect = 0;
  const shMisses: string[] = [];
  for (const row of SCENARIOS) {
    const file = await shParse(row.line);
    for (const s of file.Stmts) if (s.Cmd) for (const k of Object.keys(s.Cmd)) shCmdKeys.add(k);
    // Best available reading: each top-level statement is one command; its words by a rough split.
    const lists = file.Stmts.map((s) => roughSegments(row.line.slice(s.Pos.Offset, s.End.Offset))[0] ?? []);
    const got = executablesOf(lists);
    if (same(got, row.executables)) shCorrect++;
    else shMisses.push(`${row.line} ⇒ ${got.join(',')} (expected ${row.executables.join(',')})`);
  }
  let shErrors = 0;
  for (const l of lines) {
    try {
      await shParse(l);
    } catch {
      shErrors++;
    }
  }
  for (let w = 0; w < 3; w++) for (const l of lines) await shParse(l);
  const shIterations = Math.max(3, Math.floor(iterations / 20));
  const sh = await measureAsync(shIterations * lines.length, async () => {
    for (let i = 0; i < shIterations; i++) for (const l of lines) await shParse(l);
  });

  out.push('');
  out.push('web-tree-sitter 0.27.1 + tree-sitter-bash 0.25.1');
  out.push(`  init: runtime ${tInitTs.toFixed(1)} ms, grammar ${tLangTs.toFixed(1)} ms (once, async)`);
  out.push(`  raw parse: ${fmt(tsRaw)}, synchronous`);
  out.push(`  gate parseLine (parse + walk + unquoting + sh -c/eval re-parse): ${fmt(tsFull)}`);
  out.push(`  scenario rows with the expected executables: ${tsCorrect}/${SCENARIOS.length}`);
  for (const m of tsMisses) out.push(`    miss: ${m}`);
  out.push(`  §8 lines with parse errors: ${tsErrors.length}/${lines.length}`);
  out.push('');
  out.push('sh-syntax 0.7.0 (mvdan/sh via Go WASM)');
  out.push(`  first call (instantiates the module): ${shInitMs.toFixed(1)} ms`);
  out.push(`  parse: ${fmt(sh)}, asynchronous, ${shIterations} iterations`);
  out.push(`  fields present on Stmt.Cmd in the returned tree: ${[...shCmdKeys].sort().join(', ') || '(none)'}`);
  out.push(`  scenario rows with the expected executables (statement split only): ${shCorrect}/${SCENARIOS.length}`);
  for (const m of shMisses) out.push(`    miss: ${m}`);
  out.push(`  §8 lines rejected: ${shErrors}/${lines.length}`);
  process.stdout.write(out.join('\n') + '\n');
}

await main();
