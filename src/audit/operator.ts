// Operator events — a change to the config, a revoked or cleared approval — worded in one place, whichever face the
// operator used: the CLI (`wisp config set`, `wisp approvals revoke|clear`), a short-lived process with its own
// `cli-…` session, or the chat (`/config set`, `/approvals revoke`). The caller passes the rotation sizes (the
// audit layer does not read the config, ADR 0061; config/audit-rotation.ts reads them). A failed write throws, as
// every audit write does.
import type { WispPaths } from '../core/paths.js';
import { shortId } from '../core/ids.js';
import { VERSION } from '../core/version.js';
import type { AuditContext, AuditKind, AuditSink } from './kinds.js';
import { openAudit, type AuditOptions } from './writer.js';

/** A config file change as edit.ts reports it (only the fields the log keeps). */
export interface ConfigChangeFields {
  readonly action: 'set' | 'unset';
  readonly key: string;
  readonly before: unknown;
  readonly after: unknown;
  readonly fileBefore: unknown;
  readonly fileAfter: unknown;
  readonly file: string;
  readonly weakens: readonly string[];
}

export interface Revocation {
  readonly action: 'revoke' | 'clear';
  readonly ids: readonly string[];
  readonly pattern?: string;
  readonly scope?: string;
  /** `clear` of an unreadable store: the file was set aside, the ids are unknown. */
  readonly corrupt?: boolean;
}

export type OperatorEvent =
  | { readonly kind: 'config.change'; readonly change: ConfigChangeFields; readonly via?: 'chat' }
  | { readonly kind: 'approval.revoked'; readonly revocation: Revocation };

/** The audit kind and details of an operator event. */
export function operatorEvent(e: OperatorEvent): { kind: AuditKind; details: Record<string, unknown> } {
  if (e.kind === 'approval.revoked') {
    const r = e.revocation;
    return {
      kind: e.kind,
      details: {
        action: r.action,
        ids: [...r.ids],
        ...(r.pattern !== undefined ? { pattern: r.pattern } : {}),
        ...(r.scope !== undefined ? { scope: r.scope } : {}),
        ...(r.corrupt ? { corrupt: true } : {}),
      },
    };
  }
  const c = e.change;
  return {
    kind: e.kind,
    details: {
      action: c.action,
      key: c.key,
      before: c.before,
      after: c.after,
      ...(c.fileBefore !== undefined ? { fileBefore: c.fileBefore } : {}),
      ...(c.fileAfter !== undefined ? { fileAfter: c.fileAfter } : {}),
      file: c.file,
      weakens: [...c.weakens],
      ...(e.via ? { via: e.via } : {}),
    },
  };
}

/** Writes an operator event into a running session's log (the chat). */
export function writeOperatorEvent(audit: AuditSink, ctx: AuditContext, e: OperatorEvent): void {
  const { kind, details } = operatorEvent(e);
  audit.write(kind, details, ctx);
}

/** How the log rotates: plain numbers from whoever read the config. */
export type Rotation = Pick<AuditOptions, 'maxFileBytes' | 'keepFiles'>;

/** Writes an operator event from a CLI command, under a session of its own. */
export function recordOperatorEvent(paths: WispPaths, rotation: Rotation, e: OperatorEvent): void {
  const writer = openAudit({ file: paths.audit, maxFileBytes: rotation.maxFileBytes, keepFiles: rotation.keepFiles, version: VERSION });
  try {
    writeOperatorEvent(writer, { session: `cli-${shortId(4)}` }, e);
  } finally {
    writer.close();
  }
}
