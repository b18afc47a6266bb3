// `wisp mcp` ended while a person's dialog is open (ADR 0102): SIGTERM reached main, which exited at once — no
// settlement, no session.end, the mcp face's own orderly end never ran. And a client that disconnects was recorded as
// "the call was cancelled", which it was not. Now both settle the wait first, in words that say what happened.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, ensureBuilt, spawnMcp, type FileEvent } from './cli.js';
import { hanging, makeDirs, run, say, startHarness, waitFor, writeScript, type Dirs } from './helpers.js';

beforeAll(() => ensureBuilt());
const made: Dirs[] = [];
afterEach(() => {
  for (const d of made.splice(0)) d.cleanup();
});

const gone = (pid: number) => () => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

async function waitingDialog() {
  const dirs = makeDirs();
  made.push(dirs);
  const script = writeScript(dirs, [run('touch never-ran'), say('x')]);
  let asked = false;
  const handler = hanging();
  const { client, transport } = await spawnMcp(dirs, ['-m', `script:${script}`, '--escalation', 'elicitation'], (req, extra) => {
    asked = true;
    return handler(req, extra);
  });
  void client.callTool({ name: 'respond', arguments: { prompt: 'go' } }, undefined, { timeout: 60_000 }).catch(() => undefined);
  await waitFor(() => asked, 20_000);
  return { dirs, client, pid: transport.pid! };
}

const settledOf = (events: FileEvent[]) => events.filter((e) => e.kind === 'escalation.settled').map((e) => e.details);

describe('wisp mcp ended during a dialog', () => {
  it('attack: SIGTERM while a person is asked left the request undecided in the audit log — now settled, the threads ended, then the server', async () => {
    const { dirs, pid } = await waitingDialog();
    process.kill(pid, 'SIGTERM');
    await waitFor(gone(pid), 15_000);
    const events = auditEvents(dirs);
    expect(settledOf(events)).toEqual([
      expect.objectContaining({ outcome: 'abandoned', channel: 'elicitation', reason: 'wisp mcp was stopped (SIGTERM) before an answer came' }),
    ]);
    const ends = events.filter((e) => e.kind === 'session.end').map((e) => e.details);
    expect(ends).toEqual([expect.objectContaining({ reason: 'shutdown', dropped: [expect.any(String)] }), { reason: 'terminated' }]);
    expect(existsSync(join(dirs.work, 'never-ran'))).toBe(false);
  });

  it('attack: a client that disconnects is not said to have cancelled the call', async () => {
    const { dirs, client, pid } = await waitingDialog();
    await client.close();
    await waitFor(gone(pid), 15_000);
    const events = auditEvents(dirs);
    expect(settledOf(events)).toEqual([
      expect.objectContaining({
        outcome: 'abandoned',
        reason: 'the MCP client disconnected (its end of standard input closed) before an answer came',
      }),
    ]);
    const decided = events.filter((e) => e.kind === 'approval.decided');
    expect(decided).toHaveLength(1);
    expect(JSON.stringify(events)).not.toContain('the call was cancelled');
    expect(existsSync(join(dirs.work, 'never-ran'))).toBe(false);
  });
});

describe('close_thread while a call on it waits for a person', () => {
  it('attack: the settlement said "the call was cancelled" after the thread had ended — now the thread closing is the reason, before session.end', async () => {
    const h = await startHarness({ responses: [run('touch never-closed'), say('x')], elicit: hanging() });
    try {
      const call = h.respond({ prompt: 'go', thread_id: 'c' }).catch(() => undefined);
      await waitFor(() => h.elicitations.length > 0, 20_000);
      const closed = await h.client.callTool({ name: 'close_thread', arguments: { thread_id: 'c' } });
      expect((closed.structuredContent as { dropped: string[] }).dropped).toHaveLength(1);
      await call;
      const kinds = h.audit.events.filter((e) => e.thread === 'c').map((e) => e.kind);
      expect(kinds.indexOf('escalation.settled')).toBeLessThan(kinds.indexOf('session.end'));
      expect(h.events('escalation.settled').map((e) => e.details)).toEqual([
        expect.objectContaining({ outcome: 'abandoned', reason: 'the thread was closed (close_thread) before an answer came' }),
      ]);
      expect(existsSync(join(h.dirs.work, 'never-closed'))).toBe(false);
    } finally {
      await h.close();
    }
  });
});
