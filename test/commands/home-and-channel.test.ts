// Session 12's leftovers, against the built bin (ADR 0102): a relative WISP_HOME is refused before anything is read
// or written; a configured escalation channel a face cannot use is named on stderr with the channel used instead,
// and audited; `wisp chat` reports a bad --escalation before it reports a missing terminal.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { wispHome, wispHomeProblem } from '../../src/core/paths.js';
import { UsageError } from '../../src/core/errors.js';
import { auditLog, freshHome, wisp, wispAsync } from '../helpers/cli.js';

let dir: string;
let home: string;

beforeEach(() => {
  ({ dir, home } = freshHome());
});

const events = () => auditLog(home);

const script = (responses: unknown[]): string => {
  const p = join(dir, 'script.json');
  writeFileSync(p, JSON.stringify({ responses }));
  return p;
};

describe('a relative WISP_HOME', () => {
  it('attack: two terminals in different folders would see different queues — refused (64), nothing created where it would resolve', () => {
    for (const sub of ['one', 'two']) mkdirSync(join(dir, sub));
    for (const [cwd, args] of [
      [join(dir, 'one'), ['approvals', 'pending']],
      [join(dir, 'two'), ['respond', '-m', `script:${script([{ text: 'MODEL RAN' }])}`, 'hello']],
      [join(dir, 'two'), ['check', '--', 'ls']],
    ] as const) {
      const r = wisp(args, { cwd, home, env: { WISP_HOME: 'state' } });
      expect(r.status).toBe(64);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^wisp: WISP_HOME must be an absolute path, not "state": a relative one would name another folder/);
      expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(readdirSync(cwd)).toEqual([]);
    }
  });

  it('a quoted ~ (an MCP client config, a .env file) is named as the cause', () => {
    const r = wisp(['approvals', 'pending'], { cwd: dir, home, env: { WISP_HOME: '~/.wisp' } });
    expect(r.status).toBe(64);
    expect(r.stderr).toContain('a ~ is expanded by a shell only when it is not quoted');
    expect(existsSync(join(dir, '~'))).toBe(false);
  });

  it('help still answers, and an absolute or empty WISP_HOME is used as before', () => {
    expect(wisp(['--help'], { cwd: dir, home, env: { WISP_HOME: 'state' } }).status).toBe(0);
    expect(wispHomeProblem({ WISP_HOME: '/abs/x' })).toBeUndefined();
    expect(wispHomeProblem({ WISP_HOME: '' })).toBeUndefined();
    expect(wispHome({ WISP_HOME: '/abs/x/../y/' })).toBe('/abs/y');
    // The backstop for any path that asks for the home without passing main's check (an import, a test, a bundle).
    expect(() => wispHome({ WISP_HOME: './x' })).toThrow(UsageError);
  });
});

describe('escalation.channel set to a channel the face cannot use', () => {
  it('attack: escalation.channel terminal made wisp respond refuse silently — now one stderr line names deny and why, and the audit says both', () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ escalation: { channel: 'terminal' } }));
    const r = wisp(['respond', '-m', `script:${script([{ text: 'hi' }])}`, 'hello'], { cwd: dir, home });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('hi\n');
    expect(r.stderr).toContain(
      'wisp: escalation.channel terminal (config) is not available in wisp respond; using deny, its default (wisp respond can use deny, auto, queue; --escalation chooses for one run)\n',
    );
    const start = events().filter((e) => e.kind === 'session.start');
    expect(start).toHaveLength(1);
    expect(start[0]!.details).toMatchObject({ channel: 'deny', channelConfigured: 'terminal' });
  });

  it('a channel the face can use is taken without a word, and an --escalation flag wins without a notice', () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ escalation: { channel: 'terminal' } }));
    const r = wisp(['respond', '--escalation', 'deny', '-m', `script:${script([{ text: 'hi' }])}`, 'hello'], { cwd: dir, home });
    expect(r.stderr).not.toContain('escalation.channel');
    writeFileSync(join(home, 'config.json'), JSON.stringify({ escalation: { channel: 'deny' } }));
    const r2 = wisp(['respond', '-m', `script:${script([{ text: 'hi' }])}`, 'hello'], { cwd: dir, home });
    expect(r2.stderr).not.toContain('escalation.channel');
    const starts = events().filter((e) => e.kind === 'session.start');
    expect(starts.map((e) => e.details.channelConfigured)).toEqual([undefined, undefined]);
  });

  it('wisp mcp with escalation.channel terminal says it uses elicitation, before serving', async () => {
    writeFileSync(join(home, 'config.json'), JSON.stringify({ escalation: { channel: 'terminal' } }));
    const { child, done } = wispAsync(['mcp', '-m', `script:${script([{ text: 'hi' }])}`], { cwd: dir, home });
    // stdin is closed from the start ('ignore'): the server ends on its own.
    setTimeout(() => child.kill('SIGTERM'), 15_000).unref();
    const r = await done;
    expect(r.stderr).toContain('wisp: escalation.channel terminal (config) is not available in wisp mcp; using elicitation, its default');
  });
});

describe('wisp chat without a terminal', () => {
  it('attack: --escalation result was reported as "needs a terminal" — the flag is the error named first', () => {
    const r = wisp(['chat', '--escalation', 'result'], { cwd: dir, home });
    expect(r.status).toBe(64);
    expect(r.stderr).toBe('wisp: --escalation result is not available in wisp chat; choose one of terminal, queue, auto, deny\n');
    const r2 = wisp(['chat', '--yes', '--escalation', 'queue'], { cwd: dir, home });
    expect(r2.stderr).toBe('wisp: --yes means --escalation auto; it cannot be combined with --escalation queue\n');
    expect(wisp(['chat', '--escalation', 'queue'], { cwd: dir, home }).stderr).toMatch(/needs a terminal/);
  });
});
