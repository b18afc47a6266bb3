// Operator events — a change to the config, a revoked or cleared approval — worded in one place, whichever face the
// operator used: the CLI (`wisp config set`, `wisp approvals revoke|clear`), a short-lived process with its own
// `cli-…` session, or the chat (`/config set`, `/approvals revoke`). Rotation sizes come from the config as it
// stands; a broken config (perhaps being repaired by this very command) means the defaults. A failed write throws,
// as every audit write does.
import { loadConfig } from '../config/load.js';
import { ConfigSchema } from '../config/schema.js';
import type { WispPaths } from '../core/paths.js';
import { shortId } from '../core/ids.js';
import { VERSION } from '../core/version.js';
import type { AuditContext, AuditKind, AuditSink } from './kinds.js';
import { openAudit } from './writer.js';

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

/** Writes an operator event from a CLI command, under a session of its own. */
export function recordOperatorEvent(paths: WispPaths, e: OperatorEvent): void {
  let audit = ConfigSchema.parse({}).audit;
  try {
    audit = loadConfig({ home: paths.home, cwd: process.cwd() }).config.audit;
  } catch {
    /* defaults */
  }
  const writer = openAudit({ file: paths.audit, maxFileBytes: audit.maxFileBytes, keepFiles: audit.keepFiles, version: VERSION });
  try {
    writeOperatorEvent(writer, { session: `cli-${shortId(4)}` }, e);
  } finally {
    writer.close();
  }
}
