// The resources a calling agent can read: catalogue, config, status, threads, approvals, pending.
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCE_URIS } from '../../src/mcp/resources.js';
import { accept, ask, hanging, readJson, readText, run, say, startHarness, waitFor, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  open.push(h);
  return h;
}
const read = readText;

describe('resources', () => {
  it('lists every resource and lists the two tools', async () => {
    const h = await harness({ responses: [say('hi')], elicit: accept() });
    const uris = (await h.client.listResources()).resources.map((r) => r.uri).sort();
    expect(uris).toEqual([...RESOURCE_URIS].sort());
    const tools = (await h.client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(['respond', 'close_thread']);
    const respond = tools[0]!;
    expect(Object.keys(respond.inputSchema.properties ?? {})).toEqual(['prompt', 'thread_id', 'instructions', 'tools', 'answers']);
    expect(respond.inputSchema.required).toEqual(['prompt']);
    expect(respond.description).toMatch(/answers/);
    expect(respond.outputSchema).toBeDefined();
  });

  it('publishes the catalogue, the config and the status', async () => {
    const h = await harness({ responses: [say('hi')], elicit: accept() });
    const catalogue = (await readJson(h, 'wisp://tools')) as { tools: Array<{ name: string; inputSchema: object }> };
    expect(catalogue.tools.map((t) => t.name)).toEqual(['run_command', 'read_file', 'edit_file', 'ask_operator']);
    expect(await read(h, 'wisp://tools.md')).toMatch(/^# wisp tools/);
    const config = await readJson(h, 'wisp://config');
    expect(config).toMatchObject({ escalation: { timeoutSeconds: 30, outOfBand: true }, mcp: { maxThreads: 32 } });
    await h.respond({ prompt: 'hello', thread_id: 'one' });
    const status = await readJson(h, 'wisp://status');
    expect(status).toMatchObject({
      session: h.server.session.id,
      entryPoint: 'mcp',
      channel: 'elicitation',
      threadCount: 1,
      client: 'wisp-test',
      clientElicitation: true,
      sessionApprovals: 0,
      tools: ['run_command', 'read_file', 'edit_file', 'ask_operator'],
    });
    expect(String(status.model)).toMatch(/^script:/);
    expect(status.sandbox).toMatchObject({ enabled: true });
  });

  it('shows threads with turns, stored approvals and what is waiting', async () => {
    const h = await harness({ responses: [run('touch w'), say('ok')], elicit: hanging() });
    const call = h.respond({ prompt: 'go', thread_id: 'busy' }).catch(() => undefined);
    await waitFor(() => h.elicitations.length === 1);
    const pending = (await readJson(h, 'wisp://pending')) as { waiting: Array<Record<string, unknown>> };
    expect(pending.waiting).toHaveLength(1);
    expect(pending.waiting[0]).toMatchObject({ verb: 'approval', command: 'touch w', thread: 'busy', legs: ['elicitation', 'queue'] });
    const threads = (await readJson(h, 'wisp://threads')) as { threads: Array<Record<string, unknown>> };
    expect(threads.threads[0]).toMatchObject({ thread_id: 'busy', busy: true });
    const approvals = await readJson(h, 'wisp://approvals');
    expect(approvals).toMatchObject({ stored: [], session: [] });
    await h.close();
    await call;
  });

  it("wisp://approvals shows only this project's stored approvals (and the always ones)", async () => {
    const h = await harness({ responses: [say('hi')], elicit: accept() });
    const store = h.server.session.store;
    const here = h.server.session.launchDir;
    store.add({ pattern: 'touch *', workingDirectory: here, scope: 'project', level: 'moderate', persistDays: 1, source: 'test' });
    store.add({ pattern: 'rm *', workingDirectory: '/some/other/project', scope: 'project', level: 'moderate', persistDays: 1, source: 'test' });
    store.add({ pattern: 'ls *', scope: 'always', level: 'moderate', persistDays: 1, source: 'test' });
    const approvals = (await readJson(h, 'wisp://approvals')) as { stored: Array<{ pattern: string }> };
    expect(approvals.stored.map((a) => a.pattern).sort()).toEqual(['ls *', 'touch *']);
  });

  it('wisp://pending lists result-channel inquiries and deferred approvals', async () => {
    const h = await harness({ channel: 'result', responses: [ask('Which?'), run('touch later'), say('waiting')] });
    await h.respond({ prompt: 'go', thread_id: 'r' });
    const pending = (await readJson(h, 'wisp://pending')) as { inquiries: unknown[]; approvals: unknown[] };
    expect(pending.inquiries).toMatchObject([{ verb: 'inquiry', question: 'Which?', thread: 'r' }]);
    expect(pending.approvals).toMatchObject([{ verb: 'approval', command: 'touch later', thread: 'r' }]);
  });
});
