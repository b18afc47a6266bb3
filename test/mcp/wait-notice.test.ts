// `wisp mcp` announces a wait a person can answer in a terminal (the queue is a leg) where its operator sees it —
// stderr — once, so a client that shows no progress does not leave the wait silent (ADR 0097).
import { afterEach, describe, expect, it } from 'vitest';
import { accept, run, say, startHarness, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

describe('wisp mcp: a wait a person can answer in a terminal is announced', () => {
  it('attack: --escalation queue with a client that asked for no progress does not wait in silence (before: nothing said anywhere)', async () => {
    const lines: string[] = [];
    const h = await startHarness({
      channel: 'queue',
      responses: [run('touch made'), say('done')],
      config: (c) => void (c.escalation.timeoutSeconds = 1),
      notice: (l) => lines.push(l),
    });
    open.push(h);
    const r = await h.respond({ prompt: 'make it' });
    expect(r.structuredContent.refusals[0]!.reason).toMatch(/no answer within 1s/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^waiting for approval of touch made \([0-9a-f]{8}\); answer in a terminal: wisp approvals approve [0-9a-f]{8}$/);
  });

  it('the elicitation channel without the queue (outOfBand off) announces nothing: the dialog is the only way', async () => {
    const lines: string[] = [];
    const h = await startHarness({
      responses: [run('touch made'), say('done')],
      elicit: accept('once'),
      config: (c) => void (c.escalation.outOfBand = false),
      notice: (l) => lines.push(l),
    });
    open.push(h);
    await h.respond({ prompt: 'make it' });
    expect(lines).toEqual([]);
  });
});
