// The environment a command gets. A contained (unasked) run gets an allow-list: names that carry locale and
// terminal settings, never a credential. An approved run gets wisp's own environment less what would run code the
// gate never saw (BASH_ENV, ENV) and the model backends' keys. In both, PATH keeps only absolute entries.
import { delimiter, isAbsolute } from 'node:path';

/** Names a contained run may see, exactly. */
const CONTAINED_NAMES = new Set([
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'COLUMNS',
  'LINES',
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
]);

/** Prefixes a contained run may see (locale categories only). */
const CONTAINED_PREFIXES = ['LC_'];

/** Keys of wisp's model backends: never passed to any command, approved or not. */
export const BACKEND_KEYS: readonly string[] = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OLLAMA_API_KEY'];

/** PATH without relative or empty entries (an empty entry means the current directory to a shell). */
export function absolutePath(path: string | undefined): string {
  return (path ?? '')
    .split(delimiter)
    .filter((d) => d !== '' && isAbsolute(d))
    .join(delimiter);
}

/** The fallback when wisp's own PATH has no usable entry. */
const SYSTEM_PATH = '/usr/local/bin:/usr/bin:/bin';

export function containedEnv(host: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(host)) {
    if (value === undefined) continue;
    if (CONTAINED_NAMES.has(name) || CONTAINED_PREFIXES.some((p) => name.startsWith(p))) out[name] = value;
  }
  out.PATH = absolutePath(host.PATH) || SYSTEM_PATH;
  out.TMPDIR = '/tmp';
  Object.assign(out, GIT_NO_IMPLICIT_BARE);
  return out;
}

/**
 * git takes a folder that looks like a bare repository (HEAD, objects/, refs/) as one, and obeys its `config`. A
 * project folder the model made so, with `core.fsmonitor = CMD` in a `config` it wrote, would have `git -C dir
 * status`, run unasked, run CMD. A contained run tells git (2.38 and later) to use such a repository only when named
 * with --git-dir, which the gate asks about (ADR 0093). Settings from the environment are command-line settings,
 * which git trusts for this one, and which win over a repository's own: so a contained run also takes no
 * `core.fsmonitor` from any repository, whoever wrote its settings (an approved `tar xf` can unpack `sub/.git/config`;
 * with the sandbox off, `git -C sub status` then ran its command unasked and uncontained, ADR 0096).
 */
export const GIT_NO_IMPLICIT_BARE: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'safe.bareRepository',
  GIT_CONFIG_VALUE_0: 'explicit',
  GIT_CONFIG_KEY_1: 'core.fsmonitor',
  GIT_CONFIG_VALUE_1: 'false',
};

export function approvedEnv(host: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...host };
  delete out.BASH_ENV;
  delete out.ENV;
  for (const k of BACKEND_KEYS) delete out[k];
  out.PATH = absolutePath(host.PATH) || SYSTEM_PATH;
  return out;
}
