// git: which subcommands only read, which change the repository, and which lose work or rewrite remote history.
import { type CmdView, type Family, type Finding, dangerous, hasFlag, hasLong, mentionsOption, moderate, moderateExact, operands } from './rules-common.js';
import { networkPlaces } from './rules-net.js';

/** Global options that take a value in the next word (unless written `--opt=value`). */
export const GIT_VALUE_OPTIONS = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env', '--super-prefix'];

export interface GitCall {
  readonly sub: string | undefined;
  readonly subArgs: readonly string[];
  /** `-c k=v`, `--config-env`, `--exec-path=…`: settings that can make git run other programs. */
  readonly setsConfig: boolean;
  /** The words before the subcommand (git's own options and their values). */
  readonly globalArgs: readonly string[];
}

export function readGit(args: readonly string[]): GitCall {
  let setsConfig = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '--config-env' || a.startsWith('--config-env=') || a.startsWith('--exec-path') || /^-c.+/.test(a)) {
      setsConfig = true;
    }
    if (a.startsWith('-')) {
      if (GIT_VALUE_OPTIONS.includes(a)) i++;
      continue;
    }
    return { sub: a, subArgs: args.slice(i + 1), setsConfig, globalArgs: args.slice(0, i) };
  }
  return { sub: undefined, subArgs: [], setsConfig, globalArgs: args };
}

/** Subcommands that only read the repository. */
const GIT_READ = new Set([
  'status', 'log', 'diff', 'show', 'blame', 'annotate', 'rev-parse', 'ls-files', 'ls-tree', 'cat-file', 'grep',
  'shortlog', 'describe', 'whatchanged', 'show-ref', 'for-each-ref', 'merge-base', 'name-rev', 'rev-list',
  'count-objects', 'check-ignore', 'check-attr', 'var', 'version', 'help', 'cherry', 'show-branch', 'range-diff',
  'diff-tree', 'diff-files', 'diff-index', 'verify-commit', 'verify-tag', 'show-index', 'check-ref-format',
]);

const NETWORK = new Set(['fetch', 'pull', 'clone', 'ls-remote', 'push', 'submodule', 'archive']);

/** True when the git call is one of the read-only forms (status, log, branch listing, config --get …). */
export function gitReadOnly(args: readonly string[]): boolean {
  const g = readGit(args);
  if (g.setsConfig) return false;
  if (g.sub === undefined) return args.some((a) => a === '--version' || a === '--help' || a === '-h');
  const a = g.subArgs;
  // Options that write files or start other programs even under a read-only subcommand.
  if (mentionsOption(a, '', ['--output', '--open-files-in-pager', '--ext-diff']) || (g.sub === 'grep' && mentionsOption(a, 'O'))) return false;
  if (GIT_READ.has(g.sub)) return true;
  switch (g.sub) {
    case 'branch':
      return branchIsListing(a);
    case 'tag':
      return operands(a).length === 0 || hasFlag(a, 'l', ['--list']);
    case 'config':
      return hasLong(a, ['--get', '--get-all', '--get-regexp', '--list', '--get-urlmatch', '--get-color', '--get-colorbool']) ||
        hasFlag(a, 'l') || ['get', 'list'].includes(operands(a)[0] ?? '');
    case 'remote':
      return operands(a).length === 0 || operands(a)[0] === 'get-url';
    case 'stash':
      return ['list', 'show'].includes(a[0] ?? '');
    case 'reflog':
      return a.length === 0 || a[0] === 'show' || (a[0] ?? '').startsWith('-');
    case 'worktree':
      return a[0] === 'list';
    case 'submodule':
      return a[0] === 'status';
    case 'clean':
      return hasFlag(a, 'n', ['--dry-run']);
    case 'notes':
      return a.length === 0 || a[0] === 'list' || a[0] === 'show';
    default:
      return false;
  }
}

/** The settings a git call gives itself before its sub-command: `-c k=v`, `-ck=v`, `--config-env=k=V`, `--exec-path`. */
function configKeys(args: readonly string[]): string[] {
  const keys: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    let setting: string | undefined;
    if (a === '-c' || a === '--config-env') setting = args[++i];
    else if (/^-c./.test(a)) setting = a.slice(2);
    else if (a.startsWith('--config-env=')) setting = a.slice('--config-env='.length);
    else if (a.startsWith('--exec-path')) keys.push('--exec-path');
    else if (GIT_VALUE_OPTIONS.includes(a)) i++;
    if (setting !== undefined) keys.push((setting.split('=')[0] ?? '').toLowerCase().slice(0, 80));
  }
  return keys.length > 0 ? keys : ['?'];
}

