// The terminal channel under the real gate: the standing rules of design.md §2 hold for the chat's dialog too.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { Gate } from '../../src/gate/gate.js';
import { initParser } from '../../src/gate/parse.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import { DialogStore, type DialogResult } from '../../ui/dialog-store.js';
import { DECLINED_IN_CHAT, TerminalChannel } from '../../ui/terminal-channel.js';

beforeAll(async () => {
  await initParser();
});

/** A gate whose channel is the chat's dialog; `person` answers each dialog as it opens. */
function setup(person: (store: DialogStore, id: string) => void, timeoutSeconds = 600) {
  const store = new DialogStore();
  store.subscribe(() => {
    const active = store.snapshot().active;
    if (active) queueMicrotask(() => person(store, active.id));
  });
  const audit = new MemoryAudit();
  const sessionApprovals = new ApprovalCache();
  const added: unknown[] = [];
  const gate = new Gate({
    config: ConfigSchema.parse({ escalation: { timeoutSeconds } }),
    audit,
    channel: new TerminalChannel(store),
    store: { find: () => undefined, add: (e) => (added.push(e), { id: 'st1', expiresAt: '2099-01-01T00:00:00Z' }) },
    sessionApprovals,
    source: 'chat',
  });
  const clear = (line: string) => gate.clear({ line, cwd: '/tmp', ctx: { session: 's', turn: 1 }, turnApprovals: new ApprovalCache() });
  return { store, audit, gate, clear, sessionApprovals, added };
}

const answer = (result: DialogResult) => (store: DialogStore, id: string) => store.settle(id, result);

describe('TerminalChannel under the gate', () => {
  it('s approves for the session; the gate line says so and the audit names the terminal channel', async () => {
    const g = setup(answer({ kind: 'approved', scope: 'session' }));
    const d = await g.clear('touch marker-t');
    expect(d.allowed).toBe(true);
    expect(d.notes).toEqual(['approved (session)']);
    expect(g.audit.ofKind('approval.requested')[0]!.details).toMatchObject({ channel: 'terminal' });
    expect(g.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ channel: 'terminal', decision: 'approved', scope: 'session' });
  });

  it('n refuses the whole line with the dialog reason', async () => {
    const g = setup(answer({ kind: 'declined', reason: DECLINED_IN_CHAT }));
    const d = await g.clear('touch marker-t');
    expect(d.allowed).toBe(false);
    expect(!d.allowed && d.reason).toContain(DECLINED_IN_CHAT);
  });

  it('a dangerous command answered "always" is kept for the session only (downgradedFrom)', async () => {
    const g = setup(answer({ kind: 'approved', scope: 'always' }));
    const d = await g.clear('rm -rf ./build');
    expect(d.allowed).toBe(true);
    expect(d.notes[0]).toMatch(/approved \(session; a dangerous command is kept for this session only\)/);
    expect(g.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ scope: 'session', downgradedFrom: 'always' });
    expect(g.added).toEqual([]);
  });

  it('silence is a refusal within escalation.timeoutSeconds, audited timed-out', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const g = setup(() => {}, 3);
      const pending = g.clear('touch marker-t');
      await vi.advanceTimersByTimeAsync(3_000);
      const d = await pending;
      expect(d.allowed).toBe(false);
      expect(d.notes).toEqual(['no answer in time, refused']);
      expect(g.audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ channel: 'terminal', outcome: 'timed-out' });
      expect(g.store.snapshot().active).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a request withdrawn by the caller is abandoned, not approved', async () => {
    const g = setup(() => {});
    const ac = new AbortController();
    const pending = g.gate.clear({ line: 'touch x', cwd: '/tmp', ctx: { session: 's' }, turnApprovals: new ApprovalCache(), signal: ac.signal });
    await new Promise((r) => setTimeout(r, 10));
    ac.abort();
    const d = await pending;
    expect(d.allowed).toBe(false);
    expect(g.audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ outcome: 'abandoned' });
  });
});
