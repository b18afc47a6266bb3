// Benchmark 4 — what `respond` over MCP adds to a command: `wisp mcp` (the built CLI) on stdio with the SDK's
// client, a script model that makes one safe `run_command` (`ls`) per call and then answers, all on one thread.
// Per call: the client's round trip minus the command's own run time as its receipt reports it (`seconds`: the
// sandboxed run, from spawn to exit). The command's own time is the baseline.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type * as SandboxModule from '../src/gate/sandbox.js';
import type { RespondStructured } from '../src/mcp/server.js';
import { BIN, type BenchContext, importDist, median, pct, type Row, sorted } from './lib.js';

export async function mcpBench(ctx: BenchContext): Promise<Row[]> {
  const calls = ctx.quick ? 8 : 40;
  const warmup = 3;
  const root = mkdtempSync(join(tmpdir(), 'wisp-bench-mcp-'));
  const home = join(root, 'home');
  const work = join(root, 'work');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(work);
  writeFileSync(join(work, 'a.txt'), 'a\n');
  // Without a working sandbox wisp refuses to run anything: measure without one then, and say so.
  const { detectSandbox } = await importDist<typeof SandboxModule>('src/gate/sandbox.js');
  const sandbox = await detectSandbox();
  if (!sandbox.works) writeFileSync(join(home, 'config.json'), JSON.stringify({ sandbox: { enabled: false } }), { mode: 0o600 });
  const script = join(root, 'script.json');
  const responses = [];
  for (let i = 0; i < calls + warmup; i++) {
    responses.push({ toolCalls: [{ name: 'run_command', arguments: { command: 'ls' } }] }, { text: 'done' });
  }
  writeFileSync(script, JSON.stringify({ responses }));

  const client = new Client({ name: 'wisp-bench', version: '1' }, { capabilities: {} });
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Nothing may be asked: `ls` is safe, and anything that is not is refused at once rather than waited on.
    args: [BIN, 'mcp', '-m', `script:${script}`, '--escalation', 'deny'],
    cwd: work,
    env: { ...(process.env as Record<string, string>), WISP_HOME: home },
    stderr: 'pipe',
  });
  const overhead: number[] = [];
  const own: number[] = [];
  const total: number[] = [];
  try {
    await client.connect(transport);
    for (let i = 0; i < calls + warmup; i++) {
      const t0 = performance.now();
      const r = (await client.callTool({ name: 'respond', arguments: { prompt: 'list the files', thread_id: 'bench' } }, undefined, {
        timeout: 60_000,
      })) as CallToolResult & { structuredContent: RespondStructured };
      const ms = performance.now() - t0;
      const commands = r.structuredContent.receipt.commands as Array<{ command: string; seconds: number; exitStatus: number | null }>;
      if (r.isError || commands.length !== 1 || commands[0]!.exitStatus !== 0) {
        throw new Error(`respond did not run the command: ${JSON.stringify(r.structuredContent ?? r.content).slice(0, 400)}`);
      }
      if (i < warmup) continue; // thread creation, the sandbox probe, the JIT
      const cmdMs = commands[0]!.seconds * 1000;
      total.push(ms);
      own.push(cmdMs);
      overhead.push(ms - cmdMs);
    }
  } finally {
    await client.close().catch(() => {});
    rmSync(root, { recursive: true, force: true });
  }
  const o = sorted(overhead);
  return [
    {
      bench: 'mcp',
      metric: `respond overhead per call (call − command, ${calls} calls)`,
      unit: 'ms',
      median: median(o),
      p95: pct(o, 95),
      n: o.length,
      baseline: { label: 'command itself', median: median(own), p95: pct(sorted(own), 95) },
      ratio: median(total) / median(own),
      budget: 'median ≤ 10 ms',
      ok: median(o) <= 10,
      note:
        `whole call median ${median(total).toFixed(1)} ms; ratio = whole call ÷ the command's own run` +
        (sandbox.works ? ` (${sandbox.kind})` : `; NO SANDBOX (${sandbox.detail}): measured with sandbox.enabled false`),
    },
  ];
}
