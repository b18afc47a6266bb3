// Revocations from another terminal reach a running chat. `wisp approvals revoke ID` and `clear` change
// approvals.json, which the gate reads afresh on every check — but this chat's session approvals live in its
// memory. The chat follows the audit log for `approval.revoked` (the one record every revocation writes, whoever
// made it) and drops its session approvals of the revoked pattern — all of them after a `clear` — and says so.
// Only stricter: an event can only take approvals away, so a forged or stray line costs a question, never a grant.
import { followEvents, isTorn, type AuditEntry } from '../src/audit/reader.js';
import type { ApprovalCache } from '../src/gate/session-approvals.js';
import type { EntryBody } from './transcript-entries.js';

export interface RevocationWatchOptions {
  /** The audit log ($WISP_HOME/audit.jsonl). */
  readonly auditFile: string;
  readonly sessionApprovals: ApprovalCache;
  readonly report: (entry: EntryBody) => void;
  /** @default 250 */
  readonly pollMs?: number;
}

export class RevocationWatch {
  private readonly stop = new AbortController();
  /** Ids this chat revoked itself (it already dropped and said what it did). */
  private readonly own = new Set<string>();

  constructor(private readonly opts: RevocationWatchOptions) {}

  start(): void {
    followEvents(this.opts.auditFile, (e) => this.onEvent(e), this.stop.signal, { intervalMs: this.opts.pollMs ?? 250 }).catch(
      (err: unknown) => {
        this.opts.report({
          kind: 'error',
          text: `revocations made in other terminals will not reach this chat: ${err instanceof Error ? err.message : String(err)}`,
        });
      },
    );
  }

  /** A revocation this chat made: its event is not news. */
  mine(ids: readonly string[]): void {
    for (const id of ids) this.own.add(id);
  }

  close(): void {
    this.stop.abort();
  }

  /** One audit line (public for tests). */
  onEvent(entry: AuditEntry): void {
    if (isTorn(entry) || entry.kind !== 'approval.revoked') return;
    const d = entry.details ?? {};
    const ids = Array.isArray(d.ids) ? d.ids.filter((x): x is string => typeof x === 'string') : [];
    if (ids.length > 0 && ids.every((id) => this.own.has(id))) return;
    // Another chat revoking one of its own session approvals (s1, s2…): nothing stored changed, nothing here to drop.
    if (d.scope === 'session') return;
    const cache = this.opts.sessionApprovals;
    if (d.action === 'clear') {
      const n = cache.size;
      cache.clear();
      this.opts.report({
        kind: 'info',
        text:
          `stored approvals were cleared in another terminal` +
          (n > 0 ? `: this chat's ${n} session approval${n === 1 ? ' is' : 's are'} dropped too` : '; this chat had no session approvals'),
      });
      return;
    }
    if (typeof d.pattern !== 'string') {
      // A revocation whose pattern is unknown (its entry was gone already): nothing to match, so nothing is kept.
      const n = cache.size;
      cache.clear();
      this.opts.report({
        kind: 'info',
        text: `approval ${ids.join(', ')} was revoked in another terminal` + (n > 0 ? `: this chat's ${n} session approval${n === 1 ? ' is' : 's are'} dropped to be safe` : ''),
      });
      return;
    }
    const pattern = d.pattern;
    const dropped = cache.list().filter((e) => e.pattern === pattern);
    for (const e of dropped) cache.delete(e.directory, e.pattern);
    this.opts.report({
      kind: 'info',
      text:
        `approval ${ids.join(', ')} (${pattern}) was revoked in another terminal` +
        (dropped.length === 1
          ? `: this chat's session approval of it (in ${dropped[0]!.directory}) is dropped too`
          : dropped.length > 1
            ? `: this chat's session approvals of it (in ${dropped.map((e) => e.directory).join(', ')}) are dropped too`
            : ''),
    });
  }
}
