// The elicitation channel end to end: a real SDK client answers `elicitation/create`; the command runs or not.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accept, ask, hanging, makeDirs, pendingFiles, run, say, startHarness, storedApprovals, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  open.push(h);
  return h;
}

describe('approval over elicitation', () => {
  it('accept (scope once) runs the command; the dialog shows it with authored headline and a scope picker', async () => {
    const h = await harness({ responses: [run('touch marker-once'), say('done')], elicit: accept('once') });
    const r = await h.respond({ prompt: 'make a marker' });
    expect(r.isError).toBeFalsy();
    expect(existsSync(join(h.dirs.work, 'marker-once'))).toBe(true);
    expect(r.structuredContent.refusals).toEqual([]);
    expect(r.structuredContent.text).toBe('done');
    expect(r.content[0]).toEqual({ type: 'text', text: 'done' });

    expect(h.elicitations).toHaveLength(1);
    const e = h.elicitations[0]!;
    const message = e.message;
    expect(message.split('\n')[0]).toBe('wisp: approve command? (moderate risk)');
    expect(message).toContain('Command:\ntouch marker-once');
    expect(message).toContain(`Directory: ${h.dirs.work}`);
    expect(message).toContain('Risk: moderate');
    expect(message).toContain('Remembered as: touch *');
    expect(message).toMatch(/No answer within 30 seconds counts as Decline/);
    const schema = e.requestedSchema as { properties: Record<string, { oneOf: Array<{ const: string }>; default: string }>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(['scope']);
    expect(schema.properties.scope!.oneOf.map((o) => o.const)).toEqual(['once', 'session', 'project', 'always']);
    expect(schema.properties.scope!.default).toBe('once');
    expect(schema.required).toEqual([]);

    const decided = h.events('approval.decided');
    expect(decided).toHaveLength(1);
    expect(decided[0]!.details).toMatchObject({ decision: 'approved', scope: 'once', channel: 'elicitation' });
    expect(r.structuredContent.receipt.approvals).toMatchObject([{ decision: 'approved', scope: 'once' }]);
    expect(r.structuredContent.receipt.commands).toMatchObject([{ command: 'touch marker-once', exitStatus: 0 }]);
  });

  it("uses the operator rule's authored ask as the headline", async () => {
    const h = await harness({
      responses: [run('touch asked'), say('ok')],
      elicit: async () => ({ action: 'decline' }),
      config: (c) => void c.policy.rules.push({ match: '^touch ', ask: 'Create a file in the project?' }),
    });
    await h.respond({ prompt: 'x' });
    expect(h.elicitations[0]!.message.split('\n')[0]).toBe('Create a file in the project?');
    expect(h.elicitations[0]!.message).toContain('Command:\ntouch asked');
  });

  it('accept without content counts as once; once is asked again on the next turn', async () => {
    const h = await harness({ responses: [run('touch a'), say('ok')], elicit: async () => ({ action: 'accept' }) });
    await h.respond({ prompt: 'one', thread_id: 'x' });
    await h.respond({ prompt: 'two', thread_id: 'y' });
    expect(h.elicitations).toHaveLength(2);
    expect(h.events('approval.decided').map((e) => e.details.scope)).toEqual(['once', 'once']);
  });

  it('session: a second identical call in the same server is not asked again', async () => {
    const h = await harness({ responses: [run('touch s1'), say('ok')], elicit: accept('session') });
    const a = await h.respond({ prompt: 'first' });
    const b = await h.respond({ prompt: 'second' }); // a new thread, same server
    expect(a.structuredContent.thread_id).not.toBe(b.structuredContent.thread_id);
    expect(h.elicitations).toHaveLength(1);
    expect(h.events('approval.decided').map((e) => e.details.decision)).toEqual(['approved', 'cached']);
    expect(b.structuredContent.receipt.approvals).toMatchObject([{ decision: 'cached', scope: 'session' }]);
    expect(storedApprovals(h.dirs)).toEqual([]);
  });

  it('project and always are recorded in approvals.json', async () => {
    const dirs = makeDirs();
    try {
      const p = await harness({ responses: [run('touch p1'), say('ok')], elicit: accept('project'), dirs });
      await p.respond({ prompt: 'go' });
      const a = await harness({ responses: [run('mkdir d1'), say('ok')], elicit: accept('always'), dirs });
      await a.respond({ prompt: 'go' });
      const stored = storedApprovals(dirs);
      expect(stored).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ pattern: 'touch *', scope: 'project', workingDirectory: dirs.work, source: 'mcp' }),
          expect.objectContaining({ pattern: 'mkdir *', scope: 'always', source: 'mcp' }),
        ]),
      );
      expect(existsSync(join(dirs.work, 'p1'))).toBe(true);
      expect(existsSync(join(dirs.work, 'd1'))).toBe(true);
    } finally {
      for (const h of open.splice(0)) await h.close();
      dirs.cleanup();
    }
  });

  it("a dangerous command's project answer is downgraded to session", async () => {
    const dirs = makeDirs();
    mkdirSync(join(dirs.work, 'build', 'x'), { recursive: true });
    try {
      const h = await harness({ responses: [run('rm -rf ./build'), say('ok')], elicit: accept('project'), dirs });
      const r = await h.respond({ prompt: 'clean' });
      expect(h.elicitations[0]!.message.split('\n')[0]).toBe('wisp: approve command? (dangerous risk)');
      expect(h.elicitations[0]!.message).toContain('never remembered beyond this session');
      expect(existsSync(join(dirs.work, 'build'))).toBe(false);
      expect(storedApprovals(dirs)).toEqual([]);
      expect(h.events('approval.decided')[0]!.details).toMatchObject({ decision: 'approved', scope: 'session', downgradedFrom: 'project' });
      expect(r.structuredContent.receipt.approvals).toMatchObject([{ scope: 'session', downgradedFrom: 'project' }]);
    } finally {
      for (const h of open.splice(0)) await h.close();
      dirs.cleanup();
    }
  });

  it('decline refuses (not isError) with "declined by the user"', async () => {
    const h = await harness({ responses: [run('touch nope'), say('understood')], elicit: async () => ({ action: 'decline' }) });
    const r = await h.respond({ prompt: 'make it' });
    expect(r.isError).toBeFalsy();
    expect(existsSync(join(h.dirs.work, 'nope'))).toBe(false);
    expect(r.structuredContent.refusals).toHaveLength(1);
    expect(r.structuredContent.refusals[0]).toMatchObject({ command: 'touch nope' });
    expect(r.structuredContent.refusals[0]!.reason).toContain('declined by the user');
    expect(h.events('approval.decided')[0]!.details).toMatchObject({ decision: 'denied', reason: 'declined by the user' });
    expect(h.events('escalation.settled').at(-1)!.details).toMatchObject({ outcome: 'answered', channel: 'elicitation' });
    expect(h.events('escalation.answered').filter((e) => e.details.channel === 'elicitation')[0]!.details).toMatchObject({ action: 'decline' });
  });

  it('cancel refuses with "cancelled by the user"', async () => {
    const h = await harness({ responses: [run('touch nope'), say('ok')], elicit: async () => ({ action: 'cancel' }) });
    const r = await h.respond({ prompt: 'make it' });
    expect(existsSync(join(h.dirs.work, 'nope'))).toBe(false);
    expect(r.structuredContent.refusals[0]!.reason).toContain('cancelled by the user');
  });

  it('timeout: unanswered becomes a refusal and the client receives notifications/cancelled', async () => {
    let withdrawn: unknown;
    const h = await harness({
      responses: [run('touch late'), say('ok')],
      elicit: hanging((reason) => (withdrawn = reason ?? 'aborted')),
      config: (c) => {
        c.escalation.timeoutSeconds = 1;
      },
    });
    const started = Date.now();
    const r = await h.respond({ prompt: 'make it' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(existsSync(join(h.dirs.work, 'late'))).toBe(false);
    expect(r.structuredContent.refusals[0]!.reason).toMatch(/no answer within 1s/);
    expect(h.elicitations[0]!.message).toContain('No answer within 1 second counts as Decline.');
    await expect.poll(() => withdrawn).toBeTruthy();
    expect(h.events('escalation.settled').at(-1)!.details).toMatchObject({ outcome: 'timed-out' });
    expect(pendingFiles(h.dirs)).toEqual([]);
  });

  it('shows control characters in the command visibly, never raw', async () => {
    const h = await harness({ responses: [run("touch 'a\u001b[2Kb\u202e'"), say('ok')], elicit: async () => ({ action: 'decline' }) });
    await h.respond({ prompt: 'x' });
    const message = h.elicitations[0]!.message;
    expect(message).not.toContain('\u001b');
    expect(message).not.toContain('\u202e');
    expect(message).toContain('\\x1b[2K');
    expect(message).toContain('<U+202E>');
  });

  it('sends progress notifications while waiting when the caller asked for them', async () => {
    const h = await harness({
      responses: [run('touch slow'), say('ok')],
      elicit: async () => {
        await new Promise((r) => setTimeout(r, 400));
        return { action: 'accept', content: { scope: 'once' } };
      },
      progressIntervalMs: 100,
    });
    const messages: string[] = [];
    await h.respond({ prompt: 'go' }, { onprogress: (p) => messages.push(p.message ?? '') });
    expect(messages.some((m) => m.startsWith('waiting for approval of touch slow'))).toBe(true);
    expect(messages.some((m) => m.startsWith('still waiting'))).toBe(true);
    expect(messages.some((m) => m.includes('run_command: touch slow'))).toBe(true);
  });
});

