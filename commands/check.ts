// `wisp check [--json] [--cwd DIR] -- LINE`: the gate's static decision for a command line, without running it —
// policy, then each part's level, reasons and pattern, then run/ask/deny at the configured threshold.
// Stored approvals are consulted only with --with-store (session answers live in a running process, never here).
// The parser and config loader load inside the action.
import { safeJson } from '../src/core/safe-json.js';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { LineAnalysis } from '../src/gate/analyze.js';
import type { Level, Threshold } from '../src/core/levels.js';
import { UsageError } from '../src/core/errors.js';
import { writeStdout } from '../src/util/write-out.js';

export interface CheckFlags {
  json?: boolean;
  cwd?: string;
  withStore?: boolean;
}

/** The JSON contract of `wisp check --json` (design.md §5). */
export interface CheckResult {
  command: string;
  policy: 'allowed' | 'denied';
  policyReason?: string;
  /** The deny entry: a built-in name or `policy.deny[N]` / `policy.allow` (docs/trust.md lists the names). */
  policyRule?: string;
  parts: Array<{ text: string; executable: string; level: Level; reasons: string[]; pattern: string; knownSafe: boolean }>;
  level: Level;
  decision: 'run' | 'ask' | 'deny';
  /** With --with-store: the stored approvals that cover the parts that would otherwise be asked. */
  storedApprovals?: Array<{ part: string; id: string; scope: string; expiresAt: string }>;
}

export function toCheckResult(a: LineAnalysis, decision: CheckResult['decision']): CheckResult {
  return {
    command: a.command,
    policy: a.policy,
    ...(a.policyReason !== undefined ? { policyReason: a.policyReason } : {}),
    ...(a.policyRule !== undefined ? { policyRule: a.policyRule } : {}),
    parts: a.parts.map((p) => ({
      text: p.text,
      executable: p.executable,
      level: p.level,
      reasons: [...p.reasons],
      pattern: p.pattern,
      knownSafe: p.knownSafe,
    })),
    level: a.level,
    decision,
  };
}

export function register(program: Command): void {
  program
    .command('check')
    .description("Show the gate's decision for a command line without running it (policy, levels, patterns)")
    .argument('<line...>', 'the command line, after -- (quote it, or its words are joined with spaces)')
    .option('--json', 'print {command, policy, policyReason?, parts, level, decision}')
    .option('--cwd <dir>', 'the directory the command would run in (default: the current one)')
    .option('--with-store', 'also consult stored approvals (approvals.json): a part covered by a project/always approval would run')
    .addHelpText('after', '\nExamples:\n  wisp check -- "git push --force origin main"\n  wisp check --json -- \'curl -s https://x.example | sh\'')
    .action(async (lineWords: string[], flags: CheckFlags) => {
      await runCheck(lineWords.join(' '), flags);
    });
}

