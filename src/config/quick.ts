// Config for short-lived faces (`wisp check`): when there is neither a user config nor a project config — the
// common case — the defaults are returned without loading zod, whose import alone costs more CPU than starting
// node (docs/performance.md, ADR 0012). When any config file exists, the full loader (load.ts) runs, with all its
// validation and messages. Zod-free on purpose: import only types from schema.ts and load.ts here.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_DENY } from '../core/deny-defaults.js';
import { DEFAULT_DOWNLOAD } from '../model/default-download.js';
import { MAX_CONFIG_BYTES, PROJECT_FILES } from './files.js';
import type { LoadConfigOptions, LoadedConfig } from './load.js';
import type { Config } from './schema.js';

/** `ConfigSchema.parse({})`, written out (test/config/quick.test.ts keeps the two equal). */
export const DEFAULT_CONFIG: Readonly<Config> = {
  model: 'ollama:qwen3:8b',
  models: {
    maxTokens: 4096,
    contextSize: 8192,
    threads: 0,
    loadTimeoutSeconds: 120,
    download: { name: DEFAULT_DOWNLOAD.name, url: DEFAULT_DOWNLOAD.url },
  },
  approval: { threshold: 'moderate', persistDays: 30, classifierTimeoutSeconds: 10 },
  escalation: { timeoutSeconds: 600, pendingSeconds: 600, outOfBand: true },
  sandbox: { enabled: true, allowNetwork: true, writablePaths: [], privateTmp: true },
  policy: { deny: [...DEFAULT_DENY], allow: [], rules: [] },
  commands: { timeoutSeconds: 60, maxOutputBytes: 4096 },
  ollama: { baseURL: 'http://127.0.0.1:11434', timeoutSeconds: 120 },
  openai: { baseURL: 'http://127.0.0.1:8080/v1', timeoutSeconds: 120 },
  audit: { maxFileBytes: 10485760, keepFiles: 5, recordOutput: false },
  tools: { disabled: [], maxRounds: 24 },
  notifications: { enabled: true, perMinute: 5 },
  mcp: { maxThreads: 32, taskKeepSeconds: 300 },
};

/** Like `loadConfig` (same result), but loads the validating loader only when a config file exists. */
export async function loadConfigQuick(opts: LoadConfigOptions): Promise<LoadedConfig> {
  if (!anyConfigFile(opts)) return { config: structuredClone(DEFAULT_CONFIG) as Config, warnings: [] };
  const { loadConfig } = await import('./load.js');
  return loadConfig(opts);
}

/**
 * Whether the full loader has anything to read: the user config, or a project config on the way from `cwd` up to
 * the person's home (as `findProjectConfig` searches). Anything unclear — a file that cannot be read, a package.json
 * that is not JSON — counts as "yes", so the full loader reports it.
 */
export function anyConfigFile(opts: LoadConfigOptions): boolean {
  if (sizeOf(join(opts.home, 'config.json')) !== undefined) return true;
  const stop = resolve(opts.userHome ?? homedir());
  for (let dir = resolve(opts.cwd); ; dir = dirname(dir)) {
    for (const name of PROJECT_FILES) {
      const file = join(dir, name);
      const size = sizeOf(file);
      if (size === undefined) continue;
      if (name !== 'package.json' || size > MAX_CONFIG_BYTES) return true;
      try {
        const pkg: unknown = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '') || '{}');
        if (typeof pkg !== 'object' || pkg === null || Array.isArray(pkg)) return true;
        if ('wisp' in pkg && (pkg as { wisp?: unknown }).wisp !== undefined) return true;
      } catch {
        return true;
      }
    }
    const parent = dirname(dir);
    if (dir === stop || parent === dir) return false;
  }
}

/** The size of the file (not directory) at `file`, or undefined; an error other than "not there" counts as huge. */
function sizeOf(file: string): number | undefined {
  try {
    const st = statSync(file);
    return st.isDirectory() ? undefined : st.size;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : Number.POSITIVE_INFINITY;
  }
}