describe('inquiry over elicitation', () => {
  it('asks the question in an answer field and hands the answer to the model', async () => {
    const h = await harness({
      responses: [ask('Which file?\u001b[31m'), say('thanks')],
      elicit: async () => ({ action: 'accept', content: { answer: 'notes.txt' } }),
    });
    const r = await h.respond({ prompt: 'tidy up' });
    const e = h.elicitations[0]!;
    expect(e.message.split('\n')[0]).toBe('wisp: the model has a question for you');
    expect(e.message).toContain('Question:\nWhich file?\\x1b[31m');
    expect(Object.keys((e.requestedSchema as { properties: object }).properties)).toEqual(['answer']);
    const toolMessage = h.models[0]!.calls[1]!.find((m) => m.role === 'tool');
    expect(toolMessage?.content).toContain('notes.txt');
    expect(r.structuredContent.receipt.inquiries).toMatchObject([{ outcome: 'answered', channel: 'elicitation' }]);
    expect(h.events('inquiry.decided')[0]!.details).toMatchObject({ decision: 'answered', answer: 'notes.txt' });
  });

  it('uses a flat schema as the form and returns the content as JSON', async () => {
    const schema = { type: 'object', properties: { file: { type: 'string', title: 'File' }, overwrite: { type: 'boolean' } }, required: ['file'] };
    const h = await harness({
      responses: [ask('Where?', schema), say('ok')],
      elicit: async () => ({ action: 'accept', content: { file: 'a.txt', overwrite: true } }),
    });
    await h.respond({ prompt: 'x' });
    const req = h.elicitations[0]!.requestedSchema as { properties: Record<string, { type: string }>; required: string[] };
    expect(Object.keys(req.properties)).toEqual(['file', 'overwrite']);
    expect(req.properties.overwrite!.type).toBe('boolean');
    expect(req.required).toEqual(['file']);
    expect(h.events('inquiry.decided')[0]!.details.answer).toBe(JSON.stringify({ file: 'a.txt', overwrite: true }));
  });

  it('a nested schema asks for JSON, validates it, and declines an answer that does not match', async () => {
    const schema = {
      type: 'object',
      properties: { files: { type: 'array', items: { type: 'string' } } },
      required: ['files'],
    };
    let answer = '{"files": ["a", "b"]}';
    const h = await harness({
      responses: [ask('Which files?', schema), say('ok')],
      elicit: async () => ({ action: 'accept', content: { answer } }),
    });
    await h.respond({ prompt: 'x', thread_id: 'good' });
    expect(h.elicitations[0]!.message).toContain('Answer with JSON that matches this schema:');
    expect(h.events('inquiry.decided')[0]!.details).toMatchObject({ decision: 'answered', answer: '{"files":["a","b"]}' });

    answer = '{"files": "not a list"}';
    await h.respond({ prompt: 'x', thread_id: 'bad' });
    expect(h.events('inquiry.decided')[1]!.details).toMatchObject({ decision: 'declined' });
    expect(String(h.events('inquiry.decided')[1]!.details.reason)).toMatch(/does not match the requested schema/);

    answer = 'not json';
    await h.respond({ prompt: 'x', thread_id: 'worse' });
    expect(String(h.events('inquiry.decided')[2]!.details.reason)).toMatch(/not JSON/);
  });
});

