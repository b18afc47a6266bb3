// Approved runs at once in one root (ADR 0101 part 1): a placeholder (protect.ts) is shared by every run that holds
// its name, so the one that made it must not remove it while another still has it mounted — on Linux, removing a
// mount point in another namespace unmounts it there, and the other run could then create the protected name.
// A ledger under $WISP_HOME (read-only to every command) counts who holds what; every change to it, and the
// making and removing of placeholders, happens under one lock file, so a run that starts while another ends
// sees either the placeholder and its own claim on it, or neither.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { withFileLock, writeFileAtomic } from '../util/atomic.js';
import { processAlive } from '../util/process-alive.js';
import { makePlaceholders, removePlaceholders, type HeldPaths } from './protect.js';

interface LedgerRun {
  readonly id: string;
  readonly pid: number;
  /** Every path the run mounts read-only: placeholders it made, and existing names it holds (another's placeholder). */
  readonly holds: readonly string[];
}

interface Ledger {
  readonly runs: LedgerRun[];
  /** Placeholders wisp made and has not removed yet, whoever made them. */
  readonly placeholders: string[];
}

export interface HeldClaim {
  /** The paths to mount read-only: present ones and the placeholders that now exist. */
  readonly readOnly: string[];
  /** Gives the run's claim back and removes the placeholders no other run holds; call once its sandbox is gone. */
  readonly release: () => void;
}

const LEDGER = 'held.json';
const LOCK = 'held.lock';
/** Losing the ledger to a power cut only leaves empty placeholders behind: no fsync on a run's path. */
const WRITE = { mode: 0o600, fsync: false, syncDirectory: false } as const;

function dir(wispHome: string): string {
  return join(wispHome, 'sandbox');
}

function readLedger(file: string): Ledger {
  try {
    const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof raw !== 'object' || raw === null) return { runs: [], placeholders: [] };
    const r = raw as { runs?: unknown; placeholders?: unknown };
    const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    const runs = Array.isArray(r.runs)
      ? r.runs.flatMap((x: unknown): LedgerRun[] => {
          if (typeof x !== 'object' || x === null) return [];
          const e = x as { id?: unknown; pid?: unknown; holds?: unknown };
          return typeof e.id === 'string' && typeof e.pid === 'number' ? [{ id: e.id, pid: e.pid, holds: strings(e.holds) }] : [];
        })
      : [];
    return { runs, placeholders: strings(r.placeholders) };
  } catch {
    // Missing or unreadable: nobody is known to hold anything. A placeholder a lost ledger named stays (empty,
    // harmless) rather than being removed under a run that may still hold it.
    return { runs: [], placeholders: [] };
  }
}

/**
 * Removes the placeholders no live run holds (a wisp killed during a run left its own behind) and returns the
 * ledger without them and without the dead runs.
 */
function sweep(ledger: Ledger, without?: string): Ledger {
  const runs = ledger.runs.filter((r) => r.id !== without && processAlive(r.pid));
  const held = new Set(runs.flatMap((r) => r.holds));
  const free = ledger.placeholders.filter((p) => !held.has(p));
  removePlaceholders(free);
  // One that could not be removed (something was put in it) is no longer a placeholder: forget it either way.
  return { runs, placeholders: ledger.placeholders.filter((p) => held.has(p)) };
}

/**
 * Computes what the run holds (`find`, under the lock, so it sees the placeholders of the runs going on), makes the
 * missing placeholders, and records the run as holding all of it. The caller must call `release` once the run's
 * sandbox is gone.
 */
export function claimHeld(wispHome: string, find: () => HeldPaths): HeldClaim & { held: HeldPaths } {
  const d = dir(wispHome);
  mkdirSync(d, { recursive: true, mode: 0o700 });
  const file = join(d, LEDGER);
  const id = `${process.pid}.${randomBytes(6).toString('hex')}`;
  return withFileLock(join(d, LOCK), () => {
    const ledger = sweep(readLedger(file));
    const held = find();
    const made = makePlaceholders(held.absent);
    const readOnly = [...new Set([...held.present, ...made.present, ...made.made])];
    const holds = readOnly.filter((p) => existsSync(p));
    writeFileAtomic(
      file,
      JSON.stringify({ runs: [...ledger.runs, { id, pid: process.pid, holds }], placeholders: [...new Set([...ledger.placeholders, ...made.made])] }),
      WRITE,
    );
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      withFileLock(join(d, LOCK), () => {
        writeFileAtomic(file, JSON.stringify(sweep(readLedger(file), id)), WRITE);
      });
    };
    return { held, readOnly, release };
  });
}
