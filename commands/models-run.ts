// Bodies of `wisp models list | pull | rm`.
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { loadConfig } from '../src/config/load.js';
import { visible } from '../src/core/visible.js';
import { DownloadError, download, formatBytes } from '../src/model/download.js';
import { modelsDir } from '../src/model/gguf-file.js';
import { wispHome } from '../src/core/paths.js';

export interface ModelsPullFlags {
  url?: string;
  sha256?: string;
  name?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export interface ModelFile {
  name: string;
  path: string;
  bytes: number;
  /** An unfinished download (`NAME.gguf.part`). */
  partial: boolean;
}

/** The model files in `dir`, sorted by name; the first complete one is what the default order picks. */
export function listModelFiles(dir: string): ModelFile[] {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const out: ModelFile[] = [];
  for (const entry of entries.sort()) {
    const partial = entry.endsWith('.gguf.part');
    if (!partial && !entry.endsWith('.gguf')) continue;
    const path = join(dir, entry);
    try {
      const st = statSync(path);
      if (!st.isFile()) continue;
      out.push({ name: entry.slice(0, entry.length - (partial ? 10 : 5)), path, bytes: st.size, partial });
    } catch {
      /* vanished meanwhile */
    }
  }
  return out;
}

export async function runModelsList(flags: { json?: boolean }): Promise<number> {
  const dir = modelsDir(wispHome());
  const files = listModelFiles(dir);
  if (flags.json) {
    process.stdout.write(`${JSON.stringify({ dir, models: files }, null, 2)}\n`);
    return 0;
  }
  if (files.length === 0) {
    process.stdout.write(`No model files in ${dir}.\nwisp models pull fetches the default one; any GGUF file copied there works too.\n`);
    return 0;
  }
  process.stdout.write(`${dir}\n`);
  for (const f of files) {
    const label = visible(f.name, { maxChars: 80 });
    process.stdout.write(`  ${label.padEnd(40)} ${formatBytes(f.bytes).padStart(10)}${f.partial ? '  (unfinished download: wisp models pull continues it)' : `  -m llama:${label}`}\n`);
  }
  return 0;
}

export async function runModelsPull(flags: ModelsPullFlags): Promise<number> {
  const { config, warnings } = loadConfig({ home: wispHome(), cwd: process.cwd() });
  warnings.forEach((w) => process.stderr.write(`wisp: ${w}\n`));
  const name = flags.name ?? (flags.url ? nameFromUrl(flags.url) : config.models.download.name);
  if (!name || !NAME.test(name)) {
    process.stderr.write(`wisp: "${visible(name ?? '', { maxChars: 80 })}" is not a usable model name (letters, digits, . _ -); pass --name\n`);
    return 64;
  }
  const url = flags.url ?? config.models.download.url;
  if (!z.url().safeParse(url).success || !/^https?:/i.test(url)) {
    process.stderr.write(`wisp: --url must be an http(s) address, got "${visible(url, { maxChars: 120 })}"\n`);
    return 64;
  }
  const sha256 = flags.sha256 ?? (flags.url ? undefined : config.models.download.sha256);
  if (sha256 !== undefined && !/^[0-9a-fA-F]{64}$/.test(sha256)) {
    process.stderr.write('wisp: --sha256 must be 64 hex digits\n');
    return 64;
  }
  const dest = join(modelsDir(wispHome()), `${name}.gguf`);
  try {
    statSync(dest);
    process.stdout.write(`${dest} is already there (wisp models rm ${name} to fetch it again)\n`);
    return 0;
  } catch {
    /* not there yet */
  }
  const result = await pullWithProgress({ url, dest, ...(sha256 ? { sha256: sha256.toLowerCase() } : {}) }, process.stderr);
  if (!result.ok) {
    process.stderr.write(`wisp: ${result.message}\n`);
    return 1;
  }
  process.stdout.write(`${result.path} (${formatBytes(result.bytes)}, sha256 ${result.sha256}${result.resumed ? ', resumed' : ''})\nRun it with: wisp chat -m llama:${name}\n`);
  return 0;
}

export type PullOutcome =
  | { ok: true; path: string; bytes: number; sha256: string; resumed: boolean }
  | { ok: false; message: string };

/** Downloads with a one-line progress bar on `out` (a terminal) or a line per 10 % otherwise. */
export async function pullWithProgress(
  opts: { url: string; dest: string; sha256?: string; signal?: AbortSignal },
  out: NodeJS.WritableStream & { isTTY?: boolean },
  onProgress?: (done: number, total: number | undefined) => void,
): Promise<PullOutcome> {
  let lastShown = -1;
  try {
    const r = await download({
      ...opts,
      onProgress: (done, total) => {
        onProgress?.(done, total);
        if (onProgress) return;
        const pct = total ? Math.floor((done / total) * 100) : undefined;
        if (out.isTTY) {
          const bar = pct === undefined ? '' : `[${'#'.repeat(Math.floor(pct / 5)).padEnd(20, '.')}] ${pct}% `;
          out.write(`\r${bar}${formatBytes(done)}${total ? ` of ${formatBytes(total)}` : ''}   `);
        } else if (pct !== undefined && pct >= lastShown + 10) {
          lastShown = pct - (pct % 10);
          out.write(`${pct}% (${formatBytes(done)} of ${formatBytes(total ?? 0)})\n`);
        }
      },
    });
    if (out.isTTY && !onProgress) out.write('\n');
    return { ok: true, ...r };
  } catch (err) {
    if (out.isTTY && !onProgress) out.write('\n');
    if (err instanceof DownloadError) return { ok: false, message: err.message };
    throw err;
  }
}

export async function runModelsRm(name: string): Promise<number> {
  if (!NAME.test(name)) {
    process.stderr.write(`wisp: "${visible(name, { maxChars: 80 })}" is not a model name (see wisp models list)\n`);
    return 64;
  }
  const dir = modelsDir(wispHome());
  const targets = [join(dir, `${name}.gguf`), join(dir, `${name}.gguf.part`)];
  let removed = 0;
  for (const t of targets) {
    try {
      if (!statSync(t).isFile()) continue;
      rmSync(t);
      removed++;
      process.stdout.write(`removed ${t}\n`);
    } catch {
      /* not there */
    }
  }
  if (removed === 0) {
    process.stderr.write(`wisp: no model "${name}" in ${dir} (see wisp models list)\n`);
    return 1;
  }
  return 0;
}

function nameFromUrl(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return last.replace(/\.gguf$/i, '') || undefined;
  } catch {
    return undefined;
  }
}
