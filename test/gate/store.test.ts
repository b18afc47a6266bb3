import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalStore, CorruptApprovalsError, type NewApproval } from '../../src/gate/store.js';
import { LockTimeoutError, acquireFileLock, withFileLock } from '../../src/util/atomic.js';

const ADD_MANY = fileURLToPath(new URL('../fixtures/store/add-many.ts', import.meta.url));

let dir: string;
let file: string;
let clock: Date;
let store: ApprovalStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wisp-store-'));
  file = join(dir, 'approvals.json');
  clock = new Date('2026-03-01T12:00:00.000Z');
  store = new ApprovalStore(file, { now: () => clock });
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const approval = (over: Partial<NewApproval> = {}): NewApproval => ({
  pattern: 'git push *',
  workingDirectory: '/work/a',
  scope: 'project',
  level: 'moderate',
  persistDays: 30,
  source: 'chat',
  ...over,
});
const days = (n: number): number => n * 86_400_000;

describe('scopes', () => {
  it('a project approval matches only its own directory', () => {
    const stored = store.add(approval());
    expect(stored).toMatchObject({ pattern: 'git push *', workingDirectory: '/work/a', scope: 'project', level: 'moderate', source: 'chat' });
    expect(stored.id).toMatch(/^[0-9a-f]{8}$/);
    expect(store.find('git push *', '/work/a', 'moderate')?.id).toBe(stored.id);
    expect(store.find('git push *', '/work/a/', 'moderate')?.id).toBe(stored.id); // same directory, spelled differently
    expect(store.find('git push *', '/work/b', 'moderate')).toBeUndefined();
    expect(store.find('git push *', '/work/a/sub', 'moderate')).toBeUndefined();
    expect(store.find('git commit *', '/work/a', 'moderate')).toBeUndefined();
  });

  it('an always approval matches any directory and stores none', () => {
    const stored = store.add(approval({ scope: 'always' }));
    expect(stored).not.toHaveProperty('workingDirectory');
    expect(store.find('git push *', '/anywhere/else', 'moderate')?.id).toBe(stored.id);
  });

  it('a project approval needs its directory', () => {
    expect(() => store.add(approval({ workingDirectory: undefined }))).toThrow(/working directory/);
  });

  it('an approval given at a lower level does not cover a riskier request', () => {
    store.add(approval({ level: 'safe' }));
    expect(store.find('git push *', '/work/a', 'moderate')).toBeUndefined();
    expect(store.find('git push *', '/work/a', 'safe')).toBeDefined();
  });
});

describe('dangerous', () => {
  it('is never stored', () => {
    expect(() => store.add(approval({ level: 'dangerous' }))).toThrow(/never remembered/);
    expect(existsSync(file)).toBe(false);
  });

  it('is never found, even with an entry for the same pattern or one written by hand', () => {
    store.add(approval({ scope: 'always' }));
    expect(store.find('git push *', '/work/a', 'dangerous')).toBeUndefined();
    writeFileSync(
      file,
      JSON.stringify([{ id: 'deadbeef', pattern: 'rm *', scope: 'always', level: 'dangerous', grantedAt: clock.toISOString(), expiresAt: '2099-01-01T00:00:00.000Z', source: 'hand' }]),
    );
    expect(store.find('rm *', '/x', 'dangerous')).toBeUndefined();
    expect(store.find('rm *', '/x', 'moderate')).toBeUndefined();
  });
});

describe('expiry', () => {
  it('expires after persistDays; expired entries are ignored, then dropped on the next write', () => {
    const old = store.add(approval({ persistDays: 1 }));
    store.add(approval({ pattern: 'npm install *', persistDays: 30 }));
    expect(old.expiresAt).toBe('2026-03-02T12:00:00.000Z');

    clock = new Date(clock.getTime() + days(1) + 1000);
    expect(store.find('git push *', '/work/a', 'moderate')).toBeUndefined();
    expect(store.list().map((e) => e.pattern)).toEqual(['npm install *']);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveLength(2); // reading never rewrites

    store.add(approval({ pattern: 'make *', scope: 'always' }));
    const onDisk = JSON.parse(readFileSync(file, 'utf8')) as Array<{ pattern: string }>;
    expect(onDisk.map((e) => e.pattern)).toEqual(['npm install *', 'make *']);
  });

  it('renews an existing approval instead of duplicating it', () => {
    const first = store.add(approval({ persistDays: 2 }));
    clock = new Date(clock.getTime() + days(1));
    const second = store.add(approval({ persistDays: 2 }));
    expect(store.list()).toHaveLength(1);
    expect(second.id).not.toBe(first.id);
    expect(second.expiresAt).toBe('2026-03-04T12:00:00.000Z');
  });

  it('rejects a persistDays outside 1–365', () => {
    expect(() => store.add(approval({ persistDays: 0 }))).toThrow(/persistDays/);
    expect(() => store.add(approval({ persistDays: 1.5 }))).toThrow(/persistDays/);
  });
});

