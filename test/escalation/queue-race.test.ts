// Several processes answering the same request at the same instant: exactly one answer decides, and every
// answerer's report matches what happened to its answer (ADR 0026). The same race, 200 times under CPU load, is
// in test/stress/queue-race.stress.test.ts.
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { answerAndFollow, answerRequest } from '../../src/escalation/queue/answerer.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { answerExists, readRequest } from '../../src/escalation/queue/files.js';
import { wispPaths } from '../../src/core/paths.js';
import { raceAnswerers, verdictOf } from '../helpers/queue-race.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) fs.rmSync(h, { recursive: true, force: true });
});

function home(): string {
  const h = fs.mkdtempSync(join(tmpdir(), 'wisp-race-'));
  homes.push(h);
  return h;
}

describe('answers at once (four racing processes)', () => {
  it('exactly one answer is taken by the waiting process, and only its writer says so', async () => {
    const h = home();
    const paths = wispPaths(h);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const id = 'race01';
    const outcome = channel.raise(
      { verb: 'approval', request: { command: 'touch x', line: 'touch x', pattern: 'touch *', directory: h, level: 'moderate', reasons: [] } },
      { session: 's', timeoutMs: 90_000, escalationId: id },
    );
    const reports = await raceAnswerers(id, h);
    const result = await outcome;
    expect(verdictOf(reports, result)).toEqual({ ok: true });
    expect(fs.readdirSync(paths.pending).filter((n) => !n.endsWith('.taken.json'))).toEqual([]);
  }, 90_000);

  it('without anyone waiting, one answer is recorded; the asker takes exactly one of those recorded', async () => {
    const h = home();
    const paths = wispPaths(h);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const { id } = await channel.file(
      { verb: 'approval', request: { command: 'touch y', line: 'touch y', pattern: 'touch *', directory: h, level: 'moderate', reasons: [] } },
      { session: 's', timeoutMs: 0, escalationId: 'race02' },
    );
    const reports = await raceAnswerers(id, h);
    const recorded = reports.filter((r) => r.fate === 'recorded');
    expect(recorded.length).toBeGreaterThanOrEqual(1); // the check for an earlier answer is best effort
    for (const r of reports.filter((x) => x.fate !== 'recorded')) expect(r.fate).toBe('exists');
    const taken = channel.poll(id);
    expect(taken).toBeDefined();
    const decision = taken!.kind === 'approved' ? taken!.scope : 'no';
    expect(recorded.map((r) => r.decision)).toContain(decision);
    expect(fs.readdirSync(paths.pending).filter((n) => !n.endsWith('.taken.json'))).toEqual([]);
  }, 90_000);

  it('in one process too: a second answer is refused while the first waits, and the first is the one taken', async () => {
    const h = home();
    const paths = wispPaths(h);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const { id } = await channel.file({ verb: 'inquiry', request: { question: 'q?' } }, { session: 's', timeoutMs: 0, escalationId: 'race03' });
    const r = readRequest(paths.pending, id);
    if (!r.ok) throw new Error(r.reason);
    expect(await answerAndFollow(paths, r.value, { text: 'first' }, { via: 'cli' })).toBe('recorded');
    expect(answerRequest(paths, r.value, { text: 'second' }, { via: 'cli' })).toEqual({ ok: false, reason: 'exists' });
    expect(await answerAndFollow(paths, r.value, { text: 'third' }, { via: 'cli' })).toBe('exists');
    expect(channel.poll(id)).toEqual({ kind: 'answered', text: 'first' });
    expect(answerExists(paths.pending, id)).toBe(false);
  });
});