function branchIsListing(a: readonly string[]): boolean {
  const changing = ['-d', '-D', '-m', '-M', '-c', '-C', '-u', '-f', '--delete', '--move', '--copy', '--force', '--set-upstream-to', '--unset-upstream', '--edit-description', '--track', '--no-track'];
  if (a.some((x) => changing.includes(x.split('=')[0]!) || /^-[a-zA-Z]*[dDmMcCuf]/.test(x) && !x.startsWith('--'))) return false;
  const listing = ['--list', '-l', '-a', '--all', '-r', '--remotes', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at'];
  const takesValue = ['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format'];
  let names = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x.startsWith('-')) {
      if (takesValue.includes(x)) i++;
      continue;
    }
    names++;
  }
  // `git branch NAME` creates a branch; with --list the names are patterns.
  return names === 0 || a.some((x) => listing.includes(x));
}

export function gitRules(c: CmdView): Finding[] {
  if (c.exe !== 'git') return [];
  const g = readGit(c.args);
  const out: Finding[] = [];
  // The keys are named, so an answer for one setting (color.ui) never covers another (core.fsmonitor).
  if (g.setsConfig) out.push(moderateExact(`sets git configuration for this command (${configKeys(c.args).join(', ')}), which can run other programs`));
  // `git --git-dir=DIR status` obeys DIR's settings (`core.fsmonitor = CMD`): which repository is part of the answer.
  const gitDir = g.globalArgs.find((a) => a === '--git-dir' || a.startsWith('--git-dir='));
  if (gitDir !== undefined) {
    const dir = gitDir === '--git-dir' ? (g.globalArgs[g.globalArgs.indexOf(gitDir) + 1] ?? '') : gitDir.slice('--git-dir='.length);
    out.push(moderateExact(`uses the settings of the repository at ${dir}, which can run other programs`));
  }
  const a = g.subArgs;
  switch (g.sub) {
    case 'push': {
      const force = hasFlag(a, 'f', ['--force', '--force-with-lease', '--force-if-includes', '--mirror']) ||
        operands(a).slice(1).some((r) => r.startsWith('+'));
      if (force) out.push(dangerous('force push rewrites remote history'));
      if (hasFlag(a, 'd', ['--delete', '--prune']) || operands(a).slice(1).some((r) => r.startsWith(':'))) {
        out.push(dangerous('deletes a remote branch or tag'));
      }
      break;
    }
    case 'reset':
      if (hasLong(a, ['--hard', '--merge', '--keep'])) out.push(dangerous('discards local changes'));
      break;
    case 'clean':
      if (!hasFlag(a, 'n', ['--dry-run']) && hasFlag(a, 'f', ['--force'])) out.push(dangerous('discards local changes'));
      break;
    case 'checkout': {
      const dashdash = a.indexOf('--');
      if ((dashdash >= 0 && dashdash < a.length - 1) || a.includes('.') || hasFlag(a, 'f', ['--force'])) {
        out.push(dangerous('discards local changes'));
      }
      break;
    }
    case 'restore':
      if (!hasFlag(a, 'S', ['--staged']) || hasFlag(a, 'W', ['--worktree'])) out.push(dangerous('discards local changes'));
      break;
    case 'switch':
      if (hasFlag(a, 'f', ['--force', '--discard-changes'])) out.push(dangerous('discards local changes'));
      break;
    case 'branch':
      if (a.some((x) => /^-[a-zA-Z]*D/.test(x)) || (hasFlag(a, 'd', ['--delete']) && hasFlag(a, 'f', ['--force']))) {
        out.push(dangerous('deletes a branch without merge check'));
      }
      break;
    case 'stash':
      if (a[0] === 'drop' || a[0] === 'clear') out.push(dangerous('destroys the history git keeps for recovery'));
      break;
    case 'reflog':
      if (a[0] === 'expire' || a[0] === 'delete') out.push(dangerous('destroys the history git keeps for recovery'));
      break;
    case 'gc':
      if (a.some((x) => /^--prune=(now|all)$/.test(x))) out.push(dangerous('destroys the history git keeps for recovery'));
      break;
    case 'prune':
      out.push(dangerous('destroys the history git keeps for recovery'));
      break;
    case 'filter-branch':
    case 'filter-repo':
      out.push(dangerous('rewrites the whole history of the repository'));
      break;
    case 'update-ref':
      if (hasFlag(a, 'd')) out.push(dangerous('destroys the history git keeps for recovery'));
      break;
    case 'credential':
      if (a[0] === 'fill') out.push(dangerous('prints a stored credential'));
      break;
    default:
      break;
  }
  if (g.sub === 'config' && /credential|token|password/i.test(a.join(' '))) out.push(moderate('reads or sets a credential setting'));
  if (g.sub === 'config' && !gitReadOnly(c.args)) out.push(...configWriteFindings(a));
  if (!gitReadOnly(c.args)) {
    if (g.sub !== undefined && NETWORK.has(g.sub)) {
      out.push(moderate('uses the network'));
      // The remote is named: an answer for `git push origin` does not cover another remote or URL (ADR 0092).
      const places = networkPlaces(c);
      if (places.length > 0) out.push(moderate(`reaches ${places.join(', ')}`));
    }
    // `git remote add x URL`, `set-url`: the URL's host is named, as where a later `git push x` goes.
    if (g.sub === 'remote' && /^(add|set-url)$/.test(a[0] ?? '')) {
      const places = networkPlaces(c);
      if (places.length > 0) out.push(moderate(`names a remote at ${places.join(', ')}`));
    }
    // A reading subcommand is asked only for an option that writes a file or starts a program (`git log --ext-diff`,
    // `--output=F`, `git grep -O CMD`) or for a setting given to it (named above): it changes no repository state.
    const option = GIT_READ.has(g.sub ?? '') ? a.find((x) => writesOrStarts(x, g.sub === 'grep')) : undefined;
    if (option !== undefined) out.push(moderate(`uses an option that writes a file or starts another program (${option.split('=')[0]})`));
    else if (!(GIT_READ.has(g.sub ?? '') && g.setsConfig)) out.push(moderate('changes repository state'));
  }
  return out;
}

