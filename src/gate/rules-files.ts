// Rule families about files and disks: deleting, permission changes, writing, whole-disk tools, find/xargs.
import {
  type CmdView,
  type Family,
  type Finding,
  dangerous,
  hasFlag,
  insideProject,
  isInside,
  TEMP_ROOTS,
  mentionsOption,
  moderate,
  operands,
  resolvePath,
} from './rules-common.js';
import { resolve } from 'node:path';
import { trimTrailingSlashes } from './words.js';
import { PROTECTED_IN_ROOTS, runByToolsEntry } from '../core/protected-paths.js';

const DISK_DEVICE = /^\/dev\/(sd[a-z]|nvme\d|r?disk\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|md\d|dm-\d|mapper\/)/;

/** Shell start-up, login and system files: writing them changes what every later shell runs. */
export const STARTUP_OR_SYSTEM = new RegExp(
  [
    String.raw`(^|/)\.(bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|zlogout|kshrc|inputrc)$`,
    String.raw`(^|/)\.config/(fish|autostart)(/|$)`,
    String.raw`^/etc(/|$)`,
    String.raw`^/(usr|bin|sbin|lib|lib64|boot|System|Library)(/|$)`,
    String.raw`(^|/)Library/(LaunchAgents|LaunchDaemons)(/|$)`,
    String.raw`(^|/)\.ssh/(authorized_keys|config|rc)$`,
    String.raw`(^|/)\.git/hooks(/|$)`,
  ].join('|'),
);

const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'trash', 'trash-put']);
const FILE_CHANGERS = new Set([
  'mv', 'cp', 'touch', 'mkdir', 'rmdir', 'ln', 'truncate', 'tee', 'install', 'unlink', 'patch', 'split', 'csplit',
  'mktemp', 'mkfifo', 'mknod', 'unzip', 'gunzip', 'gzip', 'bzip2', 'bunzip2', 'xz', 'unxz', 'zstd', 'unzstd', 'zip',
  '7z', 'rename', 'chattr', 'chflags', 'setfacl', 'xattr', 'ditto', 'trash', 'trash-put', 'dos2unix', 'unix2dos',
]);

