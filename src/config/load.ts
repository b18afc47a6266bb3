// Loading the configuration: the user's `$WISP_HOME/config.json`, then a project file found from the working
// directory upward. Data files only. cosmiconfig's explorer is deliberately not used: creating one runs a repo's
// `.config/config.js` (its meta-config lookup in process.cwd()) and `$import` in a JSON file loads JavaScript —
// both tested, see ADR 0003. Only its YAML loader, a pure function, is borrowed.
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { errnoCode, withFileLock, writeFileAtomic } from '../util/atomic.js';
import { ConfigSchema, type Config } from './schema.js';
import { applyProjectLayer, formatPath, isPlainObject, type ConfigLayer } from './merge.js';
import { MAX_CONFIG_BYTES, PROJECT_FILES } from './files.js';

export interface LoadedConfig {
  readonly config: Config;
  /** One line each: deprecated keys, project keys ignored because they would loosen the gate. */
  readonly warnings: string[];
  /** The user config file, when it exists. */
  readonly userFile?: string;
  /** The project config read (`…/package.json#wisp` for the package.json key), when one was found. */
  readonly projectFile?: string;
}

export interface LoadConfigOptions {
  /** `$WISP_HOME`; the user config is `<home>/config.json`. */
  readonly home: string;
  /** Where the project search starts. */
  readonly cwd: string;
  /** The person's home directory: the project search stops after it. @default os.homedir() */
  readonly userHome?: string;
}

/**
 * The schema with every key optional at every depth and no defaults, for validating one layer on its own: errors
 * then name the file they are in, and the parsed layer holds only what the file set.
 */
export const ConfigLayerSchema: z.ZodType<ConfigLayer> = deepPartial(ConfigSchema) as z.ZodType<ConfigLayer>;

function deepPartial(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodOptional) {
    return deepPartial(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = {};
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      shape[key] = deepPartial(field).optional();
    }
    return z.strictObject(shape);
  }
  return schema; // arrays, enums, scalars: validated whole (a rule in policy.rules still needs its `match`)
}

/** Reads and merges defaults < user < project. Throws ConfigError (exit 64) for any malformed or invalid layer. */
export function loadConfig(opts: LoadConfigOptions): LoadedConfig {
  const warnings: string[] = [];
  const userPath = join(opts.home, 'config.json');
  const userText = readConfigText(userPath);
  const userLayer = userText === undefined ? {} : parseLayer(parseJson(userText, userPath), userPath, warnings);
  const base = parseMerged(userLayer, userPath);

  // Every project config from the search's end down to the nearest, each allowed only to tighten what the ones
  // before it left: a nearer config (a sub-directory's, or a repository inside another) never loosens a farther one.
  const all = findProjectConfigs(opts.cwd, opts.userHome ?? homedir(), warnings);
  const found = all[0];
  let config = base;
  for (const layerFile of [...all].reverse()) {
    const layer = parseLayer(layerFile.raw, layerFile.label, warnings);
    const merged = applyProjectLayer(config, layer, layerFile.label);
    warnings.push(...merged.warnings);
    config = parseMerged(merged.value, layerFile.label);
  }
  return {
    config,
    warnings,
    ...(userText !== undefined ? { userFile: userPath } : {}),
    ...(found !== undefined ? { projectFile: found.label } : {}),
  };
}

function parseMerged(value: Record<string, unknown>, label: string): Config {
  const parsed = ConfigSchema.safeParse(value);
  if (!parsed.success) throw new ConfigError(`invalid config in ${label}: ${describeIssues(parsed.error.issues, value)}`);
  return parsed.data;
}

interface FoundProject {
  readonly file: string;
  /** The file, or `file#wisp` for package.json: what messages name. */
  readonly label: string;
  readonly raw: unknown;
}

/**
 * The nearest project config from `cwd` upward, stopping after `stopAt` (the person's home) or at the filesystem
 * root. Only the nearest one counts; a second candidate in the same directory draws a warning.
 */
export function findProjectConfig(cwd: string, stopAt: string, warnings: string[] = []): FoundProject | undefined {
  return findProjectConfigs(cwd, stopAt, warnings, true)[0];
}