describe('arguments', () => {
  it('bad arguments are invalidParams with an actionable message; the channel is operator-only', async () => {
    const h = await harness({ responses: [say('hi'), say('again')], elicit: accept() });
    const bad = async (args: Record<string, unknown>) => {
      try {
        await h.respond(args);
      } catch (err) {
        return err as { code: number; message: string };
      }
      throw new Error('expected invalidParams');
    };
    const missing = await bad({});
    expect(missing.code).toBe(-32602);
    expect(missing.message).toMatch(/prompt/);
    const channel = await bad({ prompt: 'x', escalation: 'auto' });
    expect(channel.code).toBe(-32602);
    expect(channel.message).toMatch(/chosen by the operator/);
    const thread = await bad({ prompt: 'x', thread_id: 'no spaces please' });
    expect(thread.message).toMatch(/thread_id/);
    const tool = await bad({ prompt: 'x', tools: ['rm_rf'] });
    expect(tool.message).toMatch(/rm_rf not offered by this server/);
    const scope = await bad({ prompt: 'x', answers: [{ id: 'abc', scope: 'always' }] });
    expect(scope.message).toMatch(/wisp approvals approve/);

    const first = await h.respond({ prompt: 'hello', thread_id: 'th1', instructions: 'be brief', tools: [] });
    expect(first.structuredContent.created).toBe(true);
    const again = await bad({ prompt: 'again', thread_id: 'th1', instructions: 'be verbose' });
    expect(again.code).toBe(-32602);
    expect(again.message).toMatch(/only when a thread is created; thread th1 already exists/);
    const cont = await h.respond({ prompt: 'hello', thread_id: 'th1' });
    expect(cont.structuredContent.created).toBe(false);
    // What the thread was created with holds: its instructions reach the model, and it has no tools.
    expect(h.models[0]!.calls[0]![0]!.content).toContain('be brief');
    expect(h.events('session.start').find((e) => e.thread === 'th1')!.details).toMatchObject({ tools: [], instructions: 'be brief', parent: h.server.session.id });

    await expect(h.client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(h.events('mcp.result').filter((e) => e.details.isError).length).toBeGreaterThanOrEqual(6);
  });

  it('a model failure is an isError result, audited', async () => {
    const h = await harness({ responses: [say('one')], elicit: accept() });
    await h.respond({ prompt: 'a', thread_id: 't' });
    const r = await h.respond({ prompt: 'b', thread_id: 't' }); // the script has nothing left
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toMatch(/no response left/);
    expect(h.events('mcp.result').at(-1)!.details).toMatchObject({ tool: 'respond', isError: true });
  });

  it('audits mcp.request and mcp.result', async () => {
    const h = await harness({ responses: [say('hi')], elicit: accept() });
    await h.respond({ prompt: 'hello' });
    expect(h.events('mcp.request')[0]!.details).toMatchObject({ tool: 'respond', arguments: { prompt: 'hello' } });
    expect(h.events('mcp.result')[0]!.details).toMatchObject({ tool: 'respond', isError: false, text: 'hi' });
    expect(typeof h.events('mcp.result')[0]!.details.seconds).toBe('number');
  });
});
