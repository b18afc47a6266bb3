// `wisp logs` through the built CLI: readable lines across rotated files in order, filters, --json, torn lines and
// unknown kinds shown (exit 0), model-derived text made safe, and -f following through a rotation.
import { appendFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { openAudit, type AuditWriter } from '../../src/audit/writer.js';
import { freshHome, wisp, wispAsync } from '../helpers/cli.js';

let dir: string;
let home: string;
let logFile: string;
const run = (...args: string[]) => wisp(['logs', ...args], { cwd: dir, home });
const writer = (maxFileBytes = 10_000_000): AuditWriter => openAudit({ file: logFile, maxFileBytes, keepFiles: 5, fsync: false, version: 'test' });

async function until(what: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(50);
  }
}

beforeEach(() => {
  ({ dir, home } = freshHome());
  logFile = join(home, 'logs', 'audit.jsonl');
});

describe('wisp logs', () => {
  it('with no log yet prints nothing and exits 0 (also --json --last 5)', () => {
    expect(run().status).toBe(0);
    const j = run('--json', '--last', '5');
    expect(j.status).toBe(0);
    expect(j.stdout).toBe('');
  });

  it('prints one readable line per event, oldest first, across rotated files', () => {
    mkdirSync(join(home, 'logs'), { mode: 0o700 });
    const w = writer();
    w.write('session.start', { entryPoint: 'respond', model: 'script:/x.json', tools: ['run_command'], channel: 'deny' }, { session: 's-old' });
    w.close();
    renameSync(logFile, join(home, 'logs', 'audit.2.jsonl'));
    const w2 = writer();
    w2.write('prompt', { text: 'list the files' }, { session: 's-mid', turn: 1 });
    w2.close();
    renameSync(logFile, join(home, 'logs', 'audit.1.jsonl'));
    const w3 = writer();
    w3.write('command.outcome', { command: 'ls -la', exitStatus: 0, seconds: 0.01 }, { session: 's-new', thread: 't1', turn: 2 });
    w3.close();

    const r = run();
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z {2}s-old {2}session\.start +respond · script:\/x\.json · escalation deny · tools run_command$/);
    expect(lines[1]).toMatch(/ s-mid #1 {2}prompt +list the files$/);
    expect(lines[2]).toMatch(/ s-new\/t1 #2 {2}command\.outcome +exit 0 · ls -la · 0\.01s$/);
  });

  it('filters by session, thread, kind (exact or family) and --last', () => {
    const w = writer();
    w.write('approval.requested', { command: 'git push', level: 'moderate' }, { session: 'a' });
    w.write('approval.decided', { command: 'git push', decision: 'denied' }, { session: 'a' });
    w.write('policy.decision', { command: 'git push', verdict: 'disapproved' }, { session: 'b', thread: 'th' });
    w.write('session.end', { reason: 'done' }, { session: 'b' });
    w.close();
    const kinds = (args: string[]) => run(...args, '--json').stdout.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { kind: string }).kind);
    expect(kinds(['--session', 'a'])).toEqual(['approval.requested', 'approval.decided']);
    expect(kinds(['--thread', 'th'])).toEqual(['policy.decision']);
    expect(kinds(['--kind', 'approval'])).toEqual(['approval.requested', 'approval.decided']);
    expect(kinds(['--kind', 'approval.decided', '--kind', 'session.end'])).toEqual(['approval.decided', 'session.end']);
    expect(kinds(['--kind', 'approval.decided,policy.decision'])).toEqual(['approval.decided', 'policy.decision']);
    expect(kinds(['--last', '1'])).toEqual(['session.end']);
    expect(kinds(['--kind', 'approval', '--last', '1'])).toEqual(['approval.decided']);
    const unknownKind = run('--kind', 'nosuch.kind');
    expect(unknownKind.status).toBe(0);
    expect(unknownKind.stderr).toMatch(/'nosuch\.kind' is not a kind this wisp writes/);
    expect(run('--last', 'many').status).toBe(64);
  });

  it('--json prints each event as stored, one parseable object a line', () => {
    const w = writer();
    const e = w.write('config.change', { action: 'set', key: 'approval.threshold', before: 'moderate', after: 'safe', weakens: [] }, { session: 'cli-1' });
    w.close();
    const r = run('--json');
    expect(JSON.parse(r.stdout.trim())).toEqual(e);
  });

  it('shows a torn last line and an unknown kind, and exits 0', () => {
    const w = writer();
    w.write('prompt', { text: 'first' }, { session: 's' });
    w.close();
    appendFileSync(logFile, JSON.stringify({ schema: 1, id: 'x1', time: '2026-01-01T00:00:00.000Z', session: 's', kind: 'future.thing', details: { shiny: true } }) + '\n');
    appendFileSync(logFile, '{"schema":1,"id":"x2","time":"2026-01-01T00:00:01.000Z","sess');
    const r = run();
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/future\.thing +\{"shiny":true\}$/);
    expect(lines[2]).toMatch(/^\(torn line audit\.jsonl:3, not a whole event\) \{"schema":1,"id":"x2"/);
    const j = run('--json').stdout.trim().split('\n').map((l) => JSON.parse(l) as { torn?: boolean; raw?: string });
    expect(j[2]).toMatchObject({ torn: true, line: 3 });
    // A torn line is not attributable to a session, so it is shown even when filtering: damage is never hidden.
    expect(run('--session', 'other').stdout).toMatch(/torn line/);
  });

  it('makes model-derived text safe: no escape, bidi or newline reaches the terminal', () => {
    const w = writer();
    w.write('approval.requested', { command: 'echo ok\u001b[2J\u001b]0;title\u0007\u202Eexe\nrm -rf ~', level: 'moderate' }, { session: 's\u001b[31m' });
    w.close();
    const r = run();
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202e]/);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stdout).toContain('echo ok\\x1b[2J\\x1b]0;title\\x07<U+202E>exe\\nrm -rf ~');
  });
});

describe('wisp logs -f', () => {
  it('shows the recent backlog, then new events, and keeps following through a rotation', async () => {
    const w = writer(4096);
    w.write('prompt', { text: 'backlog-event' }, { session: 's' });
    const follower = wispAsync(['logs', '-f'], { cwd: dir, home });
    let collected = '';
    follower.child.stdout.on('data', (d: Buffer) => (collected += d.toString()));
    const out = () => collected;
    try {
      await until(() => out().includes('backlog-event'));
      w.write('prompt', { text: 'live-event-1' }, { session: 's' });
      await until(() => out().includes('live-event-1'));
      // Fill the file until the writer rotates it, then write into the fresh live file.
      let n = 0;
      while (!existsSync(join(home, 'logs', 'audit.1.jsonl'))) w.write('tool.result', { tool: 'run_command', output: 'x'.repeat(300), bytes: 300, seconds: n++ }, { session: 's' });
      w.write('prompt', { text: 'after-rotation' }, { session: 's' });
      await until(() => out().includes('after-rotation'));
      expect(out().indexOf('live-event-1')).toBeLessThan(out().indexOf('after-rotation'));
      // Nothing written before the rotation was lost on the way.
      expect(out().match(/tool\.result/g)?.length).toBe(n);
    } finally {
      w.close();
      follower.child.kill('SIGINT');
    }
    const done = await follower.done;
    expect(done.status).toBe(0);
  });
});
