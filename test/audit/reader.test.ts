import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditFiles, followEvents, isTorn, readEvents, type AuditEntry } from '../../src/audit/reader.js';
import { openAudit } from '../../src/audit/writer.js';

let dir: string;
let logs: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wisp-reader-'));
  logs = join(dir, 'logs');
  file = join(logs, 'audit.jsonl');
  mkdirSync(logs);
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const line = (o: Record<string, unknown>): string =>
  JSON.stringify({ schema: 1, id: '0123456789abcdef', time: '2026-01-01T00:00:00.000Z', version: '0.1.0', pid: 1, details: {}, ...o }) + '\n';

const kindOf = (e: AuditEntry): string => (isTorn(e) ? `torn:${e.raw}` : e.kind);

describe('readEvents', () => {
  it('reads a missing log as empty', () => {
    expect(readEvents(join(dir, 'nowhere'))).toEqual([]);
    expect(readEvents(join(logs, 'audit.jsonl'))).toEqual([]);
  });

  it('returns a torn last line as {torn, raw} instead of failing', () => {
    writeFileSync(file, line({ session: 's', kind: 'prompt' }) + '{"schema":1,"id":"ab');
    const entries = readEvents(logs);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toEqual({ torn: true, raw: '{"schema":1,"id":"ab', file, line: 2 });
  });

  it('reports garbage and non-envelope lines as torn, and keeps going', () => {
    writeFileSync(file, 'not json\n' + '{"kind":"prompt"}\n' + line({ session: 's', kind: 'prompt' }) + line({ session: 's', kind: 'prompt', torn: true }));
    expect(readEvents(file).map((e) => (isTorn(e) ? 'torn' : 'event'))).toEqual(['torn', 'torn', 'event', 'torn']);
  });

  it('keeps events of kinds this version does not know', () => {
    writeFileSync(file, line({ session: 's', kind: 'future.kind', details: { x: 1 } }));
    expect(readEvents(file)).toMatchObject([{ kind: 'future.kind', details: { x: 1 } }]);
  });

  it('filters by session, thread and kinds, then takes the last N', () => {
    writeFileSync(
      file,
      line({ session: 'a', kind: 'prompt' }) +
        line({ session: 'a', thread: 't1', kind: 'tool.call' }) +
        line({ session: 'b', kind: 'prompt' }) +
        line({ session: 'a', thread: 't2', kind: 'response' }) +
        line({ session: 'a', thread: 't1', kind: 'response' }),
    );
    expect(readEvents(file, { session: 'a' }).map(kindOf)).toEqual(['prompt', 'tool.call', 'response', 'response']);
    expect(readEvents(file, { session: 'a', thread: 't1' }).map(kindOf)).toEqual(['tool.call', 'response']);
    expect(readEvents(file, { kinds: ['prompt'] })).toHaveLength(2);
    expect(readEvents(file, { kinds: ['response', 'tool.call'], last: 2 }).map(kindOf)).toEqual(['response', 'response']);
    expect(readEvents(file, { last: 0 })).toEqual([]);
  });

  it('reads rotated files oldest first, numbered numerically (10 before 9 … before 1)', () => {
    for (let n = 1; n <= 10; n++) writeFileSync(join(logs, `audit.${n}.jsonl`), line({ session: `r${n}`, kind: 'prompt' }));
    writeFileSync(file, line({ session: 'live', kind: 'prompt' }));
    writeFileSync(join(logs, 'audit.jsonl.lock'), 'x');
    writeFileSync(join(logs, 'other.1.jsonl'), line({ session: 'other', kind: 'prompt' }));
    const sessions = readEvents(logs).map((e) => (isTorn(e) ? '?' : e.session));
    expect(sessions).toEqual(['r10', 'r9', 'r8', 'r7', 'r6', 'r5', 'r4', 'r3', 'r2', 'r1', 'live']);
    expect(auditFiles(file)).toHaveLength(11);
  });
});

