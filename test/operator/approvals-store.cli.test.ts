// `wisp approvals list|revoke|clear` through the built CLI: TSV when piped, a table on a terminal, --json, safe
// display of model-derived patterns, and clear errors for a missing or corrupt store.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { freshHome, wisp, wispInPty } from '../helpers/cli.js';

let dir: string;
let home: string;
const run = (...args: string[]) => wisp(['approvals', ...args], { cwd: dir, home });
const future = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

const entries = () => [
  { id: '0a1b2c3d', pattern: 'git push *', workingDirectory: '/work/proj', scope: 'project', level: 'moderate', grantedAt: '2026-01-01T00:00:00.000Z', expiresAt: future(29), source: 'chat' },
  { id: 'deadbeef', pattern: 'npm install *', scope: 'always', level: 'moderate', grantedAt: '2026-01-02T00:00:00.000Z', expiresAt: future(3), source: 'queue' },
  // Model-derived text with a terminal escape and a bidi override in it.
  { id: '12345678', pattern: 'echo \u001b[2Jhi\u202Etxt *', workingDirectory: '/work/proj', scope: 'project', level: 'safe', grantedAt: '2026-01-03T00:00:00.000Z', expiresAt: future(1), source: 'mcp' },
  // Expired: never listed.
  { id: 'ffffffff', pattern: 'old *', scope: 'always', level: 'moderate', grantedAt: '2025-01-01T00:00:00.000Z', expiresAt: '2025-02-01T00:00:00.000Z', source: 'chat' },
];
const writeStore = (value: unknown) => writeFileSync(join(home, 'approvals.json'), typeof value === 'string' ? value : JSON.stringify(value), { mode: 0o600 });

beforeEach(() => {
  ({ dir, home } = freshHome());
});

describe('wisp approvals list', () => {
  it('with no store: nothing listed, exit 0, --json is []', () => {
    const r = run('list');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    const j = run('list', '--json');
    expect(j.status).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual([]);
  });

  it('piped: one tab-separated line per live approval — id, scope, expiry, directory, pattern, level, source', () => {
    const es = entries();
    writeStore(es);
    const r = run('list');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const [first, second, third] = lines.map((l) => l.split('\t'));
    expect(first).toEqual(['0a1b2c3d', 'project', es[0]!.expiresAt, '/work/proj', 'git push *', 'moderate', 'chat']);
    expect(second).toEqual(['deadbeef', 'always', es[1]!.expiresAt, '', 'npm install *', 'moderate', 'queue']);
    expect(third![4]).toBe('echo \\x1b[2Jhi<U+202E>txt *');
    expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
  });

  it('--json: the stored entries, live ones only', () => {
    writeStore(entries());
    const list = JSON.parse(run('list', '--json').stdout) as Array<{ id: string }>;
    expect(list.map((e) => e.id)).toEqual(['0a1b2c3d', 'deadbeef', '12345678']);
  });

  it('on a terminal: an aligned table with a header and relative expiry', () => {
    writeStore(entries());
    const r = wispInPty(['approvals', 'list'], { cwd: dir, home });
    expect(r.status).toBe(0);
    const out = r.stdout.replace(/\r/g, '');
    expect(out).toMatch(/^ID\s+SCOPE\s+EXPIRES\s+DIRECTORY\s+PATTERN\s+LEVEL\s+SOURCE$/m);
    expect(out).toMatch(/^deadbeef\s+always\s+in 3d\s+\(any\)\s+npm install \*\s+moderate\s+queue$/m);
    expect(out).not.toMatch(/\u001b\[2J/);
  });

  it('a corrupt store is a clear error naming the file and the way out, exit 1', () => {
    writeStore('{ not json');
    const r = run('list');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(join(home, 'approvals.json'));
    expect(r.stderr).toMatch(/not valid JSON; move it aside or run `wisp approvals clear`/);
    writeStore([{ id: 'nothex!!', pattern: '' }]);
    const s = run('list', '--json');
    expect(s.status).toBe(1);
    expect(s.stderr).toMatch(/is not a list of approvals/);
  });
});

describe('wisp approvals revoke / clear', () => {
  it('revoke removes one entry; an unknown id exits 1; a malformed id is a usage error', () => {
    writeStore(entries());
    const r = run('revoke', 'deadbeef');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('revoked deadbeef\n');
    const left = JSON.parse(readFileSync(join(home, 'approvals.json'), 'utf8')) as Array<{ id: string }>;
    expect(left.map((e) => e.id)).not.toContain('deadbeef');
    const again = run('revoke', 'deadbeef');
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/no stored approval with id deadbeef/);
    expect(run('revoke', 'not-an-id').status).toBe(64);
    const events = readFileSync(join(home, 'logs/audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; details: Record<string, unknown> });
    const revoked = events.filter((e) => e.kind === 'approval.revoked');
    expect(revoked).toHaveLength(1);
    expect(revoked[0]!.details).toEqual({ action: 'revoke', ids: ['deadbeef'], pattern: 'npm install *', scope: 'always' });
  });

  it('revoke on a missing store exits 1 with a clear message', () => {
    const r = run('revoke', '0a1b2c3d');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no stored approval with id 0a1b2c3d/);
  });

  it('clear forgets everything and says how many', () => {
    writeStore(entries());
    const r = run('clear');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('cleared 3 stored approvals\n');
    const log = readFileSync(join(home, 'logs/audit.jsonl'), 'utf8');
    expect(log).toContain('"kind":"approval.revoked"');
    expect(log).toContain('"ids":["0a1b2c3d","deadbeef","12345678"]');
    expect(JSON.parse(run('list', '--json').stdout)).toEqual([]);
  });

  it('clear replaces a corrupt store and keeps the damaged file beside it', () => {
    writeStore('garbage');
    const r = run('clear');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/kept beside it as approvals\.json\.corrupt-/);
    expect(readdirSync(home).some((n) => n.startsWith('approvals.json.corrupt-'))).toBe(true);
    expect(run('list').status).toBe(0);
    expect(existsSync(join(home, 'approvals.json'))).toBe(true);
  });
});
