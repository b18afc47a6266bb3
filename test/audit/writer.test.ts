import { spawn } from 'node:child_process';
import { existsSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditWriteError, openAudit, rotatedName } from '../../src/audit/writer.js';
import { toJsonSafe } from '../../src/util/json-value.js';
import { readEvents, isTorn } from '../../src/audit/reader.js';
import { VERSION } from '../../src/core/version.js';

const WRITE_LOOP = fileURLToPath(new URL('../fixtures/audit/write-loop.ts', import.meta.url));
const isRoot = process.getuid?.() === 0;

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wisp-audit-'));
  file = join(dir, 'logs', 'audit.jsonl');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function lines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');
}

describe('envelope', () => {
  it('writes one JSON object per line with the design §9 envelope', () => {
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 });
    const returned = audit.write('prompt', { text: 'hello' }, { session: 's-1', thread: 't-1', turn: 2 });
    audit.write('session.end', { reason: 'closed' }, { session: 's-1' });
    audit.close();

    const [first, second] = lines(file).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(first ?? {})).toEqual(['schema', 'id', 'time', 'version', 'pid', 'session', 'thread', 'turn', 'kind', 'details']);
    expect(first).toMatchObject({ schema: 1, version: VERSION, pid: process.pid, session: 's-1', thread: 't-1', turn: 2, kind: 'prompt', details: { text: 'hello' } });
    expect(first?.id).toMatch(/^[0-9a-f]{16}$/);
    expect(first?.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(first).toEqual(returned);
    // thread/turn are absent, not null, when the context has none
    expect(second).not.toHaveProperty('thread');
    expect(second).not.toHaveProperty('turn');
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
  });

  it('uses the given version', () => {
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5, version: '9.9.9' });
    expect(audit.write('error', { message: 'x' }, { session: 's' }).version).toBe('9.9.9');
    audit.close();
  });

  it.skipIf(process.platform === 'win32')('creates the file 0600 in a 0700 directory, and tightens a loose file', () => {
    openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 }).close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'logs')).mode & 0o777).toBe(0o700);

    chmodSync(file, 0o644);
    openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 }).close();
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('records details that JSON cannot express instead of crashing', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const details = {
      big: 12345678901234567890n,
      missing: undefined,
      fn: () => 1,
      list: [1, undefined, 2n],
      cyclic,
      err: Object.assign(new Error('boom'), { code: 'EBOOM' }),
      map: new Map([['a', 1]]),
      set: new Set(['x']),
      bad: { toJSON: () => { throw new Error('nope'); } },
      when: new Date('2026-01-02T03:04:05.000Z'),
      nan: Number.NaN,
    };
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 });
    const event = audit.write('tool.result', details, { session: 's' });
    audit.close();
    const written = JSON.parse(lines(file)[0] as string) as { details: unknown };
    expect(written.details).toEqual({
      big: '12345678901234567890',
      list: [1, null, '2'],
      cyclic: { name: 'loop', self: '[Circular]' },
      err: { name: 'Error', message: 'boom', code: 'EBOOM' },
      map: { a: 1 },
      set: ['x'],
      bad: '[unserializable]',
      when: '2026-01-02T03:04:05.000Z',
      nan: null,
    });
    expect(event.details).toEqual(written.details);
  });

  it('keeps shared (non-cyclic) references', () => {
    const shared = { a: 1 };
    expect(toJsonSafe({ x: shared, y: shared })).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });
});

