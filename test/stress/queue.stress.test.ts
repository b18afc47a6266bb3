// The queue under load (issue 15): four processes answer the same waiting request at the same instant, 200 times,
// while a busy loop runs on every core; every round the asker's applied answer and all four reports must agree.
// Then every interleaving of one asker and two answerers with up to two preemptions (the normal suite explores one).
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { QueueChannel } from '../../src/escalation/queue/asker.js';
import { wispPaths } from '../../src/core/paths.js';
import { explore, scratchRoot } from '../helpers/queue-interleave.js';
import { RACE_DECISIONS, verdictOf, type RacerReport } from '../helpers/queue-race.js';

const ROUNDS = Number(process.env.WISP_STRESS_QUEUE_ROUNDS ?? 200);
const root = resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('queue race under CPU load', () => {
  it(`${ROUNDS} rounds of four simultaneous answers: no round where a report and the applied answer disagree`, async () => {
    const home = fs.mkdtempSync(join(tmpdir(), 'wisp-stress-queue-'));
    dirs.push(home);
    const coord = join(home, 'coord');
    fs.mkdirSync(coord);
    const env = { ...process.env, WISP_HOME: home };
    const racers = RACE_DECISIONS.map((d) => {
      const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test/fixtures/queue/answer-rounds.ts'), coord, String(ROUNDS), d], {
        cwd: root,
        env,
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      return child;
    });
    await until(() => fs.readdirSync(coord).filter((n) => n.startsWith('ready.')).length === racers.length, 300_000, 'the racers');
    // The load: a busy loop on every core, from here to the end of the run.
    for (let i = 0; i < availableParallelism(); i++) {
      children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    }

    const paths = wispPaths(home);
    const channel = new QueueChannel({ paths, audit: new MemoryAudit(), pendingSeconds: 600 });
    const disagreements: string[] = [];
    const tally = new Map<string, number>();
    for (let i = 0; i < ROUNDS; i++) {
      const id = `round${i}`;
      const outcome = channel.raise(
        { verb: 'approval', request: { command: 'touch x', line: 'touch x', pattern: 'touch *', directory: home, level: 'moderate', reasons: [] } },
        { session: 's', timeoutMs: 300_000, escalationId: id },
      );
      const tmp = join(coord, `.go.${i}`);
      fs.writeFileSync(tmp, id);
      fs.renameSync(tmp, join(coord, `go.${i}`));
      const result = await outcome;
      await until(() => fs.readdirSync(coord).filter((n) => n.startsWith(`report.${i}.`)).length === racers.length, 300_000, `round ${i}'s reports`);
      const reports = fs
        .readdirSync(coord)
        .filter((n) => n.startsWith(`report.${i}.`))
        .map((n) => JSON.parse(fs.readFileSync(join(coord, n), 'utf8')) as RacerReport);
      const verdict = verdictOf(reports, result);
      if (!verdict.ok) disagreements.push(`round ${i}: ${verdict.why}`);
      for (const r of reports) tally.set(r.fate, (tally.get(r.fate) ?? 0) + 1);
    }
    console.log(`queue race: ${ROUNDS} rounds under ${availableParallelism()} busy loops; reports: ${JSON.stringify(Object.fromEntries(tally))}`);
    expect(disagreements).toEqual([]);
    expect(fs.readdirSync(paths.pending).filter((n) => !n.endsWith('.taken.json'))).toEqual([]);
  }, 1_800_000);
});

describe('queue protocol: every interleaving with up to two preemptions', () => {
  const scratch = scratchRoot();
  dirs.push(scratch);
  for (const s of [{ mode: 'waiting' as const }, { mode: 'deferred' as const }, { mode: 'waiting' as const, forgedB: true }]) {
    it(JSON.stringify(s), () => {
      const { runs } = explore(scratch, { ...s, bound: 2 });
      console.log(`interleavings ${JSON.stringify(s)}: ${runs} schedules, all agree`);
      expect(runs).toBeGreaterThan(1000);
    }, 3_600_000);
  }
});
