// The audit log's rotation sizes as the config stands now, for a writer opened outside a session (a CLI command's
// operator event). The audit layer takes them as plain numbers and never reads the config itself (ADR 0061).
import { loadConfig } from './load.js';
import { ConfigSchema } from './schema.js';

export interface AuditRotation {
  readonly maxFileBytes: number;
  readonly keepFiles: number;
}

/** From the config in `home` (and the project at `cwd`); a broken config — perhaps being repaired by the very command
 * that writes the event — gives the defaults, so the event is still written. */
export function auditRotation(opts: { readonly home: string; readonly cwd: string }): AuditRotation {
  let audit = ConfigSchema.parse({}).audit;
  try {
    audit = loadConfig({ home: opts.home, cwd: opts.cwd }).config.audit;
  } catch {
    /* defaults */
  }
  return { maxFileBytes: audit.maxFileBytes, keepFiles: audit.keepFiles };
}