function rmRules(c: CmdView): Finding[] {
  if (c.exe !== 'rm') return [];
  const out: Finding[] = [];
  if (hasFlag(c.args, 'rR', ['--recursive'])) out.push(dangerous('recursive deletion'));
  const targets = operands(c.args);
  const outside = targets.some((t) => {
    const p = resolvePath(t, c);
    return p !== undefined && !insideProject(p, c);
  });
  if (outside) out.push(dangerous('deletes outside the project'));
  for (const t of targets) {
    // git's own files: an answer for `rm a.tmp` covered `rm .git/index` and `rm -f .git/HEAD` (ADR 0096).
    if (inGitFolder(t)) out.push(dangerous(`deletes git's own files (${t})`));
    // A glob deletes what it matches when it runs: named, so an answer for `rm a.tmp` does not cover `rm *`.
    else if (/[*?[]/.test(t)) out.push(moderate(`deletes every file matching ${t}`));
  }
  out.push(moderate('deletes files'));
  return out;
}

/** Whether a path written in a command lies in a `.git` folder (`.git/index`, `sub/.git/HEAD`): git's own files. */
function inGitFolder(path: string): boolean {
  const at = path.indexOf('.git/');
  return at >= 0 && (at === 0 || path.charCodeAt(at - 1) === 0x2f);
}

function permissionRules(c: CmdView): Finding[] {
  if (c.exe !== 'chmod' && c.exe !== 'chown' && c.exe !== 'chgrp') return [];
  const out: Finding[] = [];
  if (hasFlag(c.args, 'R', ['--recursive'])) out.push(dangerous('recursive permission change'));
  if (c.exe === 'chmod' && c.args.some((a) => /^[ugoa]*[+=][rwxXt]*s/.test(a) || /^[2467][0-7]{3}$/.test(a))) {
    out.push(dangerous('sets the setuid or setgid bit'));
  }
  const outside = operands(c.args)
    .slice(1)
    .some((t) => {
      const p = resolvePath(t, c);
      return p !== undefined && !insideProject(p, c);
    });
  if (outside) out.push(dangerous('changes permissions outside the project'));
  out.push(moderate('changes file permissions or ownership'));
  return out;
}

const FORMATTER_NAME = (e: string): boolean => /^mkfs(\.\w+)?$/.test(e) || /^newfs(_\w+)?$/.test(e);
const DISK_TOOLS = ['mke2fs', 'mkswap', 'wipefs', 'fdisk', 'sfdisk', 'gdisk', 'sgdisk', 'cfdisk', 'parted', 'blkdiscard'];
const VOLUME_REMOVERS = ['lvremove', 'vgremove', 'pvremove'];

function diskRules(c: CmdView): Finding[] {
  const e = c.exe;
  const destroys = dangerous('destroys a disk or volume');
  if (FORMATTER_NAME(e)) return [destroys];
  if (DISK_TOOLS.includes(e)) {
    return [destroys];
  }
  if (e === 'diskutil' && /^(erase\w*|zeroDisk|randomDisk|secureErase|partitionDisk|reformat)$/i.test(c.args[0] ?? '')) return [destroys];
  if (e === 'diskutil' && c.args[0] === 'apfs' && /^(delete|erase)/i.test(c.args[1] ?? '')) return [destroys];
  if (e === 'zpool' && c.args[0] === 'destroy') return [destroys];
  if (VOLUME_REMOVERS.includes(e)) return [destroys];
  if (e === 'cryptsetup' && /^(luksFormat|erase|luksErase)$/.test(c.args[0] ?? '')) return [destroys];
  if (e === 'dd') {
    const of = c.args.find((a) => a.startsWith('of='))?.slice(3);
    if (of !== undefined && DISK_DEVICE.test(of)) return [destroys];
    return [moderate('copies raw data (dd)')];
  }
  if ((e === 'shred' || e === 'srm') && operands(c.args).some((a) => DISK_DEVICE.test(a))) return [destroys];
  if (e === 'shred' || e === 'srm') return [dangerous('destroys file contents beyond recovery')];
  return [];
}

const COPY_TARGETS = ['cp', 'mv', 'ln', 'install', 'rsync', 'ditto'];
const FILE_WRITERS = ['sed', 'gsed', 'perl', 'sort', 'tree', 'tar', 'rsync', 'tee', 'dd'];

function fileChangeRules(c: CmdView): Finding[] {
  const out: Finding[] = [];
  if (FILE_CHANGERS.has(c.exe)) out.push(moderate('modifies files'));
  if ((c.exe === 'sed' || c.exe === 'gsed') && hasFlag(c.args, 'i', ['--in-place'])) out.push(moderate('edits files in place'));
  if (c.exe === 'perl' && c.args.some((a) => /^-[a-zA-Z]*i/.test(a))) out.push(moderate('edits files in place'));
  if ((c.exe === 'sort' && hasFlag(c.args, 'o', ['--output'])) || (c.exe === 'tree' && hasFlag(c.args, 'o'))) {
    out.push(moderate('writes to a file'));
  }
  if (c.exe === 'tar' && /^-?[a-zA-Z]*[xcruA]/.test(c.args[0] ?? '')) out.push(moderate('modifies files'));
  if (c.exe === 'rsync' && !c.args.some((a) => /^[^/]*:/.test(a))) out.push(moderate('modifies files'));
  // Writes into start-up or system files (cp/mv/ln/install/tee targets, dd of=).
  const targets: string[] = [];
  if (COPY_TARGETS.includes(c.exe)) {
    const ops = operands(c.args);
    if (ops.length > 0) targets.push(ops[ops.length - 1]!);
  }
  if (c.exe === 'tee') targets.push(...operands(c.args));
  if (c.exe === 'dd') targets.push(...c.args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)));
  if (targets.some((t) => touchesStartupOrSystem(t, c))) out.push(dangerous('changes shell start-up, login or system files'));
  const sources = unseenSources(c);
  if (sources !== undefined) out.push(moderate(`writes files the gate does not see, taken from ${sources.slice(0, 4).join(' ') || 'its input'}`));
  return out;
}

/**
 * Programs that write files named only inside what they are given (ADR 0100): an archive unpacked, a patch applied,
 * a folder copied whole. The gate sees the archive, not `.husky/pre-commit` or `package.json` inside it, so the
 * reason names where the files come from: an answer for `tar xf a.tar` does not cover `tar xf other.tar`. The value
 * is the extracting mode's test; the words named are every operand and input redirection.
 */
