// The attack tests' question "does an answer for one line cover another?": a gate whose person says yes, for the
// session, to every question, asked about `approved` and then about `later`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { MemoryAudit, type AuditContext } from '../../src/audit/kinds.js';
import { type Config, ConfigSchema } from '../../src/config/schema.js';
import { Gate } from '../../src/gate/gate.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import { ApprovalStore } from '../../src/gate/store.js';
import { CountingChannel } from './counting-channel.js';

/** The commands the person is asked about for `later`, after saying yes, for the session, to all of `approved`. */
export async function askedAfterSessionAnswer(approved: string, later: string, project: string, config: Config = ConfigSchema.parse({})): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-session-answer-'));
  try {
    const channel = new CountingChannel({ kind: 'approved', scope: 'session' });
    const gate = new Gate({
      config,
      audit: new MemoryAudit(),
      channel,
      store: new ApprovalStore(join(dir, 'approvals.json')),
      sessionApprovals: new ApprovalCache(),
      source: 'test',
      project,
    });
    const ctx: AuditContext = { session: 's', turn: 1 };
    const clear = (line: string) => gate.clear({ line, cwd: project, ctx, turnApprovals: new ApprovalCache() });
    expect((await clear(approved)).allowed).toBe(true);
    const before = channel.asked.length;
    await clear(later);
    return channel.asked.slice(before).map((e) => (e.verb === 'approval' ? e.request.command : e.verb));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
