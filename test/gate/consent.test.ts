// Consent means what was shown (issue #12 point 3, ADR 0015): a `once` answer covers exactly the approved text; a
// kept answer covers another line only at no higher level and with no reason the approved one lacked; edit_file
// answers are per path and never cover git's files, wisp's config, package.json or paths outside the project; a
// project approval holds only in its project.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryAudit, type AuditContext } from '../../src/audit/kinds.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { editAskedEveryTime, editFileAnalysis } from '../../src/gate/edit-consent.js';
import { Gate } from '../../src/gate/gate.js';
import { initParser } from '../../src/gate/parse.js';
import { ApprovalCache } from '../../src/gate/session-approvals.js';
import { ApprovalStore } from '../../src/gate/store.js';
import type { Scope } from '../../src/core/scopes.js';
import { CountingChannel } from '../helpers/counting-channel.js';

beforeAll(async () => {
  await initParser();
});

const PROJECT = '/work/proj';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(scope: Scope, project: string | undefined = PROJECT, store?: ApprovalStore) {
  const config = ConfigSchema.parse({});
  const channel = new CountingChannel({ kind: 'approved', scope });
  const audit = new MemoryAudit();
  const sessionApprovals = new ApprovalCache();
  const s = store ?? new ApprovalStore(join(tempDir(), 'approvals.json'));
  const gate = new Gate({ config, audit, channel, store: s, sessionApprovals, source: 'test', ...(project !== undefined ? { project } : {}) });
  const ctx: AuditContext = { session: 's', turn: 1 };
  const turn = new ApprovalCache();
  const clear = (line: string, cwd = PROJECT) => gate.clear({ line, cwd, ctx, turnApprovals: turn });
  const edit = (path: string) => {
    const line = `edit_file append ${path}`;
    return gate.clear({ line, cwd: PROJECT, ctx, turnApprovals: turn, analysis: editFileAnalysis(line, join(PROJECT, path), config, PROJECT) });
  };
  return { gate, channel, clear, edit, store: s, audit };
}

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'wisp-consent-'));
  dirs.push(d);
  return d;
}

describe('once covers exactly the approved text', () => {
  it('approving `rm build.log` once does not let `rm important.txt` through in the same turn', async () => {
    const g = setup('once');
    expect((await g.clear('rm build.log')).allowed).toBe(true);
    await g.clear('rm important.txt');
    expect(g.channel.asked).toHaveLength(2);
  });

  it('the very same line again in the turn is covered', async () => {
    const g = setup('once');
    await g.clear('rm build.log');
    await g.clear('rm build.log');
    expect(g.channel.asked).toHaveLength(1);
  });

  it('the approved part inside another line is asked again', async () => {
    const g = setup('once');
    await g.clear('rm build.log');
    await g.clear('rm build.log; touch x');
    expect(g.channel.asked.map((e) => (e.verb === 'approval' ? e.request.command : ''))).toEqual(['rm build.log', 'rm build.log', 'touch x']);
  });

  it('a once approval of a README append does not let a .git/config edit through', async () => {
    const g = setup('once');
    await g.edit('README.md');
    await g.edit('.git/config');
    expect(g.channel.asked).toHaveLength(2);
  });
});