const UNSEEN_WRITERS: ReadonlyMap<string, (args: readonly string[]) => boolean> = new Map([
  ['tar', (a) => /^-?[a-zA-Z]*x/.test(a[0] ?? '') || a.some((w) => w === '--extract' || w === '--get' || /^-[a-zA-Z]*x/.test(w))],
  ['bsdtar', (a) => a.some((w) => /^-?[a-zA-Z]*x/.test(w))],
  ['unzip', () => true], ['ditto', () => true], ['cpio', (a) => a.some((w) => /^-[a-zA-Z]*i/.test(w) || w === '--extract')],
  ['7z', (a) => a[0] === 'x' || a[0] === 'e'], ['7za', (a) => a[0] === 'x' || a[0] === 'e'], ['7zz', (a) => a[0] === 'x' || a[0] === 'e'],
  ['patch', () => true],
  ['cp', (a) => a.some((w) => /^-[a-zA-Z]*[rRa]/.test(w) || w === '--recursive' || w === '--archive')],
  ['rsync', (a) => a.some((w) => /^-[a-zA-Z]*[ra]/.test(w) || w === '--recursive' || w === '--archive')],
]);

/** The words an unseen writer takes its files from (its operands and input), or undefined for another command. */
function unseenSources(c: CmdView): string[] | undefined {
  const git = c.exe === 'git' ? c.args.findIndex((a) => a === 'apply' || a === 'am') : -1;
  const test = UNSEEN_WRITERS.get(c.exe);
  if (git < 0 && (test === undefined || !test(c.args))) return undefined;
  const words = git >= 0 ? operands(c.args.slice(git + 1)) : operands(c.args);
  // A copier's last operand is where it writes (named by the write rules); what it copies is the rest.
  if (c.exe === 'cp' || c.exe === 'rsync' || c.exe === 'ditto') words.pop();
  if (c.exe === 'tar' && /^[a-zA-Z]+$/.test(words[0] ?? '') && words[0] === c.args[0]) words.shift(); // `tar xf a.tar`'s mode
  if (c.exe.startsWith('7z')) words.shift(); // the verb
  for (const r of c.part.redirects) {
    const m = /^\s*0?<\s*(\S+)/.exec(r);
    if (m) words.push(m[1]!);
  }
  return words;
}

export function touchesStartupOrSystem(target: string, c: CmdView): boolean {
  const p = resolvePath(target, c);
  return (p !== undefined && STARTUP_OR_SYSTEM.test(p)) || STARTUP_OR_SYSTEM.test(target);
}

const HOME_OR_DISK = (a: string, c: CmdView): boolean => {
  const p = resolvePath(trimTrailingSlashes(a) || '/', c);
  return p !== undefined && (p === '/' || p === c.home || p === '/Users' || p === '/home');
};

