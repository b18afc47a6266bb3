// SIGKILL fault trials (issue #8 §3): a child writes one of wisp's files in a loop (fixtures/churn.ts) and is
// killed at a random moment; then the file must be whole — every audit line a JSON event, approvals.json a valid
// list, every request file a verified request, config.json a valid config — and the next process must carry on
// (a lock left behind is broken, stale requests are swept and audited, leftovers are cleaned). Shared by
// test/hardening/faults.test.ts (a few trials) and test/stress/faults.stress.test.ts (many).
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { MemoryAudit } from '../../src/audit/kinds.js';
import { isTorn, readEvents } from '../../src/audit/reader.js';
import { openAudit } from '../../src/audit/writer.js';
import { loadConfig, updateUserConfig } from '../../src/config/load.js';
import { sweepStale } from '../../src/escalation/queue/answerer.js';
import { readRequest } from '../../src/escalation/queue/files.js';
import { scanDir } from '../../src/escalation/queue/scan.js';
import { ApprovalStore } from '../../src/gate/store.js';
import { wispPaths } from '../../src/core/paths.js';

export type ChurnKind = 'audit' | 'store' | 'queue' | 'config';
const CHURN = join(import.meta.dirname, 'fixtures', 'churn.ts');

export interface TrialReport {
  readonly kind: ChurnKind;
  /** How many records the file held when checked (lines, approvals, requests, deny patterns). */
  readonly records: number;
  /** Temp files the killed writer left behind (garbage, never read as data). */
  readonly leftovers: number;
  /** Audit only: 1 when the line being written was cut (see checkAfterKill). */
  readonly torn?: number;
}

/** Starts the churner, waits for its first write, lets it run `ms`, SIGKILLs it, and returns once it is gone. */
export async function killMidWrite(kind: ChurnKind, home: string, ms: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHURN, kind, home], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    child.on('exit', () => reject(new Error(`churn ${kind} exited before writing: ${stderr}`)));
  });
  await new Promise((r) => setTimeout(r, ms));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
}

/** Checks the file the churner was writing, then that the next process carries on. */
export function checkAfterKill(kind: ChurnKind, home: string): TrialReport {
  const paths = wispPaths(home);
  switch (kind) {
    case 'audit': {
      // A write(2) that spans pages can be cut short by SIGKILL (the kernel checks for a fatal signal between pages),
      // so the line being written when the process died may be torn. The contract: only that one line, only at the
      // end of the live file, shown by the reader as torn (never as an event); every whole event is there once and
      // in order; the next writer starts on a fresh line.
      const live = fs.readFileSync(paths.audit, 'utf8');
      const rotated = fs.readdirSync(join(home, 'logs')).filter((n) => n.endsWith('.jsonl') && n !== 'audit.jsonl');
      for (const f of rotated) expect(fs.readFileSync(join(home, 'logs', f), 'utf8').endsWith('\n'), `${f} is whole`).toBe(true);
      const torn = live !== '' && !live.endsWith('\n') ? 1 : 0;
      const entries = readEvents(paths.audit);
      const tornEntries = entries.filter(isTorn);
      expect(tornEntries.length).toBe(torn);
      if (torn) expect(entries.at(-1)!.torn, 'only the last line can be torn').toBe(true);
      const seqs = entries.filter((e) => !isTorn(e)).map((e) => (isTorn(e) ? -1 : (e.details?.seq as number)));
      expect(seqs, 'nothing lost, nothing twice, in order').toEqual(Array.from({ length: seqs.length }, (_, i) => i));
      // The next writer appends normally: on a fresh line, and a rotation lock left behind does not wedge it.
      const next = openAudit({ file: paths.audit, maxFileBytes: 4 * 1024 * 1024, keepFiles: 50, fsync: false });
      next.write('prompt', { after: true }, { session: 'after' });
      next.close();
      // Torn lines are always shown, whatever the filter (wisp logs shows them); count only whole events here.
      expect(readEvents(paths.audit, { session: 'after' }).filter((e) => !isTorn(e))).toHaveLength(1);
      expect(readEvents(paths.audit).filter(isTorn)).toHaveLength(torn);
      return { kind, records: seqs.length, leftovers: 0, torn };
    }
    case 'store': {
      const leftovers = fs.readdirSync(home).filter((n) => n.startsWith('.approvals.json.') && n.endsWith('.tmp')).length;
      if (!fs.existsSync(paths.approvals)) return { kind, records: 0, leftovers };
      const store = new ApprovalStore(paths.approvals);
      const entries = store.list(); // throws CorruptApprovalsError on a torn or invalid file
      expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
      // The next writer takes the lock a dead process left (if any) and adds.
      const added = store.add({ pattern: 'after *', scope: 'always', level: 'moderate', persistDays: 1, source: 'after' });
      expect(store.list().map((e) => e.id)).toContain(added.id);
      expect(fs.existsSync(`${paths.approvals}.lock`)).toBe(false);
      return { kind, records: entries.length, leftovers };
    }
    case 'queue': {
      const dir = paths.pending;
      const names = fs.readdirSync(dir);
      const requests = names.filter((n) => n.endsWith('.request.json'));
      for (const name of requests) {
        const r = readRequest(dir, name.replace('.request.json', ''));
        expect(r.ok, `${name}: ${r.ok ? '' : r.reason}`).toBe(true);
      }
      const scan = scanDir(dir);
      expect(scan.refused).toEqual([]);
      expect(scan.live, 'requests of a dead process are never live').toEqual([]);
      const leftovers = names.filter((n) => n.startsWith('.')).length;
      // The next listing sweeps them, each audited stale; leftovers older than the grace period go too.
      const old = new Date(Date.now() - 60_000);
      for (const n of names.filter((x) => x.startsWith('.'))) fs.utimesSync(join(dir, n), old, old);
      const audit = new MemoryAudit();
      const swept = sweepStale(paths, audit);
      expect(swept.map((s) => s.id).sort()).toEqual(requests.map((n) => n.replace('.request.json', '')).sort());
      expect(audit.ofKind('escalation.settled').every((e) => e.details.outcome === 'stale')).toBe(true);
      expect(fs.readdirSync(dir)).toEqual([]);
      return { kind, records: requests.length, leftovers };
    }
    case 'config': {
      const leftovers = fs.readdirSync(home).filter((n) => n.startsWith('.config.json.') && n.endsWith('.tmp')).length;
      const loaded = loadConfig({ home, cwd: home, userHome: home }); // throws ConfigError on a torn file
      expect(loaded.config.approval.persistDays).toBeGreaterThanOrEqual(1);
      // The next edit takes the lock a dead process left (if any) and lands.
      updateUserConfig(paths.config, (raw) => ({ ...raw, approval: { persistDays: 7 } }));
      expect(loadConfig({ home, cwd: home, userHome: home }).config.approval.persistDays).toBe(7);
      expect(fs.existsSync(`${paths.config}.lock`)).toBe(false);
      return { kind, records: loaded.config.policy.deny.length, leftovers };
    }
  }
}

/** Runs `trials` kill trials of one kind in fresh homes under `root`. */
export async function killTrials(kind: ChurnKind, root: string, trials: number): Promise<TrialReport[]> {
  const reports: TrialReport[] = [];
  for (let t = 0; t < trials; t++) {
    const home = join(root, `${kind}-${t}`);
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    await killMidWrite(kind, home, 20 + Math.floor(Math.random() * 200));
    reports.push(checkAfterKill(kind, home));
  }
  return reports;
}