/** Every directory's project config from `cwd` up to `stopAt`, nearest first (one per directory). */
export function findProjectConfigs(cwd: string, stopAt: string, warnings: string[] = [], firstOnly = false): FoundProject[] {
  const found: FoundProject[] = [];
  const stop = resolve(stopAt);
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidates: FoundProject[] = [];
    for (const name of PROJECT_FILES) {
      const file = join(dir, name);
      const text = readConfigText(file);
      if (text === undefined) continue;
      if (name === 'package.json') {
        const pkg = parseJson(text, file);
        if (!isPlainObject(pkg) || !('wisp' in pkg) || pkg.wisp === undefined) continue;
        candidates.push({ file, label: `${file}#wisp`, raw: pkg.wisp });
      } else if (name === '.wisprc') {
        candidates.push({ file, label: file, raw: parseYaml(text, file) });
      } else {
        candidates.push({ file, label: file, raw: parseJson(text, file) });
      }
    }
    const [first, ...rest] = candidates;
    if (first !== undefined) {
      for (const other of rest) warnings.push(`ignored ${other.label}: ${first.label} in the same directory takes precedence`);
      found.push(first);
      if (firstOnly) return found;
    }
    const parent = dirname(dir);
    if (dir === stop || parent === dir) return found;
  }
}

/** The file's text; undefined when there is no such file. Empty files read as "{}". */
function readConfigText(file: string): string | undefined {
  let size: number;
  try {
    const st = statSync(file);
    if (st.isDirectory()) return undefined;
    size = st.size;
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError(`cannot read config ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (size > MAX_CONFIG_BYTES) throw new ConfigError(`config ${file} is larger than ${MAX_CONFIG_BYTES} bytes`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read config ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
  text = text.replace(/^\uFEFF/, '');
  return text.trim() === '' ? '{}' : text;
}

/** JSON.parse with an error that names the file and, where V8 gives a position, its line and column. */
export function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const at = /at position (\d+)/.exec(message);
    const pos = at ? Number(at[1]) : /end of JSON input/.test(message) ? text.length : undefined;
    const where = pos !== undefined ? ` at ${lineColumn(text, pos)}` : '';
    // Cut with a literal search, not `\s*…$`: that backtracks over long whitespace (ADR 0038).
    const cut = message.search(/ in JSON at position \d/);
    const reason = (cut >= 0 ? message.slice(0, cut) : message).replace(/ \(line \d+ column \d+\)$/, '').trimEnd();
    throw new ConfigError(`malformed JSON in ${file}${where}: ${reason}`);
  }
}

function lineColumn(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column}`;
}

/** cosmiconfig's YAML loader, loaded on first use (only a `.wisprc` needs it; it costs start-up time otherwise). */
let yamlLoader: ((file: string, text: string) => unknown) | undefined;

function parseYaml(text: string, file: string): unknown {
  if (yamlLoader === undefined) {
    const { defaultLoadersSync } = createRequire(import.meta.url)('cosmiconfig') as typeof import('cosmiconfig');
    yamlLoader = defaultLoadersSync.noExt;
  }
  try {
    return yamlLoader(file, text);
  } catch (err) {
    const e = err as { reason?: unknown; mark?: { line?: unknown; column?: unknown }; message?: unknown };
    const where =
      typeof e.mark?.line === 'number' && typeof e.mark.column === 'number'
        ? ` at line ${e.mark.line + 1}, column ${e.mark.column + 1}`
        : '';
    const reason = typeof e.reason === 'string' ? e.reason : String(e.message ?? err);
    throw new ConfigError(`malformed YAML in ${file}${where}: ${reason}`);
  }
}

/**
 * Turns one file's raw value into a validated layer: legacy keys moved (with a warning), then checked against
 * {@link ConfigLayerSchema}. Throws ConfigError naming `label` and each bad key.
 */
export function parseLayer(raw: unknown, label: string, warnings: string[]): ConfigLayer {
  if (!isPlainObject(raw)) throw new ConfigError(`invalid config in ${label}: expected an object of settings`);
  const { layer, movedLegacy } = migrateLegacy(withoutEditorSchema(raw), label, warnings);
  const parsed = ConfigLayerSchema.safeParse(layer);
  if (!parsed.success) {
    throw new ConfigError(`invalid config in ${label}: ${describeIssues(parsed.error.issues, layer, movedLegacy)}`);
  }
  return parsed.data;
}

/** A top-level `"$schema"` string only tells an editor where `wisp config schema`'s output is (docs/wisp.md). */
function withoutEditorSchema(raw: Record<string, unknown>): Record<string, unknown> {
  if (typeof raw.$schema !== 'string') return raw;
  const { $schema: _editorHint, ...rest } = raw;
  return rest;
}

/**
 * `approval.timeoutSeconds` was the original's key for the escalation wait; it now lives at
 * `escalation.timeoutSeconds`. An old file keeps working, with a one-line note, unless both are set.
 */
function migrateLegacy(
  raw: Record<string, unknown>,
  label: string,
  warnings: string[],
): { layer: Record<string, unknown>; movedLegacy: boolean } {
  const approval = raw.approval;
  if (!isPlainObject(approval) || !('timeoutSeconds' in approval)) return { layer: raw, movedLegacy: false };
  const { timeoutSeconds, ...approvalRest } = approval;
  const escalation = raw.escalation;
  if (escalation !== undefined && !isPlainObject(escalation)) return { layer: raw, movedLegacy: false };
  if (escalation !== undefined && 'timeoutSeconds' in escalation) {
    warnings.push(`${label}: approval.timeoutSeconds is deprecated and ignored, escalation.timeoutSeconds is set; remove it`);
    return { layer: { ...raw, approval: approvalRest }, movedLegacy: false };
  }
  warnings.push(`${label}: approval.timeoutSeconds is deprecated; read as escalation.timeoutSeconds (rename it)`);
  return {
    layer: { ...raw, approval: approvalRest, escalation: { ...(escalation ?? {}), timeoutSeconds } },
    movedLegacy: true,
  };
}

type Issue = z.ZodError['issues'][number];

/** Zod issues as `key.path: what is wrong`, joined by "; ". */
export function describeIssues(issues: readonly Issue[], input: unknown, movedLegacy = false): string {
  const out: string[] = [];
  for (const issue of issues) {
    let path: PropertyKey[] = [...issue.path];
    // Report a moved legacy value under the name the person actually wrote.
    if (movedLegacy && path[0] === 'escalation' && path[1] === 'timeoutSeconds') path = ['approval', ...path.slice(1)];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push(`${formatPath([...path, key])}: unknown key`);
      continue;
    }
    const value = valueAt(input, issue.path);
    if (issue.code === 'custom' && typeof value === 'string' && regexError(value) !== undefined) {
      out.push(`${formatPath(path)}: not a valid regular expression ${JSON.stringify(value)} (${regexError(value)})`);
      continue;
    }
    out.push(`${formatPath(path)}: ${issue.message}`);
  }
  return out.join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = input;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[seg];
  }
  return cur;
}