export async function runCheck(line: string, flags: CheckFlags): Promise<void> {
  const cwd = resolve(flags.cwd ?? process.cwd());
  let isDir = false;
  try {
    isDir = statSync(cwd).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`working directory does not exist: ${cwd}`);

  // Start-up matters here (docs/performance.md, ADRs 0012 and 0040). A line of plain words (`ls`, `git status`) is
  // decided without loading the parser at all, and so is a simple line of such commands (ADR 0052); any other line loads it and is decided again from the start, with the
  // same answer the gate gives. The config loader skips zod when there is no config file. A one-shot process keeps
  // the wasm on V8's baseline compiler: one pipeline or heredoc is enough for V8 to start optimising the grammar's
  // lexer in the background, about a second of CPU that the process would then wait for before it could exit.
  const [{ initParser, isPlainLine, isSimpleLine, parserReady: parserLoaded, withoutParser }, { loadConfigQuick }, { wispHome }, { analyzeLine, decisionFor }] = await Promise.all([
    import('../src/gate/parse.js'),
    import('../src/config/quick.js'),
    import('../src/core/paths.js'),
    import('../src/gate/analyze.js'),
  ]);
  const loadParser = (): Promise<void> => {
    // node:v8 is taken only here: loading it loads the heap-snapshot and stream modules (ADR 0041).
    if (!parserLoaded()) process.getBuiltinModule('node:v8').setFlagsFromString('--liftoff-only');
    return initParser();
  };
  // A line that is neither plain words nor a simple line (ADR 0052: `git log --oneline | head -5`) needs the parser:
  // its wasm then compiles while the config loads.
  if (!isPlainLine(line) && !isSimpleLine(line)) loadParser().catch(() => {}); // a failure is reported where it is awaited again
  const loaded = await loadConfigQuick({ home: wispHome(), cwd });
  for (const w of loaded.warnings) process.stderr.write(`wisp: warning: ${w}\n`);
  const analysis = await withoutParser(() => analyzeLine(line, loaded.config, cwd), loadParser);
  const threshold: Threshold = loaded.config.approval.threshold;
  let result = toCheckResult(analysis, decisionFor(analysis, threshold));
  if (flags.withStore && result.decision === 'ask') result = await withStoredApprovals(result, cwd, threshold);
  if (flags.json) {
    writeStdout(safeJson(result) + '\n');
    return;
  }
  const { visible } = await import('../src/core/visible.js');
  writeStdout(renderHuman(result, threshold, visible));
}

/** One line per part (`level  pattern  — reasons`), the policy verdict, then the decision. */
export function renderHuman(r: CheckResult, threshold: Threshold, show: (s: string) => string): string {
  const lines: string[] = [`command: ${show(r.command)}`];
  const width = Math.max(0, ...r.parts.map((p) => p.level.length));
  for (const p of r.parts) {
    lines.push(`  ${p.level.padEnd(width)}  ${show(p.pattern)}  — ${p.reasons.map(show).join('; ')}`);
  }
  if (r.policy === 'denied') lines.push(`policy: denied (${show(r.policyReason ?? 'denied')})`);
  else lines.push('policy: allowed');
  const why =
    r.decision === 'deny'
      ? 'refused by policy; nothing would run'
      : r.decision === 'ask'
        ? `level ${r.level} is at or above the approval threshold (${threshold}); the person would be asked`
        : r.storedApprovals && r.storedApprovals.length > 0
          ? `covered by stored approvals (${r.storedApprovals.map((a) => a.id).join(', ')}); it would run`
          : threshold === 'never'
          ? 'approval threshold is never; it would run without asking'
          : `level ${r.level} is below the approval threshold (${threshold}); it would run`;
  lines.push(`decision: ${r.decision} — ${why}`);
  return lines.join('\n') + '\n';
}

/**
 * With --with-store: the parts that would be asked are looked up in approvals.json as the gate would (never for a
 * dangerous part); when every one is covered, the line would run. Each covering approval is listed.
 */
async function withStoredApprovals(r: CheckResult, cwd: string, threshold: Threshold): Promise<CheckResult> {
  const [{ ApprovalStore }, { wispPaths, wispHome }, { thresholdAsks }] = await Promise.all([
    import('../src/gate/store.js'),
    import('../src/core/paths.js'),
    import('../src/core/levels.js'),
  ]);
  const store = new ApprovalStore(wispPaths(wispHome()).approvals);
  const stored: Array<{ part: string; id: string; scope: string; expiresAt: string }> = [];
  let covered = true;
  for (const p of r.parts) {
    if (!thresholdAsks(p.level, threshold)) continue;
    const hit = p.level === 'dangerous' ? undefined : store.find(p.pattern, cwd, p.level);
    if (!hit) {
      covered = false;
      continue;
    }
    stored.push({ part: p.text, id: hit.id, scope: hit.scope, expiresAt: hit.expiresAt });
  }
  return { ...r, decision: covered ? 'run' : 'ask', storedApprovals: stored };
}
