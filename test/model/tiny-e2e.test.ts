// The real tiny model (../shared/models/tiny-toolcaller.gguf) in-process, end to end through the built CLI: its tool
// calls pass the same gate as any model's. `wisp respond` runs once per prompt (a process each); the MCP tests load the
// model once per server and use threads. Each expectation on the model's behaviour says so when the model no longer
// gives it (its README: answers may drift if wisp's system prompt or tools change a lot).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RespondStructured } from '../../src/mcp/server.js';
import { wispAsync } from '../helpers/cli.js';
import { TINY, haveTiny, warnIfNoTiny } from '../helpers/tiny-model.js';
import { auditEvents, connect, ensureBuilt } from '../mcp/cli.js';
import { makeDirs, type Dirs } from '../mcp/helpers.js';

warnIfNoTiny('the end-to-end tests of the tiny model');

const MODEL = `llama:${TINY}`;
const dirsList: Dirs[] = [];
const clients: Client[] = [];
beforeAll(ensureBuilt, 180_000);
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  dirsList.forEach((d) => d.cleanup());
});

/** A fresh home whose config keeps llama.cpp to one thread (2 shared cores here). */
function fresh(): Dirs {
  const d = makeDirs();
  writeFileSync(join(d.home, 'config.json'), JSON.stringify({ models: { threads: 1, maxTokens: 128, contextSize: 4096 } }));
  dirsList.push(d);
  return d;
}

interface RespondJson {
  text: string;
  refusals: Array<{ command: string; reason: string }>;
  receipt: {
    commands: Array<{ command: string; exitStatus: number }>;
    approvals: Array<{ command: string; decision: string; channel: string }>;
    tools: Array<{ name: string; error?: string }>;
  };
}

async function respondCli(d: Dirs, prompt: string): Promise<RespondJson> {
  const r = await wispAsync(['respond', '--yes', '--json', '-m', MODEL, prompt], { cwd: d.work, home: d.home }).done;
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as RespondJson;
}

const respondMcp = (c: Client, args: Record<string, unknown>) =>
  c.callTool({ name: 'respond', arguments: args }, undefined, { timeout: 240_000 }) as Promise<CallToolResult & { structuredContent: RespondStructured }>;

const drift = (what: string, got: unknown) => `the tiny model no longer ${what}; it gave ${JSON.stringify(got)}`;

describe.skipIf(!haveTiny)('the tiny model through wisp respond', () => {
  it('"make a marker file" with --yes: the call passes the gate, is approved once (auto) and touch marker runs', async () => {
    const d = fresh();
    const out = await respondCli(d, 'make a marker file');
    expect(out.receipt.commands, drift('asks for touch marker', out.receipt)).toEqual([expect.objectContaining({ command: 'touch marker', exitStatus: 0 })]);
    expect(out.receipt.approvals).toEqual([expect.objectContaining({ command: 'touch marker', decision: 'approved', channel: 'auto' })]);
    expect(existsSync(join(d.work, 'marker'))).toBe(true);
    const audit = readFileSync(join(d.home, 'logs', 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"kind":"approval\.decided"[^\n]*"decision":"approved"/);
  }, 240_000);

  it('"delete everything": rm -rf / is denied by policy even with --yes, and nothing runs', async () => {
    const d = fresh();
    const out = await respondCli(d, 'delete everything');
    expect(out.refusals, drift('asks for rm -rf /', out)).toEqual([expect.objectContaining({ command: 'rm -rf /', reason: expect.stringMatching(/denied by policy/) })]);
    expect(out.receipt.commands).toEqual([]);
    expect(out.receipt.approvals).toEqual([]);
  }, 240_000);
});

describe.skipIf(!haveTiny)('the tiny model through wisp mcp over stdio', () => {
  it('result channel, one server, one model load: an unknown tool and a broken call are tool errors; ask_operator comes back pending and its answer is replayed', async () => {
    const d = fresh();
    const c = await connect(d, ['-m', MODEL, '--escalation', 'result']);
    clients.push(c);

    // The MCP result has no per-tool list: the audit has each tool result, errors in wisp's own words.
    const toolErrors = () =>
      auditEvents(d)
        .filter((e) => e.kind === 'tool.result' && e.details.isError === true)
        .map((e) => ({ tool: e.details.tool, output: e.details.output }));

    const missing = await respondMcp(c, { prompt: 'call a missing tool' });
    expect(missing.isError).toBeFalsy();
    expect(toolErrors()[0], drift('calls format_disk', toolErrors())).toEqual({
      tool: 'format_disk',
      output: expect.stringMatching(/^error: unknown tool 'format_disk'; the tools you have are: run_command/),
    });

    const before = toolErrors().length;
    const broken = await respondMcp(c, { prompt: 'send a broken call' });
    expect(broken.isError).toBeFalsy();
    expect(toolErrors()[before], drift('sends a broken call', toolErrors())).toEqual({
      tool: 'run_command',
      output: expect.stringMatching(/^error: the arguments for run_command are not valid JSON/),
    });
    expect(broken.structuredContent.receipt.commands).toEqual([]);

    const asked = await respondMcp(c, { prompt: 'ask me something' });
    const pending = asked.structuredContent.pending;
    expect(pending[0], drift('asks "Which file should I use?"', asked.structuredContent)).toMatchObject({
      verb: 'inquiry',
      question: 'Which file should I use?',
    });
    const id = pending[0]!.id as string;
    const answered = await respondMcp(c, {
      prompt: 'continue',
      thread_id: asked.structuredContent.thread_id,
      answers: [{ id, text: 'notes.txt', answeredBy: 'human' }],
    });
    expect(answered.isError).toBeFalsy();
    expect(answered.structuredContent.refusals).toEqual([]);
    const audit = readFileSync(join(d.home, 'logs', 'audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"kind":"inquiry\.decided"[^\n]*"decision":"answered"[^\n]*"answer":"notes\.txt"/);
  }, 400_000);

  it('with elicitation: "make a marker file" asks the client, accepting runs touch marker', async () => {
    const d = fresh();
    const messages: string[] = [];
    const c = await connect(d, ['-m', MODEL], async (req) => {
      messages.push(String(req.params.message));
      return { action: 'accept', content: { scope: 'once' } };
    });
    clients.push(c);
    const r = await respondMcp(c, { prompt: 'make a marker file' });
    expect(r.structuredContent.receipt.commands, drift('asks for touch marker', r.structuredContent)).toEqual([
      expect.objectContaining({ command: 'touch marker', exitStatus: 0 }),
    ]);
    expect(messages.some((m) => m.includes('touch marker'))).toBe(true);
    expect(existsSync(join(d.work, 'marker'))).toBe(true);
  }, 240_000);
});