function regexError(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return message.slice(message.lastIndexOf(': ') + 2) || message;
  }
}

/** The user config file as written (no defaults), for `wisp config get/set`. A missing file is `{}`. */
export function loadUserConfigRaw(file: string): Record<string, unknown> {
  const text = readConfigText(file);
  if (text === undefined) return {};
  const raw = parseJson(text, file);
  if (!isPlainObject(raw)) throw new ConfigError(`invalid config in ${file}: expected an object of settings`);
  return raw;
}

/**
 * Validates `value` as a whole user config and writes it atomically (0600, directory 0700). A legacy
 * `approval.timeoutSeconds` is migrated on the way. Nothing is written when validation fails. Returns warnings.
 */
export function writeUserConfig(file: string, value: unknown): string[] {
  const warnings: string[] = [];
  if (!isPlainObject(value)) throw new ConfigError(`refusing to write ${file}: expected an object of settings`);
  const { layer, movedLegacy } = migrateLegacy(withoutEditorSchema(value), file, warnings);
  const checked = ConfigLayerSchema.safeParse(layer);
  if (!checked.success) {
    throw new ConfigError(`refusing to write ${file}: ${describeIssues(checked.error.issues, layer, movedLegacy)}`);
  }
  const whole = ConfigSchema.safeParse(checked.data);
  if (!whole.success) throw new ConfigError(`refusing to write ${file}: ${describeIssues(whole.error.issues, layer)}`);
  const out = typeof value.$schema === 'string' ? { $schema: value.$schema, ...checked.data } : checked.data;
  writeFileAtomic(file, JSON.stringify(out, null, 2) + '\n', { mode: 0o600 });
  return warnings;
}

/**
 * Read–modify–write of the user config under `config.json.lock`, so two `wisp config set` at once both land.
 * `edit` gets the file as written and returns the new content. Returns warnings from {@link writeUserConfig}.
 */
export function updateUserConfig(file: string, edit: (raw: Record<string, unknown>) => unknown): string[] {
  return withFileLock(`${file}.lock`, () => writeUserConfig(file, edit(loadUserConfigRaw(file))));
}
