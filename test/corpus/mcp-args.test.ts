// Corpus: bad MCP arguments (test/corpus/mcp-args.json), sent with the SDK client over an in-memory transport to
// the server of src/mcp/server.ts. The server approves everything (auto channel) and its script runs `touch
// marker`, so any call that slipped through would leave the marker: none may.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, say, startHarness, type Harness } from '../mcp/helpers.js';
import { firstRaw } from '../hardening/hostile.js';
import { loadCorpus, title } from './load.js';

interface McpCase {
  readonly name: string;
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly expect: 'invalidParams' | 'toolError';
  readonly message: string;
}

const { cases } = loadCorpus<{ cases: McpCase[] }>('mcp-args.json');
let h: Harness;

beforeAll(async () => {
  h = await startHarness({ channel: 'auto', responses: [run('touch marker'), say('done')] });
});
afterAll(async () => {
  await h.close();
});

describe('MCP argument corpus', () => {
  it('has the cases the issue asks for', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases.map((c) => [title(c.name), c] as const))('%s', async (_n, c) => {
    const requests = h.events('mcp.request').length;
    const results = h.events('mcp.result').length;
    const call = h.client.callTool({ name: c.tool, arguments: c.arguments }, undefined, { timeout: 30_000 });
    let text: string;
    if (c.expect === 'invalidParams') {
      const err = await call.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, 'must be a protocol error').toBeInstanceOf(McpError);
      expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
      text = (err as McpError).message;
    } else {
      const r = (await call) as CallToolResult;
      expect(r.isError).toBe(true);
      text = r.content.map((x) => ('text' in x ? x.text : '')).join('\n');
    }
    expect(text).toMatch(new RegExp(c.message));
    expect(firstRaw(text), 'the message shows what it quotes escaped').toBeUndefined();
    // Audited: the request as received and the refusal.
    expect(h.events('mcp.request').length).toBe(requests + 1);
    const result = h.events('mcp.result').slice(results);
    expect(result).toHaveLength(1);
    expect(result[0]!.details).toMatchObject({ isError: true });
    // Nothing ran, no conversation started.
    expect(existsSync(join(h.dirs.work, 'marker'))).toBe(false);
    expect(h.models).toHaveLength(0);
    expect(h.server.threads.size).toBe(0);
  });

  it('nothing was lost: a proper call afterwards runs (the server would have run what slipped through)', async () => {
    const r = await h.respond({ prompt: 'go', thread_id: 'after' });
    expect(r.isError).toBeFalsy();
    expect(existsSync(join(h.dirs.work, 'marker'))).toBe(true);
  });
});
