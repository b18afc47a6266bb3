// The gate tells the runner when a line was allowed with nobody asked: such a line runs contained.
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit, type AuditContext } from '../../src/audit/kinds.js';
import { ConfigSchema, type ConfigInput } from '../../src/config/schema.js';
import { Gate, type GateDecision } from '../../src/gate/gate.js';
import { initParser } from '../../src/gate/parse.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import { CountingChannel } from '../helpers/counting-channel.js';

beforeAll(async () => {
  await initParser();
});

function setup(overrides: ConfigInput = {}, channel = new CountingChannel({ kind: 'approved', scope: 'session' }, 'auto')) {
  const sessionApprovals = new ApprovalCache();
  const gate = new Gate({ config: ConfigSchema.parse(overrides), audit: new MemoryAudit(), channel, sessionApprovals, source: 'test' });
  const ctx: AuditContext = { session: 's1', turn: 1 };
  const turn = new ApprovalCache();
  return { channel, clear: (line: string) => gate.clear({ line, cwd: '/a', ctx, turnApprovals: turn }) };
}

function unasked(d: GateDecision): boolean {
  expect(d.allowed).toBe(true);
  return d.allowed && d.unasked;
}

describe('GateDecision.unasked', () => {
  it('is true for a line whose every part is below the threshold', async () => {
    const g = setup();
    expect(unasked(await g.clear('ls -la | wc -l'))).toBe(true);
    expect(g.channel.asked).toHaveLength(0);
  });

  it('is false when --yes (the auto channel) approved a part', async () => {
    const g = setup();
    expect(unasked(await g.clear('touch notes.txt'))).toBe(false);
    expect(g.channel.asked).toHaveLength(1);
  });

  it('is false when one part of a mixed line needed approval, even if the others did not', async () => {
    const g = setup();
    expect(unasked(await g.clear('ls && touch notes.txt'))).toBe(false);
  });

  it('is false when a session answer covers the line, though nobody was asked this time', async () => {
    const g = setup();
    await g.clear('touch notes.txt');
    const again = await g.clear('touch notes.txt');
    expect(g.channel.asked).toHaveLength(1);
    expect(unasked(again)).toBe(false);
  });

  it('is true for a moderate line under threshold "never": nobody consented, so it runs contained', async () => {
    const g = setup({ approval: { threshold: 'never' } });
    expect(unasked(await g.clear('touch notes.txt'))).toBe(true);
    expect(g.channel.asked).toHaveLength(0);
  });
});
