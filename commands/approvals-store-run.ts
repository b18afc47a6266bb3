// The bodies of `wisp approvals list|revoke|clear`.
import { safeJson } from '../src/core/safe-json.js';
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { visible } from '../src/core/visible.js';
import { ApprovalStore, CorruptApprovalsError, type StoredApproval } from '../src/gate/store.js';
import { wispPaths } from '../src/core/paths.js';
import { recordOperatorEvent, type Revocation } from '../src/audit/operator.js';
import { auditRotation } from '../src/config/audit-rotation.js';
import { UsageError, WispError } from '../src/core/errors.js';
import { quietOnClosedPipe, renderTable } from './output.js';

function store(): ApprovalStore {
  return new ApprovalStore(wispPaths().approvals);
}

export function listApprovals(json: boolean): void {
  quietOnClosedPipe();
  const file = wispPaths().approvals;
  const entries = store().list();
  if (json) {
    process.stdout.write(safeJson(entries, 2) + '\n');
    return;
  }
  if (entries.length === 0) {
    if (process.stdout.isTTY) {
      process.stdout.write(existsSync(file) ? 'no stored approvals\n' : `no stored approvals (${file} does not exist yet)\n`);
    }
    return;
  }
  const now = Date.now();
  const tty = process.stdout.isTTY === true;
  const rows = entries.map((e) => row(e, now, tty));
  process.stdout.write(renderTable(['ID', 'SCOPE', 'EXPIRES', 'DIRECTORY', 'PATTERN', 'LEVEL', 'SOURCE'], rows, { tty }));
}

/**
 * One entry as cells. Patterns and directories come from commands a model proposed and from repository paths:
 * shown through visible(). On a terminal the expiry is relative ("in 29d"); piped it is the ISO time.
 */
function row(e: StoredApproval, now: number, tty: boolean): string[] {
  return [
    visible(e.id, { maxChars: 16 }),
    e.scope,
    tty ? `in ${relative(Date.parse(e.expiresAt) - now)}` : e.expiresAt,
    e.scope === 'always' ? (tty ? '(any)' : '') : visible(e.workingDirectory ?? '', { maxChars: tty ? 60 : 4096 }),
    visible(e.pattern, { maxChars: tty ? 80 : 4096 }),
    e.level,
    visible(e.source, { maxChars: 24 }),
  ];
}

function relative(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m}m`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h}h`;
  return `${Math.round(h / 24)}d`;
}

export function revokeApproval(id: string): void {
  if (!/^[0-9a-f]{8}$/.test(id)) {
    throw new UsageError(`'${visible(id, { maxChars: 40 })}' is not an approval id (8 hex digits); wisp approvals list shows them`);
  }
  const s = store();
  const entry = s.list().find((e) => e.id === id);
  if (!s.revoke(id)) throw new WispError(`no stored approval with id ${id}; wisp approvals list shows the live ones`);
  recordRevocation({ action: 'revoke', ids: [id], ...(entry ? { pattern: entry.pattern, scope: entry.scope } : {}) });
  process.stdout.write(`revoked ${id}\n`);
}

export function clearApprovals(): void {
  const s = store();
  let corrupt = false;
  try {
    s.list();
  } catch (err) {
    if (!(err instanceof CorruptApprovalsError)) throw err;
    corrupt = true;
  }
  const ids = corrupt ? [] : s.list().map((e) => e.id);
  const n = s.clear();
  recordRevocation({ action: 'clear', ids, ...(corrupt ? { corrupt: true } : {}) });
  if (corrupt) {
    process.stdout.write(`cleared; the unreadable ${s.file} was kept beside it as ${basename(s.file)}.corrupt-<time>\n`);
    return;
  }
  process.stdout.write(n === 0 ? 'no stored approvals to clear\n' : `cleared ${n} stored approval${n === 1 ? '' : 's'}\n`);
}

/**
 * Revocations are decisions too: audited as `approval.revoked` after the store changed (a revocation only makes the
 * gate stricter, so it stands even if the log then fails — that failure is reported, exit 1).
 */
function recordRevocation(revocation: Revocation): void {
  const paths = wispPaths();
  recordOperatorEvent(paths, auditRotation({ home: paths.home, cwd: process.cwd() }), { kind: 'approval.revoked', revocation });
}