/** An option of a reading subcommand that writes a file or starts a program: whole or abbreviated, as gitReadOnly reads it. */
function writesOrStarts(word: string, grep: boolean): boolean {
  if (grep && /^-[A-Za-z]*O/.test(word)) return true;
  if (!word.startsWith('--')) return false;
  const name = word.split('=')[0]!;
  return name.length > 2 && ['--output', '--open-files-in-pager', '--ext-diff'].some((l) => l.startsWith(name));
}

/**
 * Settings whose value git runs as a program, or that pull in more settings (ADR 0092): set once, they make a later
 * `git status` or `git log`, which runs unasked, run that program. By the key's first or last segment, lower-case.
 */
const RUNS_PROGRAM_FIRST = new Set(['alias', 'pager', 'include', 'includeif']);
const RUNS_PROGRAM_LAST = new Set([
  'fsmonitor', 'sshcommand', 'pager', 'editor', 'hookspath', 'askpass', 'gitproxy', 'external', 'textconv', 'command',
  'driver', 'clean', 'smudge', 'process', 'helper', 'program', 'cmd', 'uploadpack', 'receivepack', 'packobjectshook',
  'path', 'difffilter', 'templatedir', 'alternaterefscommand', 'sendmailcmd', 'tocmd', 'cccmd', 'headercmd', 'allow',
  // `submodule.x.update = !CMD` runs CMD on `git submodule update` (ADR 0100).
  'browser', 'proxycommand', 'worktree', 'update',
]);

/** Options of `git config` that take a value which is not a key (`--file F`, `--type bool`, `--default X`). */
const CONFIG_VALUE_OPTIONS = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);

/**
 * A `git config` that writes: the keys it sets are named, so an answer for `user.name` never covers `core.fsmonitor`,
 * and a key git runs as a program is dangerous (never a standing answer), as a shell start-up file is.
 */
function configWriteFindings(a: readonly string[]): Finding[] {
  const keys: string[] = [];
  for (let i = 0; i < a.length; i++) {
    const w = a[i]!;
    if (w.startsWith('-')) {
      if (CONFIG_VALUE_OPTIONS.has(w)) i++;
      continue;
    }
    // The key is the first operand (after `set`/`unset` of the newer syntax); the next is its value.
    if (keys.length === 0 && /^(set|unset|rename-section|remove-section)$/.test(w) && a[i + 1] !== undefined) continue;
    keys.push(w.toLowerCase().slice(0, 80));
    break;
  }
  const key = keys[0] ?? '?';
  const segments = key.split('.');
  const out: Finding[] = [moderate(`changes git configuration (${key})`)];
  // Removing a setting runs nothing (`git config --unset core.pager`).
  const removes = a.some((w) => /^(--unset|--unset-all|--remove-section|unset|remove-section)$/.test(w));
  if (removes) return out;
  if (key === '?' || RUNS_PROGRAM_FIRST.has(segments[0]!) || RUNS_PROGRAM_LAST.has(segments[segments.length - 1]!)) {
    out.push(dangerous(`sets a git setting whose value later git commands run or load (${key})`));
  }
  return out;
}

export const GIT_RULES: readonly Family[] = [{ rule: gitRules, programs: ['git'] }];