describe('a kept answer covers no higher level and no new reason', () => {
  it('a session approval of git -c color.ui=always status does not cover git -c core.fsmonitor=… status', async () => {
    const g = setup('session');
    await g.clear('git -c color.ui=always status');
    await g.clear('git -c core.fsmonitor=./x status');
    expect(g.channel.asked).toHaveLength(2);
  });

  it('covers the same shape with the same reasons', async () => {
    const g = setup('session');
    await g.clear('touch a');
    await g.clear('touch b');
    expect(g.channel.asked).toHaveLength(1);
  });

  it('a session approval of `rm build.log` does not cover a recursive deletion of the same pattern', async () => {
    const g = setup('session');
    await g.clear('rm build.log');
    await g.clear('rm -r build');
    expect(g.channel.asked).toHaveLength(2);
  });

  it('a stored approval covers only the reasons it was given for, and they are kept in approvals.json', async () => {
    const store = new ApprovalStore(join(tempDir(), 'approvals.json'));
    const g = setup('project', PROJECT, store);
    await g.clear('git -c color.ui=always status');
    expect(store.list()[0]).toMatchObject({ pattern: 'git -c color.ui=always status', workingDirectory: PROJECT });
    expect(store.list()[0]!.reasons?.join('; ')).toContain('color.ui');
    const fresh = setup('once', PROJECT, store);
    await fresh.clear('git -c color.ui=always status');
    expect(fresh.channel.asked).toHaveLength(0);
    await fresh.clear('git -c core.fsmonitor=./x status');
    expect(fresh.channel.asked).toHaveLength(1);
  });

  it('a stored approval written without reasons (an older file) covers nothing that has a reason', async () => {
    const store = new ApprovalStore(join(tempDir(), 'approvals.json'));
    store.add({ pattern: 'touch *', workingDirectory: PROJECT, scope: 'project', level: 'moderate', persistDays: 1, source: 'old' });
    const g = setup('once', PROJECT, store);
    await g.clear('touch a');
    expect(g.channel.asked).toHaveLength(1);
  });
});

describe('edit_file approvals are per path', () => {
  it('a session approval for README.md does not cover docs/guide.md', async () => {
    const g = setup('session');
    await g.edit('README.md');
    await g.edit('README.md');
    await g.edit('docs/guide.md');
    expect(g.channel.asked).toHaveLength(2);
    expect(g.channel.asked[0]!.verb === 'approval' && g.channel.asked[0]!.request.pattern).toBe('edit_file README.md');
  });

  // Attack (session 12): .claude/settings.json, .vscode/tasks.json and .mcp.json make later programs run code, and the
  // sandbox keeps an approved command from writing them, but an edit_file answer for one was remembered (ADR 0099).
  it.each(['.git/config', '.git/hooks/pre-commit', '.wisprc.json', '.wisprc', 'package.json', 'sub/package.json', '.wisp/config.json', '.envrc', '.claude/settings.json', '.vscode/tasks.json', '.mcp.json', '.idea/workspace.xml', '.bashrc'])(
    '%s is asked every time, even after an always answer, and nothing is stored',
    async (path) => {
      const g = setup('always');
      await g.edit(path);
      await g.edit(path);
      expect(g.channel.asked).toHaveLength(2);
      expect(g.store.list()).toHaveLength(0);
      expect(g.audit.ofKind('approval.decided')[0]!.details).toMatchObject({ scope: 'once', downgradedFrom: 'always' });
    },
  );

  it('a path outside the project is asked every time', () => {
    expect(editAskedEveryTime('/work/other/x.txt', PROJECT)).toMatch(/outside the project/);
    expect(editAskedEveryTime('/work/proj/../other/x.txt', PROJECT)).toMatch(/outside the project/);
    expect(editAskedEveryTime('/work/proj/src/a.ts', PROJECT)).toBeUndefined();
  });
});

describe('a project approval holds only in its project', () => {
  it('a workingDirectory in another project does not inherit that project’s approvals', async () => {
    const store = new ApprovalStore(join(tempDir(), 'approvals.json'));
    const other = setup('project', '/work/other', store);
    await other.clear('touch a', '/work/other');
    expect(store.list()).toHaveLength(1);
    // A session launched in /work/proj, asked to run in /work/other: asked, every time.
    const g = setup('project', PROJECT, store);
    await g.clear('touch a', '/work/other');
    await g.clear('touch a', '/work/other');
    expect(g.channel.asked).toHaveLength(2);
    expect(store.list()).toHaveLength(1);
  });

  it('a subdirectory of the project shares the project’s approvals', async () => {
    const g = setup('session');
    await g.clear('touch a', PROJECT);
    await g.clear('touch b', `${PROJECT}/src`);
    expect(g.channel.asked).toHaveLength(1);
  });
});