describe('rotation', () => {
  it('rotates by size, keeps keepFiles rotated files, and the reader reads them oldest first', () => {
    const audit = openAudit({ file, maxFileBytes: 2000, keepFiles: 3, fsync: false });
    for (let seq = 0; seq < 100; seq++) audit.write('tool.call', { seq, pad: 'p'.repeat(100) }, { session: 's' });
    audit.close();

    const names = readdirSync(join(dir, 'logs')).filter((n) => n.endsWith('.jsonl')).sort();
    expect(names).toEqual(['audit.1.jsonl', 'audit.2.jsonl', 'audit.3.jsonl', 'audit.jsonl']);
    for (const n of names) expect(statSync(join(dir, 'logs', n)).size).toBeLessThanOrEqual(2000);

    const seqs = readEvents(join(dir, 'logs')).map((e) => (isTorn(e) ? -1 : (e.details?.seq as number)));
    // The newest events survive, contiguous and in order; the oldest rotated out.
    expect(seqs[seqs.length - 1]).toBe(99);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => 100 - seqs.length + i));
    expect(seqs.length).toBeLessThan(100);
    // Each rotated file holds older events than the next.
    const firstOf = (p: string): number => (JSON.parse(lines(p)[0] as string) as { details: { seq: number } }).details.seq;
    expect(firstOf(rotatedName(file, 3))).toBeLessThan(firstOf(rotatedName(file, 2)));
    expect(firstOf(rotatedName(file, 2))).toBeLessThan(firstOf(rotatedName(file, 1)));
    expect(firstOf(rotatedName(file, 1))).toBeLessThan(firstOf(file));
  });

  it('drops rotated files beyond a lowered keepFiles', () => {
    const big = openAudit({ file, maxFileBytes: 1000, keepFiles: 6, fsync: false });
    for (let seq = 0; seq < 60; seq++) big.write('tool.call', { seq, pad: 'p'.repeat(100) }, { session: 's' });
    big.close();
    expect(existsSync(rotatedName(file, 6))).toBe(true);
    const small = openAudit({ file, maxFileBytes: 1000, keepFiles: 2, fsync: false });
    for (let seq = 60; seq < 80; seq++) small.write('tool.call', { seq, pad: 'p'.repeat(100) }, { session: 's' });
    small.close();
    const rotated = readdirSync(join(dir, 'logs')).filter((n) => /^audit\.\d+\.jsonl$/.test(n)).sort();
    expect(rotated).toEqual(['audit.1.jsonl', 'audit.2.jsonl']);
  });
});

describe('failing closed', () => {
  it('refuses to open when the path is a directory', () => {
    mkdirSync(file, { recursive: true });
    expect(() => openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 })).toThrow(AuditWriteError);
  });

  it('throws when the log path has become a directory', () => {
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 });
    audit.write('prompt', { text: 'ok' }, { session: 's' });
    rmSync(file);
    mkdirSync(file);
    expect(() => audit.write('prompt', { text: 'lost?' }, { session: 's' })).toThrow(/could not write the audit log/);
    // Once the path is usable again, writing resumes: the failure was not remembered as permanent.
    rmSync(file, { recursive: true });
    audit.write('prompt', { text: 'back' }, { session: 's' });
    audit.close();
    expect(lines(file)).toHaveLength(1);
  });

  it('throws when the log directory has been replaced by a file', () => {
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 });
    rmSync(join(dir, 'logs'), { recursive: true });
    writeFileSync(join(dir, 'logs'), 'not a directory');
    expect(() => audit.write('prompt', { text: 'x' }, { session: 's' })).toThrow(AuditWriteError);
    audit.close();
  });

  it.skipIf(!existsSync('/dev/full'))('throws when the disk is full (/dev/full)', () => {
    const audit = openAudit({ file: '/dev/full', maxFileBytes: 1 << 20, keepFiles: 5 });
    expect(() => audit.write('prompt', { text: 'x' }, { session: 's' })).toThrow(/ENOSPC|no space/i);
    audit.close();
  });

  it.skipIf(isRoot || process.platform === 'win32')('throws when the file is gone and the directory is read-only', () => {
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 });
    rmSync(file);
    chmodSync(join(dir, 'logs'), 0o500);
    try {
      expect(() => audit.write('prompt', { text: 'x' }, { session: 's' })).toThrow(AuditWriteError);
    } finally {
      chmodSync(join(dir, 'logs'), 0o700);
      audit.close();
    }
  });

  it('throws after close', () => {
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 });
    audit.close();
    expect(() => audit.write('prompt', { text: 'x' }, { session: 's' })).toThrow(/closed/);
  });

  it('recreates a log that was deleted under it, so the line is not written into an unlinked file', () => {
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 });
    audit.write('prompt', { text: 'one' }, { session: 's' });
    rmSync(join(dir, 'logs'), { recursive: true });
    audit.write('prompt', { text: 'two' }, { session: 's' });
    audit.close();
    expect(lines(file).map((l) => (JSON.parse(l) as { details: { text: string } }).details.text)).toEqual(['two']);
  });

  it('starts on a fresh line after a torn last line, so the next event stays readable', () => {
    mkdirSync(join(dir, 'logs'), { recursive: true });
    writeFileSync(file, '{"schema":1,"id":"a","time":"t","session":"s","kind":"prompt","details":{}}\n{"schema":1,"id":"b","ti');
    const audit = openAudit({ file, maxFileBytes: 1 << 20, keepFiles: 5 });
    audit.write('prompt', { text: 'after' }, { session: 's' });
    audit.close();
    const entries = readEvents(file);
    expect(entries.map((e) => (isTorn(e) ? 'torn' : e.kind))).toEqual(['prompt', 'torn', 'prompt']);
  });
});