describe('the file', () => {
  it('is a pretty JSON array with sorted keys, 0600, and no temp files left behind', () => {
    store.add(approval());
    const text = readFileSync(file, 'utf8');
    const [entry] = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(Object.keys(entry ?? {})).toEqual(['expiresAt', 'grantedAt', 'id', 'level', 'pattern', 'scope', 'source', 'workingDirectory']);
    expect(text).toContain('\n  {\n    "expiresAt"');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['approvals.json']);
  });

  it('lists, revokes and clears', () => {
    const a = store.add(approval());
    clock = new Date(clock.getTime() + 1000);
    const b = store.add(approval({ pattern: 'npm install *', scope: 'always' }));
    expect(store.list().map((e) => e.id)).toEqual([a.id, b.id]);
    expect(store.revoke(a.id)).toBe(true);
    expect(store.revoke(a.id)).toBe(false);
    expect(store.list().map((e) => e.id)).toEqual([b.id]);
    expect(store.clear()).toBe(1);
    expect(store.list()).toEqual([]);
    expect(new ApprovalStore(join(dir, 'none.json')).revoke('abcdef01')).toBe(false);
  });

  it('keeps fields written by a newer wisp', () => {
    writeFileSync(
      file,
      JSON.stringify([{ id: 'abcdef01', pattern: 'ls *', scope: 'always', level: 'safe', grantedAt: clock.toISOString(), expiresAt: '2099-01-01T00:00:00.000Z', source: 'x', note: 'future' }]),
    );
    store.add(approval());
    expect(readFileSync(file, 'utf8')).toContain('"note": "future"');
  });
});

describe('a corrupt file', () => {
  it('is refused with a clear error and never overwritten', () => {
    const garbage = '[{"id": "abcdef01", "pattern": "git push *",';
    writeFileSync(file, garbage);
    const expected = `${file} is not valid JSON; move it aside or run \`wisp approvals clear\``;
    expect(() => store.find('git push *', '/work/a', 'moderate')).toThrow(expected);
    expect(() => store.list()).toThrow(CorruptApprovalsError);
    expect(() => store.add(approval())).toThrow(expected);
    expect(() => store.revoke('abcdef01')).toThrow(CorruptApprovalsError);
    expect(readFileSync(file, 'utf8')).toBe(garbage);
    expect(readdirSync(dir)).toEqual(['approvals.json']); // no lock or temp file left either
  });

  it('names what is wrong when the JSON is not a list of approvals', () => {
    writeFileSync(file, JSON.stringify([{ id: 'abcdef01', pattern: 'x', scope: 'forever', level: 'safe' }]));
    expect(() => store.list()).toThrow(/is not a list of approvals \(\[0\]\.scope: .*\); move it aside/);
  });

  it('is reset by clear, which keeps the damaged file beside it', () => {
    writeFileSync(file, '{oops');
    expect(store.clear()).toBe(0);
    expect(store.list()).toEqual([]);
    const aside = readdirSync(dir).filter((n) => n.startsWith('approvals.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0] as string), 'utf8')).toBe('{oops');
  });
});

describe('across processes', () => {
  it('two processes adding 50 each at once lose nothing', async () => {
    const run = (prefix: string): Promise<{ code: number | null; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', ADD_MANY, file, prefix, '50'], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
    const results = await Promise.all([run('a'), run('b')]);
    expect(results).toEqual([{ code: 0, stderr: '' }, { code: 0, stderr: '' }]);
    const entries = new ApprovalStore(file).list();
    expect(entries).toHaveLength(100);
    expect(new Set(entries.map((e) => e.id)).size).toBe(100);
    for (const p of ['a', 'b']) {
      for (let i = 0; i < 50; i++) expect(entries.some((e) => e.pattern === `${p}-${i} *`)).toBe(true);
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 60_000);

  it('breaks a lock left by a process that died', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: deadPid, host: hostname(), token: 'old', time: clock.toISOString() }));
    const started = Date.now();
    store.add(approval());
    expect(Date.now() - started).toBeLessThan(2000);
    expect(store.list()).toHaveLength(1);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('waits for a live holder, then gives up naming it', () => {
    const lock = `${file}.lock`;
    const release = acquireFileLock(lock);
    try {
      expect(() => withFileLock(lock, () => 1, { timeoutMs: 100 })).toThrow(LockTimeoutError);
      expect(() => withFileLock(lock, () => 1, { timeoutMs: 100 })).toThrow(`held by pid ${process.pid}`);
    } finally {
      release();
    }
    expect(withFileLock(lock, () => 2)).toBe(2);
  });

  it('breaks a lock older than staleMs even if its pid looks alive (pid reuse)', () => {
    const lock = `${file}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), token: 'reused' }));
    expect(withFileLock(lock, () => 'ok', { timeoutMs: 2000, staleMs: 50 })).toBe('ok');
  });
});
