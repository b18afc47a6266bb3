// The bodies of `wisp config …`.
import { existsSync, mkdirSync } from 'node:fs';
import { recordOperatorEvent } from '../src/audit/operator.js';
import { auditRotation } from '../src/config/audit-rotation.js';
import { configJsonSchema, requireKey } from '../src/config/keys.js';
import { editConfig, type ConfigChange } from '../src/config/edit.js';
import { getPath } from '../src/config/key-path.js';
import { loadConfig, loadUserConfigRaw } from '../src/config/load.js';
import { wispPaths } from '../src/core/paths.js';

export interface ConfigShowFlags {
  user?: boolean;
}

function load() {
  const paths = wispPaths();
  const loaded = loadConfig({ home: paths.home, cwd: process.cwd() });
  for (const w of loaded.warnings) process.stderr.write(`wisp: ${w}\n`);
  return { paths, loaded };
}

export function showConfig(flags: ConfigShowFlags): void {
  if (flags.user) {
    const raw = loadUserConfigRaw(wispPaths().config);
    process.stdout.write(JSON.stringify(raw, null, 2) + '\n');
    return;
  }
  const { loaded } = load();
  process.stdout.write(JSON.stringify(loaded.config, null, 2) + '\n');
}

export function getConfig(key: string, json: boolean): void {
  requireKey(key);
  const { loaded } = load();
  const value = getPath(loaded.config, key);
  if (value === undefined) {
    // An optional key with no default (escalation.channel): unset. Nothing on stdout, a note on stderr.
    if (json) process.stdout.write('null\n');
    else process.stderr.write(`wisp: ${key} is not set\n`);
    return;
  }
  process.stdout.write(typeof value === 'string' && !json ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`);
}

export function setConfig(key: string, value: string): void {
  edit({ key, value, action: 'set' });
}

export function unsetConfig(key: string): void {
  edit({ key, action: 'unset' });
}

function edit(req: { key: string; value?: string; action: 'set' | 'unset' }): void {
  const paths = wispPaths();
  mkdirSync(paths.home, { recursive: true, mode: 0o700 });
  const change = editConfig({
    file: paths.config,
    key: req.key,
    action: req.action,
    ...(req.value !== undefined ? { value: req.value } : {}),
    // Recorded before the file is replaced: if the audit log cannot take it, nothing is written (fail closed).
    beforeWrite: (c) => recordChange(paths, c),
  });
  for (const w of change.warnings) process.stderr.write(`wisp: ${w}\n`);
  const shown = (v: unknown): string => {
    if (v === null || v === undefined) return '(unset)';
    const json = JSON.stringify(v);
    if (json.length <= 80) return json;
    return Array.isArray(v) ? `[${v.length} item${v.length === 1 ? '' : 's'}]` : '{…}';
  };
  if (!change.changed) {
    process.stdout.write(
      req.action === 'set' ? `${req.key} is already ${shown(change.after)}; nothing changed\n` : `${req.key} is not in ${change.file}; nothing changed\n`,
    );
    return;
  }
  const tail = req.action === 'unset' ? ' (default)' : '';
  process.stdout.write(`${req.key}: ${shown(change.before)} → ${shown(change.after)}${tail}  (${change.file})\n`);
  if (change.weakens.length > 0) process.stderr.write(`wisp: note: this weakens the gate: ${change.weakens.join('; ')}\n`);
}

function recordChange(paths: ReturnType<typeof wispPaths>, change: ConfigChange): void {
  recordOperatorEvent(paths, auditRotation({ home: paths.home, cwd: process.cwd() }), { kind: 'config.change', change });
}

export function configPath(all: boolean): void {
  const paths = wispPaths();
  if (!all) {
    process.stdout.write(paths.config + '\n');
    return;
  }
  process.stdout.write(`user\t${paths.config}\t${existsSync(paths.config) ? 'exists' : 'absent'}\n`);
  try {
    const { projectFile } = loadConfig({ home: paths.home, cwd: process.cwd() });
    if (projectFile) process.stdout.write(`project\t${projectFile}\texists\n`);
  } catch (err) {
    process.stderr.write(`wisp: ${err instanceof Error ? err.message : String(err)}\n`);
  }
}

export function printSchema(): void {
  process.stdout.write(JSON.stringify(configJsonSchema(), null, 2) + '\n');
}
