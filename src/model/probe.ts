// One probe per model backend: can this model be used as configured, and if not, the next step to take (`wisp
// doctor`). A probe never loads a model and changes nothing: a script is read, a GGUF file's header checked, an
// Ollama or OpenAI-compatible server asked for its model list with a short bound.
import { visible } from '../core/visible.js';
import { shellWord } from '../util/shell-quote.js';
import { checkGgufFile, resolveGgufPath } from './gguf-file.js';
import { parseModelSpec, type Backend } from './index.js';
import { loadScript } from './script.js';
import type { ModelSettings } from './types.js';

export interface ProbeResult {
  readonly ok: boolean;
  /** What was found (model-derived text made visible). */
  readonly detail: string;
  /** What to do about it, when not ok. */
  readonly fix?: string;
}

/** Where relative model names are looked up. */
export interface ProbeWhere {
  readonly home: string;
  readonly cwd: string;
}

type Probe = (name: string, spec: string, settings: ModelSettings, where: ProbeWhere) => Promise<ProbeResult>;

const ok = (detail: string): ProbeResult => ({ ok: true, detail });
const fail = (detail: string, fix: string): ProbeResult => ({ ok: false, detail, fix });
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const HTTP_TIMEOUT_MS = 4000;

/** The next step for a server that cannot be reached: what to run, not just what is wrong. */
const NEXT = {
  ollamaDown: (model: string): string =>
    `start Ollama: \`ollama serve\` (or open the Ollama app; install it from https://ollama.com), then \`ollama pull ${shellWord(model)}\`; ` +
    'if it runs elsewhere: wisp config set ollama.baseURL http://HOST:11434; ' +
    'no Ollama? use an OpenAI-compatible server (wisp config set model openai:NAME), or try wisp without a model: wisp -m script:PATH (examples/ in the clone)',
  openaiDown:
    'start the server, e.g. `llama-server -m MODEL.gguf --port 8080` (llama.cpp), LM Studio\'s local server or vLLM; ' +
    "then point wisp at its /v1 address: wisp config set openai.baseURL http://127.0.0.1:8080/v1, and name a model it serves: wisp config set model openai:NAME",
};

export const PROBES: Record<Backend, Probe> = {
  async script(name) {
    try {
      const { path, script } = loadScript(name);
      return ok(`script ${path} (${script.responses.length} response${script.responses.length === 1 ? '' : 's'})`);
    } catch (err) {
      return fail(message(err), 'fix the script file or point -m / model at another');
    }
  },

  async llama(name, spec, _settings, where) {
    try {
      const path = resolveGgufPath(name, where.home, where.cwd);
      checkGgufFile(path, spec);
      return ok(`${visible(spec, { maxChars: 120 })}: GGUF file ${path} (in-process, not loaded by doctor)`);
    } catch (err) {
      return fail(message(err), 'wisp models list shows the files; wisp models pull fetches the default one');
    }
  },

  async ollama(name, spec, settings) {
    const shown = visible(spec, { maxChars: 120 });
    const base = settings.ollama.baseURL.replace(/\/+$/, '');
    const got = await getJson(`${base}/api/tags`, {});
    if ('error' in got) return fail(`${shown}: Ollama at ${base} is unreachable (${got.error})`, NEXT.ollamaDown(name));
    if (got.status !== 200) return fail(`${shown}: ${base}/api/tags answered HTTP ${got.status}`, 'check that ollama.baseURL points at Ollama');
    const models = Array.isArray((got.body as { models?: unknown })?.models) ? (got.body as { models: unknown[] }).models : [];
    const names = models
      .map((m) => (m && typeof m === 'object' ? ((m as { name?: unknown; model?: unknown }).name ?? (m as { model?: unknown }).model) : undefined))
      .filter((n): n is string => typeof n === 'string');
    const wanted = name.includes(':') ? [name] : [name, `${name}:latest`];
    if (names.some((n) => wanted.includes(n))) return ok(`${shown} is available at ${base}`);
    return fail(
      `${shown}: Ollama at ${base} has no model ${visible(name, { maxChars: 80 })}${names.length ? ` (it has ${names.slice(0, 6).map((n) => visible(n, { maxChars: 60 })).join(', ')})` : ' (it has none)'}`,
      `pull it: ollama pull ${shellWord(name)}; or pick one it has: wisp config set model ollama:NAME`,
    );
  },

  async openai(name, spec, settings) {
    const shown = visible(spec, { maxChars: 120 });
    const base = settings.openai.baseURL.replace(/\/+$/, '');
    const key = process.env.OPENAI_API_KEY;
    const got = await getJson(`${base}/models`, key ? { authorization: `Bearer ${key}` } : {});
    if ('error' in got) return fail(`${shown}: the server at ${base} is unreachable (${got.error})`, NEXT.openaiDown);
    if (got.status === 401 || got.status === 403) {
      return fail(`${shown}: ${base}/models refused the request (HTTP ${got.status})`, key ? 'check OPENAI_API_KEY' : 'set OPENAI_API_KEY');
    }
    if (got.status !== 200) return fail(`${shown}: ${base}/models answered HTTP ${got.status}`, 'check that openai.baseURL ends in /v1');
    const data = Array.isArray((got.body as { data?: unknown })?.data) ? (got.body as { data: unknown[] }).data : [];
    const ids = data.map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined)).filter((n): n is string => typeof n === 'string');
    if (ids.includes(name)) return ok(`${shown} is served at ${base}`);
    // llama-server (and other one-model servers) answer to any model name: one listed model is enough.
    if (ids.length === 1) return ok(`${shown}: the server at ${base} serves one model (${visible(ids[0] ?? '', { maxChars: 60 })}) under any name`);
    return fail(
      `${shown}: the server at ${base} does not list ${visible(name, { maxChars: 80 })}${ids.length ? ` (it serves ${ids.slice(0, 6).map((n) => visible(n, { maxChars: 60 })).join(', ')})` : ''}`,
      'use one of the names it serves: -m openai:NAME',
    );
  },
};

/** Probes a model spec on its backend; a spec that does not parse is reported as the failure. */
export async function probeModel(spec: string, settings: ModelSettings, where: ProbeWhere, fixSpec: string): Promise<ProbeResult> {
  let parsed;
  try {
    parsed = parseModelSpec(spec);
  } catch (err) {
    return fail(message(err), fixSpec);
  }
  return PROBES[parsed.backend](parsed.name, spec, settings, where);
}

async function getJson(url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown } | { error: string }> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    return { status: res.status, body };
  } catch (err) {
    const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why = typeof cause?.code === 'string' ? cause.code : err instanceof Error && err.name === 'TimeoutError' ? `no answer in ${HTTP_TIMEOUT_MS / 1000}s` : message(err);
    return { error: why };
  }
}
