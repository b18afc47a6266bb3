// Remembered approvals (`$WISP_HOME/approvals.json`, design.md §4): answers with scope `project` or `always` that
// outlive the process. The file is re-read on every call (another wisp may have changed it), every change is a
// read–modify–write under `approvals.json.lock` and lands by temp file + rename, so concurrent wisps lose nothing
// and a crash never leaves half a file. A file that doesn't parse is never overwritten except by `clear()`.
import { readFileSync, renameSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { errnoCode, withFileLock, writeFileAtomic } from '../util/atomic.js';
import { WispError } from '../core/errors.js';
import { shortId } from '../core/ids.js';
import { LEVELS, levelRank, type Level } from '../core/levels.js';

/**
 * One stored entry. Loose, so fields written by a newer wisp survive a rewrite by this one instead of making the
 * file look corrupt.
 */
export const StoredApprovalSchema = z.looseObject({
  id: z.string().regex(/^[0-9a-f]{8}$/),
  pattern: z.string().min(1),
  /** Only for `project`: the directory the approval holds in. */
  workingDirectory: z.string().optional(),
  scope: z.enum(['project', 'always']),
  level: z.enum(LEVELS),
  grantedAt: z.iso.datetime({ offset: true }),
  expiresAt: z.iso.datetime({ offset: true }),
  /** Entry point that stored it: `chat`, `mcp`, `queue` … */
  source: z.string(),
  /**
   * The reasons the person was shown when approving. A request with a reason not among them is not covered; an entry
   * without them (written before they were kept) covers nothing that has a reason.
   */
  reasons: z.array(z.string().max(500)).max(64).optional(),
});
export type StoredApproval = z.infer<typeof StoredApprovalSchema>;

const StoreFileSchema = z.array(StoredApprovalSchema);

export interface NewApproval {
  readonly pattern: string;
  /** Required for `project`; ignored for `always`. */
  readonly workingDirectory?: string;
  readonly scope: 'project' | 'always';
  readonly level: Level;
  /** Days until it expires (config `approval.persistDays`, 1–365). */
  readonly persistDays: number;
  readonly source: string;
  /** The reasons shown to the person (see StoredApprovalSchema.reasons). */
  readonly reasons?: readonly string[];
}

/** approvals.json exists but can't be read as a list of approvals. Nothing is written over it (except `clear`). */
export class CorruptApprovalsError extends WispError {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file} ${problem}; move it aside or run \`wisp approvals clear\``);
    this.name = 'CorruptApprovalsError';
  }
}

const DAY_MS = 86_400_000;

export class ApprovalStore {
  private readonly now: () => Date;

  constructor(
    readonly file: string,
    opts: { now?: () => Date } = {},
  ) {
    this.now = opts.now ?? (() => new Date());
  }

  /**
   * The live approval covering `pattern` in `directory` at `level`, if any. Never anything for `dangerous`. A
   * `project` entry matches only its own directory, an `always` entry any directory; an entry granted at a lower
   * level doesn't cover a riskier request of the same pattern.
   */
  find(pattern: string, directory: string, level: Level, reasons?: readonly string[]): StoredApproval | undefined {
    if (level === 'dangerous') return undefined;
    const dir = resolve(directory);
    const now = this.now().getTime();
    const shown = (e: StoredApproval) => reasons === undefined || reasons.every((r) => e.reasons?.includes(r) === true);
    return this.read().find(
      (e) =>
        e.pattern === pattern &&
        shown(e) &&
        e.level !== 'dangerous' &&
        levelRank(e.level) >= levelRank(level) &&
        Date.parse(e.expiresAt) > now &&
        (e.scope === 'always' || (e.workingDirectory !== undefined && resolve(e.workingDirectory) === dir)),
    );
  }

