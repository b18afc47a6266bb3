// `wisp mcp` as the built CLI over stdio, with the SDK's stdio client; queue answers come from
// `wisp approvals approve|deny ID` run under a pseudo-terminal (they refuse without one).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPending } from '../../src/escalation/queue/answerer.js';
import type { RespondStructured } from '../../src/mcp/server.js';
import { answerFromTerminal, bin, connect, ensureBuilt } from './cli.js';
import { makeDirs, run, say, waitFor, writeScript, type Dirs } from './helpers.js';

beforeAll(ensureBuilt, 120_000);

const dirsList: Dirs[] = [];
afterAll(() => dirsList.forEach((d) => d.cleanup()));

const respond = (c: Client, args: Record<string, unknown>) =>
  c.callTool({ name: 'respond', arguments: args }, undefined, { timeout: 60_000 }) as Promise<CallToolResult & { structuredContent: RespondStructured }>;

function fresh(): Dirs {
  const d = makeDirs();
  dirsList.push(d);
  return d;
}

describe('wisp mcp over stdio', () => {
  it('lists respond and close_thread; an elicitation accept runs the command; the audit has the thread session', async () => {
    const dirs = fresh();
    const script = writeScript(dirs, [run('touch marker-stdio'), say('done')]);
    let message = '';
    const c = await connect(dirs, ['-m', `script:${script}`], async (req) => {
      message = String(req.params.message);
      return { action: 'accept', content: { scope: 'once' } };
    });
    const tools = (await c.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(['respond', 'close_thread']);
    const r = await respond(c, { prompt: 'make a marker' });
    expect(r.structuredContent.text).toBe('done');
    expect(existsSync(join(dirs.work, 'marker-stdio'))).toBe(true);
    expect(message).toContain('touch marker-stdio');
    await c.close();
    const events = readFileSync(join(dirs.home, 'logs', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; session: string; thread?: string; details: Record<string, unknown> });
    const server = events.find((e) => e.kind === 'session.start' && e.details.entryPoint === 'mcp' && !e.details.parent)!;
    const thread = events.find((e) => e.kind === 'session.start' && e.details.parent === server.session)!;
    expect(thread.thread).toBe(r.structuredContent.thread_id);
    expect(events.some((e) => e.kind === 'approval.decided' && e.session === thread.session && e.details.decision === 'approved')).toBe(true);
    await waitFor(() => readFileSync(join(dirs.home, 'logs', 'audit.jsonl'), 'utf8').includes('"session.end"'));
  });

  it('without elicitation: the queue answered by `wisp approvals approve ID` from a terminal runs the command; deny refuses', async () => {
    const dirs = fresh();
    const script = writeScript(dirs, [run('touch marker-q'), say('done')]);
    const c = await connect(dirs, ['-m', `script:${script}`]);
    const call = respond(c, { prompt: 'make a marker', thread_id: 'approve-me' });
    const request = await waitFor(() => listPending(dirs.paths, 'approval')[0], 15_000);
    const answered = answerFromTerminal(dirs, 'approve', request.id);
    expect(answered.status, answered.out).toBe(0);
    const r = await call;
    expect(r.structuredContent.refusals).toEqual([]);
    expect(existsSync(join(dirs.work, 'marker-q'))).toBe(true);

    const denied = respond(c, { prompt: 'again', thread_id: 'deny-me' });
    const request2 = await waitFor(() => listPending(dirs.paths, 'approval')[0], 15_000);
    const deniedAnswer = answerFromTerminal(dirs, 'deny', request2.id);
    expect(deniedAnswer.status, deniedAnswer.out).toBe(0);
    const r2 = await denied;
    expect(r2.structuredContent.refusals).toHaveLength(1);
    expect(r2.structuredContent.refusals[0]!.reason).toMatch(/declined by the person/);
    await c.close();
  });

  it('result channel: a deferred approval approved from a terminal runs on the next respond; one not approved stays refused', async () => {
    const dirs = fresh();
    const script = writeScript(dirs, [run('touch marker-r'), say('waiting'), run('touch marker-r'), say('done')]);
    const c = await connect(dirs, ['-m', `script:${script}`, '--escalation', 'result']);

    // Not approved: the next respond is refused again, with the same pending id.
    const a1 = await respond(c, { prompt: 'make a marker', thread_id: 'wait' });
    const idA = a1.structuredContent.pending[0]!.id as string;
    const a2 = await respond(c, { prompt: 'try again', thread_id: 'wait' });
    expect(a2.structuredContent.refusals.map((r) => r.escalationId)).toContain(idA);
    expect(existsSync(join(dirs.work, 'marker-r'))).toBe(false);

    // Approved from a terminal: the next respond runs it.
    const b1 = await respond(c, { prompt: 'make a marker', thread_id: 'go' });
    const idB = b1.structuredContent.pending[0]!.id as string;
    expect(b1.structuredContent.pending[0]!.answer).toBe(`wisp approvals approve ${idB}`);
    const answered = answerFromTerminal(dirs, 'approve', idB);
    expect(answered.status, answered.out).toBe(0);
    const b2 = await respond(c, { prompt: 'try again', thread_id: 'go' });
    expect(b2.structuredContent.refusals).toEqual([]);
    expect(existsSync(join(dirs.work, 'marker-r'))).toBe(true);
    await c.close();
  });

  it('rejects an --escalation the face does not have, with exit 64', () => {
    const dirs = fresh();
    const r = spawnSync(process.execPath, [bin, 'mcp', '--escalation', 'terminal'], {
      cwd: dirs.work,
      env: { ...process.env, WISP_HOME: dirs.home },
      encoding: 'utf8',
      input: '',
    });
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/--escalation terminal is not available in wisp mcp/);
  });
});
