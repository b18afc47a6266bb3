// Editing the user config (`wisp config get|set|unset`): dotted key paths checked against the schema, values parsed
// by the key's type, the whole file validated before anything is written, the write atomic (0600), and a plain
// statement of what a change weakens. See docs/wisp.md and docs/decisions/0010-config-weakening-notes.md.
// The pieces: keys.ts (which keys exist), value.ts (reading and checking a value), key-path.ts, weaken.ts.
import { ConfigError } from '../core/errors.js';
import { requireKey } from './keys.js';
import { getPath, setPath, unsetPath } from './key-path.js';
import { describeIssues, parseLayer, updateUserConfig } from './load.js';
import { ConfigSchema, type Config } from './schema.js';
import { checkValue, parseValue } from './value.js';
import { weakenings } from './weaken.js';

export interface ConfigChange {
  readonly key: string;
  readonly action: 'set' | 'unset';
  /** The effective user-level value before and after (defaults filled in; `null` for an unset optional key). */
  readonly before: unknown;
  readonly after: unknown;
  /** What the key held in the file before and after (`undefined` = not in the file). */
  readonly fileBefore: unknown;
  readonly fileAfter: unknown;
  /** One phrase per way the change loosens the gate; empty when it doesn't. */
  readonly weakens: string[];
  /** False when the file already said this: nothing was written. */
  readonly changed: boolean;
  /** True when the file did not validate before this change (the change may be the repair). */
  readonly wasInvalid: boolean;
  readonly file: string;
  /** Warnings from reading the file (deprecated keys moved). */
  readonly warnings: string[];
}

export interface EditOptions {
  /** The user config file (`$WISP_HOME/config.json`). */
  readonly file: string;
  readonly key: string;
  /** The value as typed; absent for unset. */
  readonly value?: string;
  readonly action: 'set' | 'unset';
  /** Where a relative `script:PATH` in a model spec starts; default `process.cwd()`. */
  readonly cwd?: string;
  /**
   * Called with the change after validation and before the file is replaced; if it throws (the audit log could
   * not record the change), nothing is written.
   */
  readonly beforeWrite?: (change: ConfigChange) => void;
}

/** The whole user layer, validated, with defaults: throws ConfigError naming the file and each bad key. */
export function validateUserLayer(raw: Record<string, unknown>, file: string, warnings: string[] = []): Config {
  const layer = parseLayer(raw, file, warnings);
  const parsed = ConfigSchema.safeParse(layer);
  if (!parsed.success) throw new ConfigError(`invalid config in ${file}: ${describeIssues(parsed.error.issues, layer)}`);
  return parsed.data;
}

/**
 * Sets or unsets one key of the user config: parse the value by type, apply it to the file's content, validate
 * the whole result, then replace the file atomically (0600) under a lock. Throws ConfigError (exit 64) for an
 * unknown key, a bad value or a file that does not parse — in every such case nothing is written. A file that is
 * valid JSON but fails the schema may be repaired by the edit (e.g. unsetting the bad key).
 */
export function editConfig(opts: EditOptions): ConfigChange {
  const info = requireKey(opts.key);
  const value = opts.action === 'set' ? checkValue(info, parseValue(info, opts.value ?? ''), opts.cwd ?? process.cwd()) : undefined;
  let change: ConfigChange | undefined;
  const edit = (raw: Record<string, unknown>): Record<string, unknown> => {
    const warnings: string[] = [];
    let beforeConfig: Config | undefined;
    try {
      beforeConfig = validateUserLayer(raw, opts.file, warnings);
    } catch {
      beforeConfig = undefined;
    }
    const next = opts.action === 'set' ? setPath(raw, opts.key, value) : unsetPath(raw, opts.key);
    let afterConfig: Config;
    try {
      afterConfig = validateUserLayer(next, opts.file, []);
    } catch (err) {
      const msg = err instanceof Error ? err.message.replace(/^invalid config in .*?: /, '') : String(err);
      throw new ConfigError(`invalid value for ${opts.key}: ${msg}; nothing was written to ${opts.file}`);
    }
    const base = beforeConfig ?? ConfigSchema.parse({});
    change = {
      key: opts.key,
      action: opts.action,
      before: beforeConfig ? (getPath(beforeConfig, opts.key) ?? null) : null,
      after: getPath(afterConfig, opts.key) ?? null,
      fileBefore: getPath(raw, opts.key),
      fileAfter: getPath(next, opts.key),
      weakens: weakenings(base, afterConfig),
      changed: JSON.stringify(raw) !== JSON.stringify(next),
      wasInvalid: beforeConfig === undefined,
      file: opts.file,
      warnings,
    };
    if (!change.changed) throw new Unchanged();
    opts.beforeWrite?.(change);
    return next;
  };
  try {
    const warnings = updateUserConfig(opts.file, edit);
    if (change) change.warnings.push(...warnings.filter((w) => !change!.warnings.includes(w)));
  } catch (err) {
    if (!(err instanceof Unchanged)) throw err;
  }
  if (!change) throw new Error('config edit finished without a result');
  return change;
}

/** Thrown inside the locked edit when the file already says this: nothing to write, nothing to audit. */
class Unchanged extends Error {}
