// Parser evaluation for the gate (docs/decisions/0001-shell-parser.md): sh-syntax vs web-tree-sitter + the
// tree-sitter-bash grammar, over every command line of wisp-spec §8.
//   correctness: does the parser give us the parts the §8 scenario table expects (executables, in order)?
//   speed:       one-time init, then µs per line (sequential, after a warm-up).
// Run: npx tsx bench/parser-eval.ts [--iterations N]
import { createRequire } from 'node:module';
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

async function timeAsync(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function main(): Promise<void> {
  const lines = ALL_SPEC_LINES;
  const out: string[] = [];
  out.push(`lines: ${lines.length} (every command line of wisp-spec §8), ${iterations} iterations each`);

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
  let t = performance.now();
  for (let i = 0; i < iterations; i++) for (const l of lines) raw.parse(l)?.delete();
  const tsRawUs = ((performance.now() - t) * 1000) / (iterations * lines.length);

  for (let w = 0; w < 20; w++) for (const l of lines) parseLine(l);
  t = performance.now();
  for (let i = 0; i < iterations; i++) for (const l of lines) parseLine(l);
  const tsFullUs = ((performance.now() - t) * 1000) / (iterations * lines.length);

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
  t = performance.now();
  for (let i = 0; i < shIterations; i++) for (const l of lines) await shParse(l);
  const shUs = ((performance.now() - t) * 1000) / (shIterations * lines.length);

  out.push('');
  out.push('web-tree-sitter 0.27.1 + tree-sitter-bash 0.25.1');
  out.push(`  init: runtime ${tInitTs.toFixed(1)} ms, grammar ${tLangTs.toFixed(1)} ms (once, async)`);
  out.push(`  raw parse: ${tsRawUs.toFixed(1)} µs/line (sync)`);
  out.push(`  gate parseLine (parse + walk + unquoting + sh -c/eval re-parse): ${tsFullUs.toFixed(1)} µs/line`);
  out.push(`  scenario rows with the expected executables: ${tsCorrect}/${SCENARIOS.length}`);
  for (const m of tsMisses) out.push(`    miss: ${m}`);
  out.push(`  §8 lines with parse errors: ${tsErrors.length}/${lines.length}`);
  out.push('');
  out.push('sh-syntax 0.7.0 (mvdan/sh via Go WASM)');
  out.push(`  first call (instantiates the module): ${shInitMs.toFixed(1)} ms`);
  out.push(`  parse: ${shUs.toFixed(0)} µs/line (async, ${shIterations} iterations)`);
  out.push(`  fields present on Stmt.Cmd in the returned tree: ${[...shCmdKeys].sort().join(', ') || '(none)'}`);
  out.push(`  scenario rows with the expected executables (statement split only): ${shCorrect}/${SCENARIOS.length}`);
  for (const m of shMisses) out.push(`    miss: ${m}`);
  out.push(`  §8 lines rejected: ${shErrors}/${lines.length}`);
  process.stdout.write(out.join('\n') + '\n');
}

await main();
