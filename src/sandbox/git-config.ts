// A git directory's config, as a contained run sees it (ADR 0098): the settings git needs to read the repository,
// without what holds credentials. `.git/config` is where a clone keeps a token in a remote's URL
// (`https://user:TOKEN@host/…`) and where CI checkouts keep an `http.…extraheader = AUTHORIZATION: …`; a contained
// `cat .git/config` showed both to the model. An allow-list of sections, not a search for tokens: what is not known
// to be harmless is left out.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Sections a contained run keeps; anything else (http, credential, url, include, alias, sendemail, github …) goes. */
const KEPT_SECTIONS = new Set([
  'core',
  'extensions',
  'branch',
  'remote',
  'submodule',
  'user',
  'init',
  'pull',
  'push',
  'fetch',
  'merge',
  'diff',
  'status',
  'log',
  'color',
  'index',
  'feature',
  'worktree',
  'gc',
  'pack',
  'rebase',
  'lfs',
]);

/** Keys whose value is a URL, kept without its user name and password. */
const URL_KEYS = new Set(['url', 'pushurl']);

/** git from a system directory only (docs/trust.md: wisp's own helper programs never come from PATH). */
const GIT_CANDIDATES = ['/usr/bin/git', '/bin/git', '/usr/local/bin/git', '/run/current-system/sw/bin/git'];

/** A URL without `user:password@`; other values as they are. Scanned by hand: the text comes from the project. */
export function withoutUserInfo(value: string): string {
  const scheme = value.indexOf('://');
  if (scheme < 0) return value;
  const start = scheme + 3;
  let end = value.length;
  for (const stop of ['/', '?', '#']) {
    const i = value.indexOf(stop, start);
    if (i >= 0 && i < end) end = i;
  }
  const at = value.lastIndexOf('@', end - 1);
  return at >= start ? value.slice(0, start) + value.slice(at + 1) : value;
}

function quote(value: string): string {
  let out = '"';
  for (const ch of value) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else out += ch;
  }
  return out + '"';
}

/**
 * The config text a contained run gets in place of `file`: the kept sections of what `git config --list` reads
 * (no includes are followed), URLs without user info. Empty when git is missing or cannot read the file: an empty
 * config hides everything, and git reads most repositories without one.
 */
export function containedGitConfig(file: string, gitPath = GIT_CANDIDATES.find((g) => existsSync(g))): string {
  if (gitPath === undefined) return '';
  let listed: string;
  try {
    listed = execFileSync(gitPath, ['config', '--file', file, '--list', '-z'], {
      encoding: 'utf8',
      timeout: 5000,
      maxBuffer: 4 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
  } catch {
    return '';
  }
  const sections = new Map<string, string[]>();
  for (const entry of listed.split('\0')) {
    if (entry === '') continue;
    const nl = entry.indexOf('\n');
    const name = nl < 0 ? entry : entry.slice(0, nl);
    const value = nl < 0 ? undefined : entry.slice(nl + 1);
    const first = name.indexOf('.');
    const last = name.lastIndexOf('.');
    if (first <= 0 || last === name.length - 1) continue;
    const section = name.slice(0, first);
    if (!KEPT_SECTIONS.has(section)) continue;
    const sub = first === last ? undefined : name.slice(first + 1, last);
    const key = name.slice(last + 1);
    if (sub !== undefined && /[\n\0]/.test(sub)) continue;
    const header = sub === undefined ? `[${section}]` : `[${section} ${quote(sub)}]`;
    const kept = value === undefined ? undefined : URL_KEYS.has(key) ? withoutUserInfo(value) : value;
    const line = kept === undefined ? `\t${key}` : `\t${key} = ${quote(kept)}`;
    const lines = sections.get(header) ?? [];
    lines.push(line);
    sections.set(header, lines);
  }
  return [...sections].map(([header, lines]) => `${header}\n${lines.join('\n')}\n`).join('');
}
