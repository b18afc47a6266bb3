// The body of `wisp logs`.
import { statSync } from 'node:fs';
import { safeJson } from '../src/core/safe-json.js';
import { formatEntry } from '../src/audit/format.js';
import { AUDIT_KINDS } from '../src/audit/kinds.js';
import { followEvents, isTorn, readEvents, type AuditEntry } from '../src/audit/reader.js';
import { visible } from '../src/core/visible.js';
import { wispPaths } from '../src/core/paths.js';
import { quietOnClosedPipe } from './output.js';

export interface LogsFlags {
  session?: string;
  thread?: string;
  kind: string[];
  last?: number;
  json?: boolean;
  follow?: boolean;
}

/** With -f and no --last, the lines shown before following (as `tail -f`). */
const FOLLOW_BACKLOG = 10;

export async function runLogs(flags: LogsFlags): Promise<number> {
  quietOnClosedPipe();
  const file = wispPaths().audit;
  const kinds = flags.kind.flatMap((k) => k.split(',')).map((k) => k.trim()).filter(Boolean);
  for (const k of kinds) {
    const known = (AUDIT_KINDS as readonly string[]).some((a) => a === k || a.startsWith(`${k}.`));
    if (!known) process.stderr.write(`wisp: note: '${visible(k, { maxChars: 40 })}' is not a kind this wisp writes; the kinds are listed in docs/logging.md\n`);
  }
  const wanted = (e: AuditEntry): boolean => {
    if (isTorn(e) || kinds.length === 0) return true;
    return kinds.some((k) => e.kind === k || e.kind.startsWith(`${k}.`));
  };
  const print = (e: AuditEntry): void => {
    process.stdout.write((flags.json ? safeJson(e) : formatEntry(e)) + '\n');
  };

  const filter = { ...(flags.session ? { session: flags.session } : {}), ...(flags.thread ? { thread: flags.thread } : {}) };
  // Where the live file ends before the backlog is read: following continues from there, so an event written
  // between reading the backlog and the first poll is not lost (events read twice are shown once, by id).
  const from = liveEnd(file);
  const matching = readEvents(file, filter).filter(wanted);
  const shownIds = new Set(matching.flatMap((e) => (isTorn(e) ? [] : [e.id])));
  const last = flags.last ?? (flags.follow ? FOLLOW_BACKLOG : undefined);
  const shown = last !== undefined ? matching.slice(Math.max(0, matching.length - last)) : matching;
  for (const e of shown) print(e);
  if (!flags.follow) {
    if (matching.length === 0 && process.stderr.isTTY && !flags.json) process.stderr.write(`wisp: no matching events in ${file}\n`);
    return 0;
  }

  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await followEvents(
      file,
      (e) => {
        if (isTorn(e)) {
          print(e);
          return;
        }
        if (flags.session !== undefined && e.session !== flags.session) return;
        if (flags.thread !== undefined && e.thread !== flags.thread) return;
        if (shownIds.delete(e.id)) return;
        if (wanted(e)) print(e);
      },
      controller.signal,
      { from },
    );
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
  return 0;
}

function liveEnd(file: string): { ino: number; dev: number; size: number } {
  try {
    const st = statSync(file);
    return { ino: st.ino, dev: st.dev, size: st.size };
  } catch {
    return { ino: -1, dev: -1, size: 0 }; // no log yet: whatever file appears is read whole
  }
}
