// The dialog raced with the queue (escalation.outOfBand, default on): the first answer wins and the other leg is
// withdrawn. A client without elicitation gets the queue alone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answerRequest, listPending } from '../../src/escalation/queue/answerer.js';
import { hanging, pendingFiles, run, say, startHarness, waitFor, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});
async function harness(...args: Parameters<typeof startHarness>): Promise<Harness> {
  const h = await startHarness(...args);
  open.push(h);
  return h;
}

describe('elicitation raced with the queue', () => {
  it('the queue answering first withdraws the dialog (the client receives the cancellation)', async () => {
    let withdrawn: unknown;
    const h = await harness({ responses: [run('touch via-queue'), say('ok')], elicit: hanging((reason) => (withdrawn = reason ?? 'aborted')) });
    const call = h.respond({ prompt: 'go' });
    await waitFor(() => h.elicitations.length === 1);
    const request = await waitFor(() => listPending(h.dirs.paths, 'approval')[0]);
    // The dialog tells the person about the terminal route too, under the same id.
    expect(h.elicitations[0]!.message).toContain(`wisp approvals approve ${request.id}`);
    expect(request).toMatchObject({ command: 'touch via-queue', client: 'wisp-test' });
    expect(answerRequest(h.dirs.paths, request, { decision: 'session' }, { via: 'cli' }).ok).toBe(true);
    const r = await call;
    expect(r.structuredContent.refusals).toEqual([]);
    expect(existsSync(join(h.dirs.work, 'via-queue'))).toBe(true);
    await waitFor(() => withdrawn !== undefined);
    expect(h.events('approval.decided')[0]!.details).toMatchObject({ decision: 'approved', scope: 'session', channel: 'queue' });
    await waitFor(() => pendingFiles(h.dirs).length === 0);
  });

  it('the dialog answering first removes the queue files', async () => {
    let filesWhileAsking: string[] = [];
    let id = '';
    const h = await harness({
      responses: [run('touch via-dialog'), say('ok')],
      elicit: async (req) => {
        id = String((req.params._meta as Record<string, unknown>)['wisp/escalation']);
        filesWhileAsking = await waitFor(() => {
          const f = pendingFiles(h.dirs);
          return f.length > 0 && f;
        });
        return { action: 'accept', content: { scope: 'once' } };
      },
    });
    const r = await h.respond({ prompt: 'go' });
    expect(filesWhileAsking).toContain(`${id}.request.json`);
    expect(r.structuredContent.refusals).toEqual([]);
    expect(existsSync(join(h.dirs.work, 'via-dialog'))).toBe(true);
    expect(pendingFiles(h.dirs)).toEqual([]);
    expect(h.events('approval.decided')[0]!.details).toMatchObject({ channel: 'elicitation', escalationId: id });
  });

  it('with outOfBand off, only the dialog is raised', async () => {
    const h = await harness({
      responses: [run('touch solo'), say('ok')],
      elicit: async () => {
        expect(pendingFiles(h.dirs)).toEqual([]);
        return { action: 'accept', content: { scope: 'once' } };
      },
      config: (c) => void (c.escalation.outOfBand = false),
    });
    const r = await h.respond({ prompt: 'go' });
    expect(r.structuredContent.refusals).toEqual([]);
    expect(h.elicitations[0]!.message).not.toContain('wisp approvals approve');
  });
});

describe('a client without elicitation', () => {
  it('gets the queue alone: approved in the queue → runs; denied → refused', async () => {
    const h = await harness({ responses: [run('touch q-marker'), say('ok')] });
    const call = h.respond({ prompt: 'go', thread_id: 'yes' });
    const request = await waitFor(() => listPending(h.dirs.paths, 'approval')[0]);
    answerRequest(h.dirs.paths, request, { decision: 'once' }, { via: 'cli' });
    const r = await call;
    expect(r.structuredContent.refusals).toEqual([]);
    expect(existsSync(join(h.dirs.work, 'q-marker'))).toBe(true);
    expect(h.elicitations).toEqual([]);
    expect(h.events('approval.decided')[0]!.details).toMatchObject({ channel: 'queue', decision: 'approved' });

    const call2 = h.respond({ prompt: 'go', thread_id: 'no' });
    const request2 = await waitFor(() => listPending(h.dirs.paths, 'approval')[0]);
    answerRequest(h.dirs.paths, request2, { decision: 'no' }, { via: 'cli' });
    const r2 = await call2;
    expect(r2.structuredContent.refusals[0]!.reason).toMatch(/declined by the person/);
  });

  it('with outOfBand off, it is refused with a reason that says what to do', async () => {
    const h = await harness({ responses: [run('touch never'), say('ok')], config: (c) => void (c.escalation.outOfBand = false) });
    const r = await h.respond({ prompt: 'go' });
    expect(r.structuredContent.refusals[0]!.reason).toMatch(/does not support elicitation/);
    expect(existsSync(join(h.dirs.work, 'never'))).toBe(false);
  });
});
