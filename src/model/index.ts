// `-m SPEC` → a LanguageModel. Loaded at start-up of respond, chat and mcp only; the backends use plain fetch and
// zod (already loaded by the config), so nothing heavy comes in here.
import type { ModelSettings } from './types.js';
import { OllamaModel } from './ollama.js';
import { OpenAIModel } from './openai.js';
import { ScriptModel, loadScript } from './script.js';
import { checkGgufFile, resolveGgufPath } from './gguf-file.js';
import { LlamaModel } from './llama.js';
import { wispHome } from '../core/paths.js';
import { ModelError } from './types.js';
import type { LanguageModel } from './types.js';

export * from './types.js';

export const BACKENDS = ['ollama', 'openai', 'llama', 'script'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface ModelSpec {
  backend: Backend;
  /** The model name (ollama, openai) or the file path (script), as written. */
  name: string;
  /** True when the spec had no backend prefix and was read as an Ollama name. */
  implied: boolean;
}

/**
 * Words before a colon that are not Ollama model names but someone's idea of a backend. A spec starting with one
 * is refused (rather than sent to Ollama as `word:tag`) so the mistake shows at once.
 */
const NOT_A_MODEL = new Map<string, string>([
  ['olama', 'ollama'],
  ['ollma', 'ollama'],
  ['ollamma', 'ollama'],
  ['openia', 'openai'],
  ['opeai', 'openai'],
  ['open-ai', 'openai'],
  ['oai', 'openai'],
  ['llamacpp', 'llama'],
  ['llama-cpp', 'llama'],
  ['llama.cpp', 'llama'],
  ['llama_cpp', 'llama'],
  ['gguf', 'llama'],
  ['llama-server', 'openai'],
  ['lmstudio', 'openai'],
  ['lm-studio', 'openai'],
  ['vllm', 'openai'],
  ['scripts', 'script'],
  ['scrpit', 'script'],
  ['file', 'script'],
]);

const SPEC_HINT =
  'Write -m ollama:NAME, -m openai:NAME, -m llama:PATH.gguf or -m script:PATH (a bare NAME means ollama:NAME)';

/** An Ollama tag: what may follow the colon in `name:tag`. */
const OLLAMA_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/**
 * Reads `ollama:NAME`, `openai:NAME`, `script:PATH`, or a bare Ollama name (`qwen3:8b` is `ollama:qwen3:8b`: Ollama
 * names carry their tag after a colon). Anything else is a usage error that says what is accepted.
 */
export function parseModelSpec(spec: string): ModelSpec {
  const s = spec.trim();
  const usage = (what: string, hint = SPEC_HINT) => new ModelError('usage', what, hint);
  if (s === '') throw usage('No model given (-m is empty)');
  const colon = s.indexOf(':');
  const prefix = colon < 0 ? '' : s.slice(0, colon);
  const rest = colon < 0 ? s : s.slice(colon + 1);
  if ((BACKENDS as readonly string[]).includes(prefix.toLowerCase())) {
    const backend = prefix.toLowerCase() as Backend;
    if (rest.trim() === '') {
      const example = {
        ollama: 'ollama:qwen3:8b',
        openai: 'openai:local',
        llama: 'llama:./model.gguf',
        script: 'script:./demo.json',
      }[backend];
      const isFile = backend === 'script' || backend === 'llama';
      const what = isFile ? 'file' : 'model';
      const placeholder = isFile ? 'PATH' : 'NAME';
      throw usage(`The model spec "${s}" names no ${what}`, `Write -m ${backend}:${placeholder}, e.g. -m ${example}`);
    }
    const isFile = backend === 'script' || backend === 'llama';
    if (!isFile && /\s/.test(rest)) throw usage(`The model name "${rest}" contains white space`);
    return { backend, name: isFile ? rest : rest.trim(), implied: false };
  }
  if (colon >= 0) {
    const lower = prefix.toLowerCase();
    const meant = NOT_A_MODEL.get(lower);
    if (meant) {
      throw usage(
        `Unknown model backend "${prefix}" in "${s}"`,
        meant === 'llama'
          ? `In-process GGUF models are written -m llama:PATH.gguf; a llama-server is -m openai:NAME with openai.baseURL set`
          : meant === 'openai'
          ? 'Servers with an OpenAI-compatible API (llama-server, LM Studio, vLLM) are written -m openai:NAME, ' +
            "with openai.baseURL set to the server's /v1 address"
          : `Did you mean -m ${meant}:${rest}?`,
      );
    }
    if (/^[a-z][a-z0-9+.-]*$/i.test(prefix) && rest.startsWith('//')) {
      throw usage(
        `"${s}" is an address, not a model`,
        'Put the address in the config (wisp config set ollama.baseURL URL, or openai.baseURL URL) ' +
          'and name the model with -m',
      );
    }
    if (!OLLAMA_TAG.test(rest)) {
      throw usage(`Unknown model backend "${prefix}" in "${s}"`);
    }
  }
  if (/\s/.test(s)) throw usage(`The model name "${s}" contains white space`);
  return { backend: 'ollama', name: s, implied: true };
}

export interface CreateModelOptions {
  /** Where `OPENAI_API_KEY` is read; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Where a relative script or GGUF path starts; default `process.cwd()`. */
  cwd?: string;
  /** Where `llama:NAME` looks (`HOME/models/NAME.gguf`); default `$WISP_HOME`. */
  home?: string;
}

/** The model for `-m SPEC` (or the config's `model`). A bad spec or script file throws ModelError `usage` (exit 64). */
export function createModel(spec: string, config: ModelSettings, options: CreateModelOptions = {}): LanguageModel {
  const parsed = parseModelSpec(spec);
  switch (parsed.backend) {
    case 'ollama':
      return new OllamaModel({
        model: parsed.name,
        baseURL: config.ollama.baseURL,
        timeoutMs: config.ollama.timeoutSeconds * 1000,
        maxTokens: config.models.maxTokens,
        ...(parsed.implied ? { impliedFrom: spec.trim() } : {}),
      });
    case 'openai': {
      const key = (options.env ?? process.env).OPENAI_API_KEY;
      return new OpenAIModel({
        model: parsed.name,
        baseURL: config.openai.baseURL,
        timeoutMs: config.openai.timeoutSeconds * 1000,
        maxTokens: config.models.maxTokens,
        ...(key ? { apiKey: key } : {}),
      });
    }
    case 'llama': {
      const path = resolveGgufPath(parsed.name, options.home ?? wispHome(options.env), options.cwd ?? process.cwd());
      checkGgufFile(path, spec.trim());
      return new LlamaModel({
        spec: `llama:${parsed.name}`,
        path,
        contextSize: config.models.contextSize,
        maxTokens: config.models.maxTokens,
        threads: config.models.threads,
        loadTimeoutMs: config.models.loadTimeoutSeconds * 1000,
      });
    }
    case 'script': {
      const { path, script } = loadScript(parsed.name, options.cwd);
      return new ScriptModel(script, path);
    }
  }
}
