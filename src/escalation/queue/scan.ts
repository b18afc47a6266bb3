// Looking at the queue directory as a whole: the one staleness rule (a request whose time is up or whose asker is
// gone), which stale requests a sweep may remove, and the scan that sorts every file into live requests, stale ones,
// refused ones and orphans past their grace. Reading and writing single files is files.ts; who removes what, and when,
// is the protocol's (protocol.ts) and the answering side's (answerer.ts).
import * as fs from 'node:fs';
import { join } from 'node:path';
import { ANSWER_FILE, LEGACY_FILE, readRequest, REQUEST_FILE, TAKEN_FILE, TEMP_FILE, type QueueRequest } from './files.js';

/** Answers of an ended request, and temp files of a writer that is gone, are removed once this old. */
export const ORPHAN_GRACE_MS = 10_000;
/** A temp file is removed once this old even when the pid in its name looks alive (pid reuse, a stopped writer). */
export const TEMP_MAX_AGE_MS = 60 * 60_000;
/**
 * The asker's record of a taken answer outlives its request this long: the answer's writer reads it to learn its
 * fate, and an answerer suspended for longer reports "unknown" rather than guess (queue/protocol.ts).
 */
export const RECORD_GRACE_MS = 10 * 60_000;
/** A request past its expiry whose asker still looks alive is left to the asker this long before it is swept. */
export const EXPIRED_SWEEP_MS = 60 * 60_000;


import { processAlive } from '../../util/process-alive.js';
export { processAlive };

/**
 * The one staleness rule: a request is stale when its time is up or its asking process is gone (checked in that
 * order), else live. Listings, sweeps, answerers and the chat's view of a request that left the queue all ask here.
 */
export function staleCause(req: QueueRequest, now: number = Date.now()): 'expired' | 'asker-gone' | undefined {
  if (req.expiresAt !== null && Date.parse(req.expiresAt) <= now) return 'expired';
  if (!processAlive(req.pid)) return 'asker-gone';
  return undefined;
}

/** Why a request is stale, in words, or undefined while it is live (staleCause). */
export function staleReason(req: QueueRequest, now: number = Date.now()): string | undefined {
  switch (staleCause(req, now)) {
    case 'expired':
      return `it expired at ${req.expiresAt}`;
    case 'asker-gone':
      return `the asking process (pid ${req.pid}) is gone`;
    case undefined:
      return undefined;
  }
}

/**
 * May a sweep remove this stale request? Only when its asker can no longer settle it itself: the process is gone,
 * or it expired so long ago that the asker must be wedged (or its pid reused). A live asker removes its own expired
 * requests (at its timeout, at the next turn, at exit), so each request is settled once, by one party.
 */
export function sweepable(req: QueueRequest, now: number = Date.now()): boolean {
  if (!processAlive(req.pid)) return true;
  return req.expiresAt !== null && Date.parse(req.expiresAt) + EXPIRED_SWEEP_MS <= now;
}

export interface ScanResult {
  readonly live: QueueRequest[];
  /** Not listed and not answerable; `sweep` when a sweep may remove it (see `sweepable`). */
  readonly stale: Array<{ readonly request: QueueRequest; readonly reason: string; readonly sweep: boolean }>;
  readonly refused: Array<{ readonly id: string; readonly file: string; readonly reason: string }>;
  /**
   * Files nobody will use again: answers and records of ended requests, temp files of writers that are gone, each
   * past its grace period (ORPHAN_GRACE_MS, RECORD_GRACE_MS, TEMP_MAX_AGE_MS).
   */
  readonly orphans: string[];
}

export function scanDir(dir: string, now: number = Date.now()): ScanResult {
  const live: QueueRequest[] = [];
  const stale: ScanResult['stale'] = [];
  const refused: ScanResult['refused'] = [];
  const orphans: string[] = [];
  const names = fs.readdirSync(dir).sort();
  const requestIds = new Set<string>();
  for (const name of names) {
    const m = REQUEST_FILE.exec(name);
    if (!m) continue;
    const id = m[1]!;
    requestIds.add(id);
    const r = readRequest(dir, id);
    if (r.ok) {
      const why = staleReason(r.value, now);
      if (why === undefined) live.push(r.value);
      else stale.push({ request: r.value, reason: why, sweep: sweepable(r.value, now) });
    } else if (r.code === 'refused') {
      refused.push({ id, file: join(dir, name), reason: r.reason });
    }
  }
  for (const name of names) {
    const grace = orphanGrace(name, requestIds);
    if (grace === undefined) continue;
    try {
      if (now - fs.lstatSync(join(dir, name)).mtimeMs > grace) orphans.push(join(dir, name));
    } catch {
      // already gone
    }
  }
  live.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return { live, stale, refused, orphans };
}

/** How old a file must be before a sweep removes it, or undefined when it is not the sweep's to remove. */
function orphanGrace(name: string, requestIds: ReadonlySet<string>): number | undefined {
  const answer = ANSWER_FILE.exec(name);
  if (answer) return requestIds.has(answer[1]!) ? undefined : ORPHAN_GRACE_MS;
  const taken = TAKEN_FILE.exec(name);
  if (taken) return requestIds.has(taken[1]!) ? undefined : RECORD_GRACE_MS;
  const temp = TEMP_FILE.exec(name);
  if (temp) return processAlive(Number(temp[1])) ? TEMP_MAX_AGE_MS : ORPHAN_GRACE_MS;
  if (LEGACY_FILE.test(name)) return ORPHAN_GRACE_MS;
  return undefined;
}
