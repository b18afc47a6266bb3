// One audit event from an operator command (`wisp config set`, `wisp approvals revoke` …): a short-lived process
// with its own `cli-…` session. Rotation sizes come from the config as it stands; a broken config (perhaps being
// repaired by this very command) means the defaults. A failed write throws, as every audit write does.
import { loadConfig } from '../config/load.js';
import { ConfigSchema } from '../config/schema.js';
import type { WispPaths } from '../core/paths.js';
import { shortId } from '../core/ids.js';
import { VERSION } from '../core/version.js';
import type { AuditKind } from './kinds.js';
import { openAudit } from './writer.js';

export function recordOperatorEvent(paths: WispPaths, kind: AuditKind, details: Record<string, unknown>): void {
  let audit = ConfigSchema.parse({}).audit;
  try {
    audit = loadConfig({ home: paths.home, cwd: process.cwd() }).config.audit;
  } catch {
    /* defaults */
  }
  const writer = openAudit({ file: paths.audit, maxFileBytes: audit.maxFileBytes, keepFiles: audit.keepFiles, version: VERSION });
  try {
    writer.write(kind, details, { session: `cli-${shortId(4)}` });
  } finally {
    writer.close();
  }
}