describe('followEvents', () => {
  it('attack on `logs -f`: an event written between reading the backlog and the first poll is still delivered', async () => {
    const writer = openAudit({ file, maxFileBytes: 10_000_000, keepFiles: 5, fsync: false });
    writer.write('prompt', { seq: -1 }, { session: 's' }); // the backlog
    const st = statSync(file);
    const from = { ino: st.ino, dev: st.dev, size: st.size }; // where the backlog reader stopped
    writer.write('prompt', { seq: 0 }, { session: 's' }); // lands before the follower's first poll
    const seen: number[] = [];
    const ac = new AbortController();
    const following = followEvents(file, (e) => !isTorn(e) && seen.push(e.details?.seq as number), ac.signal, { intervalMs: 10, from });
    await vi.waitFor(() => expect(seen).toEqual([0]), { timeout: 5000, interval: 20 });
    ac.abort();
    await following;
    writer.close();
  });

  it('delivers appended events and keeps going through rotations', async () => {
    const writer = openAudit({ file, maxFileBytes: 1500, keepFiles: 50, fsync: false });
    writer.write('prompt', { seq: -1 }, { session: 'before' }); // already there: not delivered
    const seen: number[] = [];
    const torn: string[] = [];
    const ac = new AbortController();
    const following = followEvents(
      file,
      (e) => (isTorn(e) ? torn.push(e.raw) : seen.push(e.details?.seq as number)),
      ac.signal,
      { intervalMs: 10 },
    );
    for (let seq = 0; seq < 60; seq++) {
      writer.write('tool.call', { seq, pad: 'z'.repeat(80) }, { session: 'live' });
      if (seq % 7 === 0) await new Promise((r) => setTimeout(r, 15)); // let the follower see some rotations happen
    }
    await vi.waitFor(() => expect(seen).toHaveLength(60), { timeout: 5000, interval: 20 });
    ac.abort();
    await following;
    writer.close();
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => i));
    expect(torn).toEqual([]);
    expect(auditFiles(file).length).toBeGreaterThan(3); // rotation really happened
  });

  it('misses nothing when several rotations happen between two polls', async () => {
    const writer = openAudit({ file, maxFileBytes: 800, keepFiles: 50, fsync: false });
    writer.write('prompt', { seq: -1 }, { session: 'before' });
    const seen: number[] = [];
    const ac = new AbortController();
    const following = followEvents(file, (e) => !isTorn(e) && seen.push(e.details?.seq as number), ac.signal, { intervalMs: 150 });
    await new Promise((r) => setTimeout(r, 20)); // first poll done, positioned at the end
    for (let seq = 0; seq < 40; seq++) writer.write('tool.call', { seq, pad: 'z'.repeat(80) }, { session: 'burst' });
    expect(auditFiles(file).length).toBeGreaterThan(5); // ≥5 rotations before the next poll
    await vi.waitFor(() => expect(seen).toHaveLength(40), { timeout: 3000, interval: 20 });
    ac.abort();
    await following;
    writer.close();
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('waits for a file that does not exist yet, and can start from the beginning', async () => {
    const seen: string[] = [];
    const ac = new AbortController();
    const following = followEvents(file, (e) => seen.push(kindOf(e)), ac.signal, { intervalMs: 10, fromStart: true });
    await new Promise((r) => setTimeout(r, 30));
    appendFileSync(file, line({ session: 's', kind: 'prompt' }));
    await vi.waitFor(() => expect(seen).toEqual(['prompt']), { timeout: 2000, interval: 10 });
    ac.abort();
    await following;
  });

  it('holds a partial line until its newline arrives', async () => {
    const seen: string[] = [];
    const ac = new AbortController();
    writeFileSync(file, '');
    const following = followEvents(file, (e) => seen.push(kindOf(e)), ac.signal, { intervalMs: 10 });
    const whole = line({ session: 's', kind: 'response' });
    appendFileSync(file, whole.slice(0, 20));
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([]);
    appendFileSync(file, whole.slice(20));
    await vi.waitFor(() => expect(seen).toEqual(['response']), { timeout: 2000, interval: 10 });
    ac.abort();
    await following;
  });

  it('reports the unfinished tail of a rotated-away file as torn', async () => {
    const seen: string[] = [];
    const ac = new AbortController();
    writeFileSync(file, '');
    const following = followEvents(file, (e) => seen.push(kindOf(e)), ac.signal, { intervalMs: 10 });
    appendFileSync(file, '{"half":');
    await new Promise((r) => setTimeout(r, 40));
    renameSync(file, join(logs, 'audit.1.jsonl'));
    writeFileSync(file, line({ session: 's', kind: 'prompt' }));
    await vi.waitFor(() => expect(seen).toEqual(['torn:{"half":', 'prompt']), { timeout: 2000, interval: 10 });
    ac.abort();
    await following;
  });

  it('resolves at once for an aborted signal, and rejects when the callback throws', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(followEvents(file, () => undefined, ac.signal)).resolves.toBeUndefined();

    writeFileSync(file, line({ session: 's', kind: 'prompt' }));
    const live = new AbortController();
    const failing = followEvents(file, () => { throw new Error('consumer broke'); }, live.signal, { intervalMs: 10, fromStart: true });
    await expect(failing).rejects.toThrow('consumer broke');
  });
});