function findRules(c: CmdView): Finding[] {
  if (c.exe !== 'find') return [];
  const out: Finding[] = [];
  const execAt = c.args.findIndex((a) => ['-exec', '-execdir', '-ok', '-okdir'].includes(a));
  if (c.args.includes('-delete')) out.push(dangerous('deletes every file the search matches'));
  if (execAt >= 0) {
    const program = (c.args[execAt + 1] ?? '').replace(/^.*\//, '');
    if (DELETERS.has(program)) out.push(dangerous('deletes every file the search matches'));
    const starts = c.args.slice(0, execAt).filter((a) => !a.startsWith('-') && !a.startsWith('(') && !a.startsWith('!'));
    if (starts.some((s) => HOME_OR_DISK(s, c))) {
      out.push(dangerous('reads or copies every file a search of the home folder or the disk matches'));
    }
    out.push(moderate('runs a command for every file found'));
  }
  if (c.args.some((a) => /^-f(print0?|printf|ls)$/.test(a))) out.push(moderate('writes to a file'));
  return out;
}

function fdRules(c: CmdView): Finding[] {
  if (c.exe !== 'fd' && c.exe !== 'fdfind') return [];
  if (hasFlag(c.args, 'xX', ['--exec', '--exec-batch'])) return [moderate('runs a command for every file found')];
  return [];
}

const HOME_READERS = ['cat', 'cp', 'tar', 'zip', 'scp', 'rsync', 'curl', 'head', 'tail'];

function xargsRules(c: CmdView): Finding[] {
  if (!c.r.wrappers.includes('xargs')) return [];
  const out: Finding[] = [];
  if (DELETERS.has(c.exe)) out.push(dangerous('deletes every path given to it'));
  // `find ~ … | xargs cat|cp|tar …`: every matching file of the home folder or disk is read out.
  const pipeline = c.part.pipeline ?? '';
  if (/^\s*(\S*\/)?find\s+(~|\$HOME|\$\{HOME\}|\/)(\/|\s|$)/.test(pipeline) && HOME_READERS.includes(c.exe)) {
    out.push(dangerous('reads or copies every file a search of the home folder or the disk matches', 'pipeline'));
  }
  return out;
}

const COPIERS = ['tar', 'zip', '7z', 'rsync', 'scp', 'cp', 'ditto', 'rclone'];

function archiveHomeRules(c: CmdView): Finding[] {
  if (!COPIERS.includes(c.exe)) return [];
  if (c.exe === 'cp' && !hasFlag(c.args, 'rRa', ['--recursive', '--archive'])) return [];
  if (operands(c.args).some((a) => HOME_OR_DISK(a, c))) {
    return [dangerous('reads or copies every file of the home folder or the disk')];
  }
  return [];
}

/**
 * Where a program writes besides its output (ADR 0092): `operands` says which operands are written (`all`, the `last`
 * — a destination —, the `first`, or all `afterFirst`), `options` the options whose value is a written path (`-o F`,
 * `-oF`, `--output=F`, `--output F`). Values of other options may be read as operands: that only adds a reason.
 */
interface WriteSpec {
  readonly operands: 'all' | 'last' | 'first' | 'afterFirst' | 'none';
  readonly options: readonly string[];
}
const COPY: WriteSpec = { operands: 'last', options: ['-t', '--target-directory'] };
const EACH: WriteSpec = { operands: 'all', options: [] };
const OUTPUT: WriteSpec = { operands: 'none', options: ['-o', '--output'] };
const WRITE_SPECS: ReadonlyMap<string, WriteSpec> = new Map([
  ['cp', COPY], ['mv', COPY], ['ln', COPY], ['install', COPY], ['gcp', COPY], ['gmv', COPY], ['ditto', COPY],
  ['rsync', { operands: 'last', options: [] }],
  ['tee', EACH], ['touch', EACH], ['mkdir', EACH], ['rmdir', EACH], ['truncate', EACH], ['mkfifo', EACH], ['unlink', EACH],
  ['chattr', EACH], ['chflags', EACH], ['setfacl', EACH], ['xattr', EACH], ['dos2unix', EACH], ['unix2dos', EACH],
  ['gzip', EACH], ['gunzip', EACH], ['bzip2', EACH], ['bunzip2', EACH], ['xz', EACH], ['unxz', EACH], ['zstd', { operands: 'all', options: ['-o'] }],
  ['unzstd', EACH], ['trash', EACH], ['trash-put', EACH], ['rename', EACH],
  ['mknod', { operands: 'first', options: [] }], ['mktemp', { operands: 'all', options: ['-p', '--tmpdir'] }],
  ['patch', { operands: 'first', options: ['-o', '--output', '-d', '--directory', '-r', '--reject-file', '-B', '--prefix'] }],
  ['unzip', { operands: 'none', options: ['-d'] }],
  ['tar', { operands: 'none', options: ['-C', '--directory'] }],
  ['zip', { operands: 'first', options: [] }],
  ['7z', { operands: 'none', options: ['-o'] }],
  ['split', { operands: 'afterFirst', options: [] }], ['csplit', { operands: 'none', options: ['-f', '--prefix'] }],
  ['xxd', { operands: 'afterFirst', options: [] }], ['uniq', { operands: 'afterFirst', options: [] }],
  ['sort', OUTPUT], ['shuf', OUTPUT], ['iconv', OUTPUT], ['sdiff', OUTPUT], ['tree', { operands: 'none', options: ['-o'] }],
  ['curl', { operands: 'none', options: ['-o', '--output', '--output-dir', '-c', '--cookie-jar', '-D', '--dump-header', '--trace', '--trace-ascii', '--stderr', '--libcurl', '--etag-save', '--hsts', '--alt-svc'] }],
  ['wget', { operands: 'none', options: ['-O', '--output-document', '-P', '--directory-prefix', '-o', '--output-file', '-a', '--append-output', '--save-cookies', '--hsts-file', '--rejected-log', '--warc-file'] }],
]);
/** sed and perl write their file operands only in place (`-i`); git's `--output` and `format-patch -o`. */
const IN_PLACE: ReadonlySet<string> = new Set(['sed', 'gsed', 'perl']);

/**
 * The paths a command writes, as written (ADR 0092). `landing` gets where a copied file lands when the destination
 * is a folder (`cp evil/config .git/`): checked for the files that matter, not named as places.
 */
export function writtenPaths(c: CmdView, landing: string[] = []): string[] {
  const out: string[] = [];
  let spec = WRITE_SPECS.get(c.exe);
  if (spec === undefined && IN_PLACE.has(c.exe) && c.args.some((a) => /^-[A-Za-z]*i/.test(a) || a.startsWith('--in-place'))) spec = EACH;
  if (spec === undefined && c.exe === 'git') {
    // Most git calls write no file of their own: only `--output`, and `-o` of format-patch and archive.
    if (!c.args.some((a) => a.startsWith('--output') || a.startsWith('-o'))) return out;
    spec = { operands: 'none', options: ['--output', ...(c.args.includes('format-patch') || c.args.includes('archive') ? ['-o'] : [])] };
  }
  if (spec === undefined) return out;
  const args = c.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    for (const o of spec.options) {
      if (a === o) out.push(args[i + 1] ?? '');
      else if (o.startsWith('--') ? a.startsWith(o + '=') : a.startsWith(o) && a.length > o.length) out.push(a.slice(o.length + (o.startsWith('--') ? 1 : 0)));
    }
  }
  // `curl -O URL`, `wget URL`: the file is named after the URL's last path segment (`…/.envrc` writes `.envrc`).
  if ((c.exe === 'curl' && mentionsOption(args, 'O', ['--remote-name', '--remote-name-all'])) || (c.exe === 'wget' && !mentionsOption(args, 'O', ['--output-document']))) {
    for (const w of operands(args)) {
      const name = urlFileName(w);
      if (name !== undefined) out.push(name);
    }
  }
  if (spec.operands === 'none') return out.filter((p) => p !== '' && p !== '-');
  const ops = operands(args);
  if (spec.operands === 'all') out.push(...ops);
  else if (spec.operands === 'first' && ops.length > 0) out.push(ops[0]!);
  else if (spec.operands === 'afterFirst') out.push(...ops.slice(1));
  else if (spec.operands === 'last' && ops.length > 1) {
    const last = ops[ops.length - 1]!;
    out.push(last);
    // `cp evil/config .git/`: a file lands in the destination under its own name.
    for (const src of ops.slice(0, -1)) landing.push(`${trimTrailingSlashes(last)}/${trimTrailingSlashes(src).replace(/^.*\//, '')}`);
  }
  return out.filter((p) => p !== '' && p !== '-');
}

