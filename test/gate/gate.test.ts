import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit, type AuditContext, type AuditKind, type AuditSink } from '../../src/audit/kinds.js';
import { ConfigSchema, type ConfigInput } from '../../src/config/schema.js';
import { Gate, type StoreLike } from '../../src/gate/gate.js';
import { initParser } from '../../src/gate/parse.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import type { Level } from '../../src/core/levels.js';
import { CountingChannel } from '../helpers/counting-channel.js';

beforeAll(async () => {
  await initParser();
});

class MemoryStore implements StoreLike {
  entries: Array<{ id: string; pattern: string; workingDirectory?: string; scope: 'project' | 'always'; level: Level; expiresAt: string }> = [];
  find(pattern: string, directory: string, level: Level) {
    if (level === 'dangerous') return undefined;
    return this.entries.find((e) => e.pattern === pattern && (e.scope === 'always' || e.workingDirectory === directory));
  }
  add(e: { pattern: string; workingDirectory?: string; scope: 'project' | 'always'; level: Level }) {
    const entry = { ...e, id: `id${this.entries.length}`, expiresAt: '2099-01-01T00:00:00.000Z' };
    this.entries.push(entry);
    return entry;
  }
}

function setup(overrides: ConfigInput = {}, channel = new CountingChannel()) {
  const audit = new MemoryAudit();
  const store = new MemoryStore();
  const sessionApprovals = new ApprovalCache();
  const gate = new Gate({ config: ConfigSchema.parse(overrides), audit, channel, store, sessionApprovals, source: 'test' });
  const ctx: AuditContext = { session: 's1', turn: 1 };
  let turn = new ApprovalCache();
  const clear = (line: string, cwd = '/a') => gate.clear({ line, cwd, ctx, turnApprovals: turn });
  const newTurn = () => {
    turn = new ApprovalCache();
  };
  return { audit, store, channel, gate, clear, newTurn, sessionApprovals };
}

describe('gate decision order', () => {
  it('runs a known read-only command without asking', async () => {
    const g = setup();
    const d = await g.clear('ls -la');
    expect(d.allowed).toBe(true);
    expect(d.notes).toEqual(['safe by rules']);
    expect(g.channel.asked).toHaveLength(0);
  });

  it('refuses a policy-denied line before classifying or asking, even under auto', async () => {
    const g = setup({}, new CountingChannel({ kind: 'approved', scope: 'once' }, 'auto'));
    const d = await g.clear('ls && sudo rm -rf /');
    expect(d.allowed).toBe(false);
    if (d.allowed) return;
    expect(d.cause).toBe('policy');
    expect(d.reason).toMatch(/denied by policy/);
    expect(g.channel.asked).toHaveLength(0);
    expect(g.audit.ofKind('classifier.verdict')).toHaveLength(0);
    expect(g.audit.ofKind('policy.decision')[0]!.details).toMatchObject({ verdict: 'denied' });
  });

  it('asks for a moderate part and records the answer with its channel', async () => {
    const g = setup();
    const d = await g.clear('touch notes.txt');
    expect(d.allowed).toBe(true);
    expect(g.channel.asked).toHaveLength(1);
    const requested = g.audit.ofKind('approval.requested')[0]!.details;
    const decided = g.audit.ofKind('approval.decided')[0]!.details;
    expect(requested).toMatchObject({ command: 'touch notes.txt', channel: 'terminal', level: 'moderate' });
    expect(decided).toMatchObject({ decision: 'approved', scope: 'session', channel: 'terminal', escalationId: requested.escalationId });
    expect(g.audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ outcome: 'answered', channel: 'terminal' });
  });

  it('refuses the whole line when one part is declined, naming the part', async () => {
    const g = setup({}, new CountingChannel({ kind: 'declined', reason: 'declined by the user' }));
    const d = await g.clear('ls && touch a | wc -l');
    expect(d.allowed).toBe(false);
    if (d.allowed) return;
    expect(d.reason).toContain('touch a: declined by the user');
    expect(d.cause).toBe('declined');
  });

  it('treats silence as a refusal', async () => {
    const g = setup({}, new CountingChannel({ kind: 'unanswered', waitedMs: 3000 }));
    const d = await g.clear('touch a');
    expect(d.allowed).toBe(false);
    if (d.allowed) return;
    expect(d.cause).toBe('timed-out');
    expect(d.reason).toMatch(/no answer within 3s/);
    expect(g.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ decision: 'timed-out' });
    expect(g.audit.ofKind('escalation.settled')[0]!.details).toMatchObject({ outcome: 'timed-out' });
  });

  it('passes the bounded wait to the channel', async () => {
    const g = setup({ escalation: { timeoutSeconds: 7 } });
    await g.clear('touch a');
    expect(g.channel.contexts[0]!.timeoutMs).toBe(7000);
  });
});

