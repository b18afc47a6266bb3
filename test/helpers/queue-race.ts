// The multi-process answer race, shared by test/escalation/queue-race.test.ts and the stress run: racers
// (test/fixtures/queue/answer.ts) load, wait at a barrier, then answer one request at the same instant.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { join, resolve } from 'node:path';
import type { EscalationOutcome } from '../../src/escalation/types.js';

const root = resolve(import.meta.dirname, '../..');
const answerer = join(root, 'test/fixtures/queue/answer.ts');

export const RACE_DECISIONS = ['once', 'no', 'session', 'no'] as const;

export interface RacerReport {
  readonly written: boolean;
  readonly fate: string;
  readonly decision: string;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? res(out) : rej(new Error(`exit ${code}: ${err}`))));
  });
}

/** Starts one racer per decision, waits until all are loaded and spinning, then lets them go at once. */
export async function raceAnswerers(id: string, home: string, decisions: readonly string[] = RACE_DECISIONS): Promise<RacerReport[]> {
  const barrier = fs.mkdtempSync(join(home, 'barrier-'));
  const env = { ...process.env, WISP_HOME: home };
  const runs = decisions.map((d) => run([answerer, id, d, barrier], env));
  const deadline = Date.now() + 120_000;
  while (fs.readdirSync(barrier).length < decisions.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  fs.writeFileSync(join(barrier, 'go'), '');
  const reports = (await Promise.all(runs)).map((o) => JSON.parse(o) as RacerReport);
  fs.rmSync(barrier, { recursive: true, force: true });
  return reports;
}

/**
 * Do the waiting asker's outcome and every racer's report agree? Exactly one racer says `taken`, the outcome is its
 * decision, and every other racer says its answer was not used.
 */
export function verdictOf(reports: readonly RacerReport[], outcome: EscalationOutcome): { ok: true } | { ok: false; why: string } {
  const taken = reports.filter((r) => r.fate === 'taken');
  if (taken.length !== 1) return { ok: false, why: `${taken.length} racers were told "taken": ${JSON.stringify(reports)}` };
  const applied = outcome.kind === 'approved' ? outcome.scope : outcome.kind === 'declined' ? 'no' : `(${outcome.kind})`;
  if (applied !== taken[0]!.decision) {
    return { ok: false, why: `the asker applied ${applied}, but the racer told "taken" wrote ${taken[0]!.decision}: ${JSON.stringify(reports)}` };
  }
  const others = reports.filter((r) => r !== taken[0]);
  // `no-request`: a racer that came after the request had already ended, and so answered nothing.
  const wrong = others.filter((r) => !['exists', 'other', 'ended', 'no-request'].includes(r.fate));
  if (wrong.length > 0) return { ok: false, why: `unexpected reports from the others: ${JSON.stringify(wrong)}` };
  return { ok: true };
}
