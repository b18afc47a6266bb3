// Operator events are worded in one place (src/audit/operator.ts): the CLI and the chat record a config change or a
// revocation with the same fields, the chat's marked `via: chat`, and the CLI's under a `cli-…` session of its own.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { operatorEvent, recordOperatorEvent, writeOperatorEvent, type ConfigChangeFields } from '../../src/audit/operator.js';
import { auditRotation } from '../../src/config/audit-rotation.js';
import { wispPaths } from '../../src/core/paths.js';

const change: ConfigChangeFields = {
  action: 'set',
  key: 'approval.threshold',
  before: 'moderate',
  after: 'dangerous',
  fileBefore: undefined,
  fileAfter: 'dangerous',
  file: '/home/u/.wisp/config.json',
  weakens: ['approval.threshold: fewer commands are asked about'],
};

describe('operator events', () => {
  it('a config change from the chat has the CLI\'s fields plus via: chat; a key absent from the file is left out', () => {
    const cli = operatorEvent({ kind: 'config.change', change });
    const chat = operatorEvent({ kind: 'config.change', change, via: 'chat' });
    expect(cli.kind).toBe('config.change');
    expect(cli.details).toEqual({
      action: 'set',
      key: 'approval.threshold',
      before: 'moderate',
      after: 'dangerous',
      fileAfter: 'dangerous',
      file: '/home/u/.wisp/config.json',
      weakens: ['approval.threshold: fewer commands are asked about'],
    });
    expect(chat.details).toEqual({ ...cli.details, via: 'chat' });
  });

  it('a revocation is recorded alike from the CLI (own cli- session, in the log file) and the chat (its session)', () => {
    const home = mkdtempSync(join(tmpdir(), 'wisp-op-'));
    const paths = wispPaths(home);
    const revocation = { action: 'revoke' as const, ids: ['0123abcd'], pattern: 'touch *', scope: 'project' };
    recordOperatorEvent(paths, auditRotation({ home, cwd: home }), { kind: 'approval.revoked', revocation });
    const line = JSON.parse(readFileSync(paths.audit, 'utf8').trim().split('\n').at(-1)!) as { kind: string; session: string; details: unknown };
    expect(line.kind).toBe('approval.revoked');
    expect(line.session).toMatch(/^cli-/);
    const chat = new MemoryAudit();
    writeOperatorEvent(chat, { session: 'chat-1' }, { kind: 'approval.revoked', revocation });
    expect(chat.events[0]!.details).toEqual(line.details);
    expect(line.details).toEqual({ action: 'revoke', ids: ['0123abcd'], pattern: 'touch *', scope: 'project' });
  });
});