/** The last path segment of a URL (`https://host/a/.envrc?x` → `.envrc`), or undefined for none or no URL. */
function urlFileName(word: string): string | undefined {
  const m = /^(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?[A-Za-z0-9.-]+(?::\d+)?(\/[^?#]*)/.exec(word);
  if (m === null || !(word.includes('://') || /^[A-Za-z0-9-]+\.[A-Za-z0-9.-]+/.test(word))) return undefined;
  const name = m[1]!.slice(m[1]!.lastIndexOf('/') + 1);
  return name === '' || name === '.' || name === '..' ? undefined : name;
}

/** Why writing this path makes later programs run code (a PROTECTED_IN_ROOTS file), or undefined. */
function runsLater(resolved: string | undefined, c: CmdView): Finding | undefined {
  const entry = resolved === undefined ? undefined : protectedEntry(resolved, c);
  return entry === undefined ? undefined : dangerous(`changes a file that makes later programs run code (${entry})`);
}

/**
 * The part of a resolved path below `root`, or undefined when it is not below it. Both are absolute and normalised
 * (path.resolve), so a prefix test is exact, and cheaper than path.relative on every written path.
 */
function below(path: string, root: string): string | undefined {
  if (root === '/') return path.slice(1);
  return path.length > root.length && path.charCodeAt(root.length) === 0x2f && path.startsWith(root) ? path.slice(root.length + 1) : undefined;
}

/** insideProject by prefix, for a resolved path (path.resolve's form): the project, or a temp folder. */
export function insideByPrefix(p: string, cwd: string): boolean {
  return p === cwd || below(p, cwd) !== undefined || inTemp(p);
}

/** Inside a temp folder (what insideProject allows besides the project), by prefix: both paths are normalised. */
function inTemp(p: string): boolean {
  for (const t of TEMP_ROOTS) if (p === t || below(p, t) !== undefined) return true;
  const tmp = process.env.TMPDIR;
  return tmp !== undefined && tmp !== '' && isInside(p, resolve(tmp));
}

/** Files in a git folder that say where its settings are, or hold more of them (ADR 0093). */
const GIT_POINTER_FILES: ReadonlySet<string> = new Set(['commondir', 'gitdir', 'config.worktree']);

/**
 * A file that tells git where a repository's settings are: a `.git` file anywhere (`gitdir: ../elsewhere`), or a
 * `commondir`, `gitdir` or `config.worktree` in a `.git` folder. Written, it makes the next `git status` in that
 * folder, which runs unasked, read settings from a file the model wrote (`core.fsmonitor = CMD`) (ADR 0093).
 */
function gitPointer(path: string): string | undefined {
  if (!path.includes('.git')) return undefined;
  const parts = path.split('/');
  const last = parts[parts.length - 1]!;
  if (last === '.git') return path;
  const at = parts.lastIndexOf('.git');
  return at >= 0 && at < parts.length - 1 && GIT_POINTER_FILES.has(last) ? path : undefined;
}

/** The protected entry (PROTECTED_IN_ROOTS, or RUN_BY_TOOLS anywhere below the root) a path lies in, taken from the project or the home folder, if any. */
function protectedEntry(path: string, c: CmdView): string | undefined {
  for (const root of [c.project, c.home]) {
    const rel = below(path, root);
    if (rel === undefined) continue;
    // Every PROTECTED_IN_ROOTS entry starts with `.`.
    if (rel.charCodeAt(0) === 0x2e) {
      for (const entry of PROTECTED_IN_ROOTS) if (rel === entry || (rel.startsWith(entry) && rel.charCodeAt(entry.length) === 0x2f)) return entry;
    }
    const run = runByToolsEntry(rel);
    if (run !== undefined) return run;
  }
  const pointer = gitPointer(path);
  if (pointer !== undefined) return pointer;
  // git's settings outside both (`~/.config/git/config`, another repository's `.git/config`).
  if (!path.includes('/.git/') && !path.includes('/.config/git/')) return undefined;
  return /(^|\/)\.git\/(config|hooks)(\/|$)|(^|\/)\.config\/git\//.test(path) ? path : undefined;
}

/**
 * Why writing `target` needs its own answer (ADR 0092), or undefined: a place outside the project (the sandbox keeps
 * writes in the project, but `sandbox.enabled: false` does not), a path known only at run time, or git's settings.
 * The path is named, so an answer for one place never covers another.
 */
export function writeTargetFindings(written: string, c: CmdView, out: Finding[]): void {
  targetFindings(written, c, out, false);
}

/** writeTargetFindings, and with `startup` the start-up file reason too (the redirect rules give that one themselves). */
function targetFindings(written: string, c: CmdView, out: Finding[], startup: boolean): void {
  // A redirection's target is source text: `> $'out.txt'` is the plain name (no escapes to decode).
  const target = /^\$'[^'\\]*'$/.test(written) ? written.slice(2, -1) : written;
  const p = resolvePath(target, c);
  // A start-up or system file has its own reason (given here with `startup`, else by the rules that found the target).
  const system = (p !== undefined && STARTUP_OR_SYSTEM.test(p)) || STARTUP_OR_SYSTEM.test(target);
  if (system && startup) out.push(dangerous('changes shell start-up, login or system files'));
  const later = system ? undefined : runsLater(p, c);
  if (later !== undefined) out.push(later);
  // git's own files beyond its settings and hooks (`truncate -s 0 .git/index`), as edit_file asks (ADR 0096).
  else if (inGitFolder(target)) out.push(dangerous(`changes git's own files (${target})`));
  // Devices are the disk-write entry's and the redirect rules' (`/dev/null` writes nothing anywhere).
  if (p !== undefined && (p === '/dev' || p.startsWith('/dev/'))) return;
  if (p === undefined) out.push(moderate(`writes to a path known only when it runs, which may lie outside the project (${target})`));
  else if (!insideByPrefix(p, c.project)) out.push(moderate(`writes outside the project (${target})`));
}

function writeTargetRules(c: CmdView): Finding[] {
  const out: Finding[] = [];
  const landing: string[] = [];
  for (const t of writtenPaths(c, landing)) targetFindings(t, c, out, true);
  for (const t of landing) {
    const p = resolvePath(t, c);
    if ((p !== undefined && STARTUP_OR_SYSTEM.test(p)) || STARTUP_OR_SYSTEM.test(t)) out.push(dangerous('changes shell start-up, login or system files'));
    else {
      const later = runsLater(p, c);
      if (later !== undefined) out.push(later);
    }
  }
  return out;
}

/**
 * Archive tools told to put members wherever the archive names them (ADR 0099): `tar -P`/`--absolute-names`, `cpio
 * -i` (which keeps absolute names unless given `--no-absolute-filenames`), `unzip -:`, `7z -spf`. What lands where is
 * in the archive, not the line, so the place cannot be named: the reason keeps an answer for `tar xf a.tar` from
 * covering `tar xPf a.tar`, which may write `/home/you/.bashrc` (the sandbox, when on, keeps writes in the project).
 */
const EXTRACTORS = ['tar', 'bsdtar', 'gtar', 'cpio', 'unzip', '7z', '7za', '7zz'];

function extractAnywhereRules(c: CmdView): Finding[] {
  const anywhere = [moderate('extracts files wherever the archive names them, outside the project too')];
  switch (c.exe) {
    case 'tar':
    case 'bsdtar':
    case 'gtar': {
      // tar's old-style first word is a bundle of letters without a dash (`tar xPf a.tar`).
      const bundle = /^[A-Za-z]+$/.test(c.args[0] ?? '') ? c.args[0]! : '';
      const extracts = bundle.includes('x') || mentionsOption(c.args, 'x', ['--extract', '--get']);
      return extracts && (bundle.includes('P') || mentionsOption(c.args, 'P', ['--absolute-names'])) ? anywhere : [];
    }
    case 'cpio':
      return mentionsOption(c.args, 'i', ['--extract']) && !c.args.includes('--no-absolute-filenames') ? anywhere : [];
    case 'unzip':
      return c.args.some((a) => /^-[A-Za-z]*:/.test(a)) ? anywhere : [];
    case '7z':
    case '7za':
    case '7zz':
      return c.args.some((a) => a.startsWith('-spf')) ? anywhere : [];
    default:
      return [];
  }
}

export const FILE_RULES: readonly Family[] = [
  { rule: rmRules, programs: ['rm'] },
  { rule: permissionRules, programs: ['chmod', 'chown', 'chgrp'] },
  { rule: diskRules, programs: [...DISK_TOOLS, ...VOLUME_REMOVERS, 'diskutil', 'zpool', 'cryptsetup', 'dd', 'shred', 'srm'], matches: FORMATTER_NAME },
  { rule: fileChangeRules, programs: [...FILE_CHANGERS, ...COPY_TARGETS, ...FILE_WRITERS, ...UNSEEN_WRITERS.keys(), 'git'] },
  { rule: findRules, programs: ['find'] },
  { rule: fdRules, programs: ['fd', 'fdfind'] },
  // Only under xargs, and only for these programs: the family checks the wrapper itself.
  { rule: xargsRules, programs: [...DELETERS, ...HOME_READERS] },
  { rule: archiveHomeRules, programs: COPIERS },
  { rule: writeTargetRules, programs: [...WRITE_SPECS.keys(), ...IN_PLACE, 'git'] },
  { rule: extractAnywhereRules, programs: EXTRACTORS },
];