interface Child {
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  readonly ready: Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

function runLoop(args: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITE_LOOP, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', (code) => reject(new Error(`child exited ${code} before ready: ${stderr}`)));
  });
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  ready.catch(() => undefined);
  return { ready, done, kill: (s) => child.kill(s) };
}

const allFiles = (): string[] =>
  readdirSync(join(dir, 'logs'))
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => join(dir, 'logs', n));

describe('across processes', () => {
  it('a writer SIGKILLed mid-stream leaves only whole JSON lines (5 trials, rotating)', async () => {
    for (let trial = 0; trial < 5; trial++) {
      rmSync(join(dir, 'logs'), { recursive: true, force: true });
      const child = runLoop([file, `crash-${trial}`, '0', '65536', '1000']);
      await child.ready;
      await new Promise((r) => setTimeout(r, 50 + trial * 60));
      child.kill('SIGKILL');
      const { signal } = await child.done;
      expect(signal).toBe('SIGKILL');

      let total = 0;
      for (const f of allFiles()) {
        const text = readFileSync(f, 'utf8');
        expect(text === '' || text.endsWith('\n')).toBe(true);
        for (const line of lines(f)) {
          expect(() => JSON.parse(line)).not.toThrow();
          total++;
        }
      }
      const seqs = readEvents(file).map((e) => (isTorn(e) ? -1 : (e.details?.seq as number)));
      expect(seqs).toEqual(Array.from({ length: total }, (_, i) => i));
      expect(total).toBeGreaterThan(0);
    }
    // A lock left by a killed writer mid-rotation must not wedge the next writer.
    const next = openAudit({ file, maxFileBytes: 1000, keepFiles: 1000, fsync: false });
    for (let i = 0; i < 30; i++) next.write('prompt', { i, pad: 'q'.repeat(100) }, { session: 'after' });
    next.close();
    expect(readEvents(file, { session: 'after' })).toHaveLength(30);
  }, 90_000);

  it('two processes appending at once never interleave lines, even while rotating', async () => {
    const a = runLoop([file, 'proc-a', '800', '32768', '1000']);
    const b = runLoop([file, 'proc-b', '800', '32768', '1000']);
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect([ra.code, rb.code]).toEqual([0, 0]);

    const entries = readEvents(file);
    expect(entries.filter(isTorn)).toEqual([]);
    for (const session of ['proc-a', 'proc-b']) {
      const seqs = entries.flatMap((e) => (!isTorn(e) && e.session === session ? [e.details?.seq as number] : []));
      // Every event of each writer is there, once, in the order it wrote them.
      expect(seqs).toEqual(Array.from({ length: 800 }, (_, i) => i));
    }
    expect(allFiles().length).toBeGreaterThan(3);
  }, 60_000);
});
