// Answers remembered in memory: `session` lasts the process (all threads), `once` the rest of one turn.
// Keys are directory + pattern, so an answer given for /a never covers /b. Each answer remembers what the person saw
// (the level and the reasons of the line they approved): it covers another line only when the classifier rates that
// line no higher and with no reason the approved line did not have (docs/decisions/0015-consent-means-what-was-shown.md).
import { type Level, levelRank } from '../core/levels.js';

export function approvalKey(directory: string, pattern: string): string {
  return `${directory}\0${pattern}`;
}

/** What the person approved: the level and the reasons they were shown. */
export interface Grant {
  readonly level: Level;
  readonly reasons: readonly string[];
}

/** A grant covers a request at no higher level and with no reason it did not have. */
export function grantCovers(grant: Grant, level: Level, reasons: readonly string[]): boolean {
  return levelRank(level) <= levelRank(grant.level) && reasons.every((r) => grant.reasons.includes(r));
}

/** A grant given without what was shown covers only lines that need no reason at all. */
const NOTHING_SHOWN: Grant = { level: 'safe', reasons: [] };

export class ApprovalCache {
  private readonly grants = new Map<string, Grant[]>();

  /** Whether any answer is kept for this key (whatever it covers). */
  has(directory: string, pattern: string): boolean {
    return this.grants.has(approvalKey(directory, pattern));
  }

  /** Whether a kept answer covers a request for this key at this level with these reasons. */
  covers(directory: string, pattern: string, level: Level, reasons: readonly string[]): boolean {
    return (this.grants.get(approvalKey(directory, pattern)) ?? []).some((g) => grantCovers(g, level, reasons));
  }

  /** Keeps an answer. Answers for the same key are kept side by side: each covers only what it was shown. */
  add(directory: string, pattern: string, grant: Grant = NOTHING_SHOWN): void {
    const key = approvalKey(directory, pattern);
    const kept = this.grants.get(key) ?? [];
    if (kept.some((g) => grantCovers(g, grant.level, grant.reasons))) return;
    kept.push({ level: grant.level, reasons: [...grant.reasons] });
    this.grants.set(key, kept);
  }

  list(): Array<{ directory: string; pattern: string }> {
    return [...this.grants.keys()].map((k) => {
      const [directory = '', pattern = ''] = k.split('\0');
      return { directory, pattern };
    });
  }

  delete(directory: string, pattern: string): boolean {
    return this.grants.delete(approvalKey(directory, pattern));
  }

  clear(): void {
    this.grants.clear();
  }

  get size(): number {
    return this.grants.size;
  }
}
