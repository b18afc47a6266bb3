// The model used when none is configured (no -m, `model` left at its default): Ollama if it answers, else the first
// GGUF file in $WISP_HOME/models (by name), else nothing — and then the face says exactly what to do (ADR 0051).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelSettings } from './types.js';
import { DEFAULT_DOWNLOAD } from './default-download.js';
import { formatBytes } from './download.js';
import { modelsDir } from './gguf-file.js';

/** The schema's default for `model`: a config that still says this has configured nothing. */
export const DEFAULT_MODEL_SPEC = 'ollama:qwen3:8b';

/** How long the Ollama probe waits: a local server answers in milliseconds. */
export const OLLAMA_PROBE_MS = 1500;

export type DefaultChoice =
  | { readonly spec: string; readonly source: 'configured' | 'ollama' | 'file' }
  | { readonly spec: undefined; readonly source: 'none' };

export function modelConfigured(flag: string | undefined, config: Pick<ModelSettings, 'model'>): boolean {
  return flag !== undefined || config.model !== DEFAULT_MODEL_SPEC;
}

/** True when something answers HTTP at Ollama's `/api/tags` within the probe time. */
export async function ollamaAnswers(baseURL: string, timeoutMs = OLLAMA_PROBE_MS): Promise<boolean> {
  try {
    const r = await fetch(`${baseURL.replace(/\/+$/, '')}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    await r.body?.cancel();
    return r.ok;
  } catch {
    return false;
  }
}

/** The first `*.gguf` regular file in the folder, by name (unfinished `.part` downloads are not models). */
export function firstGguf(dir: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.toLowerCase().endsWith('.gguf')).sort();
  } catch {
    return undefined;
  }
  return names.map((n) => join(dir, n)).find((p) => {
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  });
}

export async function chooseModel(flag: string | undefined, config: ModelSettings, home: string): Promise<DefaultChoice> {
  if (modelConfigured(flag, config)) return { spec: flag ?? config.model, source: 'configured' };
  if (await ollamaAnswers(config.ollama.baseURL)) return { spec: config.model, source: 'ollama' };
  const file = firstGguf(modelsDir(home));
  if (file) return { spec: `llama:${file}`, source: 'file' };
  return { spec: undefined, source: 'none' };
}

/** The download the offer and `wisp models pull` make: name, size, where it goes. */
export function defaultDownload(config: ModelSettings, home: string): { name: string; url: string; dest: string; size: string } {
  const name = config.models.download.name;
  const custom = config.models.download.url !== DEFAULT_DOWNLOAD.url;
  return {
    name,
    url: config.models.download.url,
    dest: join(modelsDir(home), `${name}.gguf`),
    size: custom ? 'size shown as it downloads' : `about ${formatBytes(DEFAULT_DOWNLOAD.approxBytes)}`,
  };
}

/** What there is to do when no model is there; the same words for `respond`, a chat without a terminal and Esc. */
export function noModelChoices(config: ModelSettings, home: string): string {
  const d = defaultDownload(config, home);
  return [
    `No model to use: Ollama does not answer at ${config.ollama.baseURL}, and ${modelsDir(home)} holds no .gguf file.`,
    'Any one of these gives wisp a model:',
    `  wisp models pull                     download ${d.name} (${d.size}) to ${d.dest}`,
    `  ollama serve; ollama pull qwen3:8b   start Ollama with its default model`,
    `  -m openai:NAME                       a server such as llama-server --jinja (set openai.baseURL)`,
    `  -m llama:PATH.gguf                   a GGUF file you already have`,
  ].join('\n');
}