  /**
   * Stores an approval and returns it. A previous entry with the same pattern, scope, directory and level is
   * replaced (its expiry renewed). Throws for `dangerous`: such answers never outlive the session.
   */
  add(entry: NewApproval): StoredApproval {
    if (entry.level === 'dangerous') {
      throw new WispError(`a dangerous command is never remembered beyond the session (${entry.pattern})`);
    }
    if (!Number.isInteger(entry.persistDays) || entry.persistDays < 1 || entry.persistDays > 365) {
      throw new WispError(`persistDays must be a whole number from 1 to 365, not ${entry.persistDays}`);
    }
    if (entry.scope === 'project' && (entry.workingDirectory === undefined || entry.workingDirectory === '')) {
      throw new WispError('a project approval needs its working directory');
    }
    return this.update((live) => {
      const granted = this.now();
      const workingDirectory = entry.scope === 'project' ? resolve(entry.workingDirectory as string) : undefined;
      const taken = new Set(live.map((e) => e.id));
      let id = shortId(4);
      while (taken.has(id)) id = shortId(4);
      const stored: StoredApproval = {
        id,
        pattern: entry.pattern,
        ...(workingDirectory !== undefined ? { workingDirectory } : {}),
        scope: entry.scope,
        level: entry.level,
        grantedAt: granted.toISOString(),
        expiresAt: new Date(granted.getTime() + entry.persistDays * DAY_MS).toISOString(),
        source: entry.source,
        ...(entry.reasons !== undefined ? { reasons: [...entry.reasons] } : {}),
      };
      const rest = live.filter(
        (e) =>
          !(
            e.pattern === stored.pattern &&
            e.scope === stored.scope &&
            e.level === stored.level &&
            e.workingDirectory === stored.workingDirectory &&
            (e.reasons ?? []).join('\n') === (stored.reasons ?? []).join('\n')
          ),
      );
      return { entries: [...rest, stored], result: stored };
    });
  }

  /** Live (unexpired) approvals, oldest grant first. */
  list(): StoredApproval[] {
    const now = this.now().getTime();
    return this.read()
      .filter((e) => Date.parse(e.expiresAt) > now)
      .sort((a, b) => a.grantedAt.localeCompare(b.grantedAt));
  }

  /** Removes the approval with this id; false when there is none. */
  revoke(id: string): boolean {
    return this.update((live) => {
      const rest = live.filter((e) => e.id !== id);
      return { entries: rest, result: rest.length !== live.length };
    });
  }

  /**
   * Removes every approval and returns how many were live. This is the one operation allowed to replace a corrupt
   * file: the damaged one is kept beside it as `approvals.json.corrupt-<time>` (evidence, and nothing is lost).
   */
  clear(): number {
    return withFileLock(this.lockFile, () => {
      let count = 0;
      try {
        count = this.liveOf(this.read()).length;
      } catch (err) {
        if (!(err instanceof CorruptApprovalsError)) throw err;
        renameSync(this.file, `${this.file}.corrupt-${this.now().toISOString().replace(/[:.]/g, '-')}`);
      }
      this.write([]);
      return count;
    });
  }

  private get lockFile(): string {
    return `${this.file}.lock`;
  }

  /** Runs a read–modify–write under the lock; expired entries are dropped on the way. */
  private update<T>(change: (live: StoredApproval[]) => { entries: StoredApproval[]; result: T }): T {
    return withFileLock(this.lockFile, () => {
      const all = this.read();
      const live = this.liveOf(all);
      const { entries, result } = change(live);
      if (entries.length !== all.length || entries.some((e, i) => e !== all[i])) this.write(entries);
      return result;
    });
  }

  private liveOf(entries: StoredApproval[]): StoredApproval[] {
    const now = this.now().getTime();
    return entries.filter((e) => Date.parse(e.expiresAt) > now);
  }

  /** All entries in the file (expired included); [] when there is no file. Throws CorruptApprovalsError. */
  private read(): StoredApproval[] {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return [];
      throw err;
    }
    if (text.trim() === '') return [];
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new CorruptApprovalsError(this.file, 'is not valid JSON');
    }
    const parsed = StoreFileSchema.safeParse(raw);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const where = first ? `${first.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${first.message}` : '';
      throw new CorruptApprovalsError(this.file, `is not a list of approvals (${where.replace(/^\./, '')})`);
    }
    return parsed.data;
  }

  private write(entries: StoredApproval[]): void {
    // No directory fsync: after a power cut the previous file may come back, which only means being asked again.
    writeFileAtomic(this.file, sortedJson(entries) + '\n', { mode: 0o600, syncDirectory: false });
  }
}

/** Pretty JSON with object keys sorted, so the file diffs cleanly and reads the same whoever wrote it. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, v: unknown) =>
      typeof v === 'object' && v !== null && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    2,
  );
}