describe('remembered answers', () => {
  it('caches session answers per pattern and directory (spec: 3 asks)', async () => {
    const g = setup();
    await g.clear('git push', '/a');
    await g.clear('git push', '/a');
    await g.clear('git push', '/b');
    await g.clear('git push origin', '/a');
    await g.clear('hg push', '/a');
    expect(g.channel.asked).toHaveLength(3);
  });

  it('asks once for git commit twice and once for git push (spec: 2 asks)', async () => {
    const g = setup();
    await g.clear('git commit -q -m a');
    await g.clear('git commit -m x');
    await g.clear('git push origin main');
    expect(g.channel.asked).toHaveLength(2);
  });

  it('keeps a once answer for exactly that line, for the rest of the turn only', async () => {
    const g = setup({}, new CountingChannel({ kind: 'approved', scope: 'once' }));
    await g.clear('touch a');
    await g.clear('touch a');
    expect(g.channel.asked).toHaveLength(1);
    // Issue #12: `once` covers the text approved, not its pattern.
    await g.clear('touch b');
    expect(g.channel.asked).toHaveLength(2);
    g.newTurn();
    await g.clear('touch a');
    expect(g.channel.asked).toHaveLength(3);
  });

  it('stores project and always answers and uses them later', async () => {
    const g = setup({}, new CountingChannel({ kind: 'approved', scope: 'project' }));
    await g.clear('touch a', '/proj');
    expect(g.store.entries).toMatchObject([{ pattern: 'touch *', scope: 'project', workingDirectory: '/proj' }]);
    g.sessionApprovals.clear();
    g.newTurn();
    const d = await g.clear('touch b', '/proj');
    expect(d.allowed && d.notes).toEqual(['allowed by your standing approval']);
    expect(g.channel.asked).toHaveLength(1);
    expect(g.audit.ofKind('approval.decided').at(-1)!.details).toMatchObject({ decision: 'cached-project' });
  });

  it('downgrades a dangerous always answer to session and never stores it', async () => {
    const g = setup({}, new CountingChannel({ kind: 'approved', scope: 'always' }));
    const d = await g.clear('git push --force origin main');
    expect(d.allowed).toBe(true);
    expect(g.store.entries).toHaveLength(0);
    expect(g.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ scope: 'session', downgradedFrom: 'always' });
  });

  it('never consults the store for a dangerous part', async () => {
    const g = setup();
    g.store.entries.push({ id: 'x', pattern: 'rm -rf ./build', scope: 'always', level: 'moderate', expiresAt: '2099-01-01T00:00:00Z' });
    await g.clear('rm -rf ./build');
    expect(g.channel.asked).toHaveLength(1);
  });

  it('never asks at threshold never, and asks for safe parts at threshold safe', async () => {
    const never = setup({ approval: { threshold: 'never' } });
    expect((await never.clear('git push --force')).allowed).toBe(true);
    expect(never.channel.asked).toHaveLength(0);
    const safe = setup({ approval: { threshold: 'safe' } });
    await safe.clear('ls');
    expect(safe.channel.asked).toHaveLength(1);
  });
});

describe('failing closed', () => {
  it('refuses when the audit log cannot be written', async () => {
    const broken: AuditSink = {
      write(kind: AuditKind) {
        throw new Error(`disk full while writing ${kind}`);
      },
    };
    const channel = new CountingChannel();
    const gate = new Gate({ config: ConfigSchema.parse({}), audit: broken, channel, sessionApprovals: new ApprovalCache(), source: 't' });
    const d = await gate.clear({ line: 'ls', cwd: '/a', ctx: { session: 's' }, turnApprovals: new ApprovalCache() });
    expect(d.allowed).toBe(false);
    if (!d.allowed) expect(d.reason).toMatch(/disk full/);
  });

  it('refuses when the channel throws', async () => {
    const g = setup();
    g.channel.set(() => {
      throw new Error('dialog crashed');
    });
    const d = await g.clear('touch a');
    expect(d.allowed).toBe(false);
    if (!d.allowed) expect(d.reason).toMatch(/approval request failed: dialog crashed/);
  });

  it('reports a pending approval with its id and how a person answers', async () => {
    const g = setup({}, new CountingChannel({ kind: 'pending', id: 'ab12cd34' }, 'result'));
    const d = await g.clear('touch a');
    expect(d.allowed).toBe(false);
    if (d.allowed) return;
    expect(d.cause).toBe('pending');
    expect(d.pending).toMatchObject({ id: 'ab12cd34', command: 'touch a', pattern: 'touch *' });
    expect(d.reason).toContain('wisp approvals approve ab12cd34');
  });
});
