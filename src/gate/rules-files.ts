// Rule families about files and disks: deleting, permission changes, writing, whole-disk tools, find/xargs.
import {
  type CmdView,
  type Family,
  type Finding,
  dangerous,
  hasFlag,
  insideProject,
  moderate,
  operands,
  resolvePath,
} from './rules-common.js';
import { trimTrailingSlashes } from './words.js';

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
  out.push(moderate('deletes files'));
  return out;
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
  return out;
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

export const FILE_RULES: readonly Family[] = [
  { rule: rmRules, programs: ['rm'] },
  { rule: permissionRules, programs: ['chmod', 'chown', 'chgrp'] },
  { rule: diskRules, programs: [...DISK_TOOLS, ...VOLUME_REMOVERS, 'diskutil', 'zpool', 'cryptsetup', 'dd', 'shred', 'srm'], matches: FORMATTER_NAME },
  { rule: fileChangeRules, programs: [...FILE_CHANGERS, ...COPY_TARGETS, ...FILE_WRITERS] },
  { rule: findRules, programs: ['find'] },
  { rule: fdRules, programs: ['fd', 'fdfind'] },
  // Only under xargs, and only for these programs: the family checks the wrapper itself.
  { rule: xargsRules, programs: [...DELETERS, ...HOME_READERS] },
  { rule: archiveHomeRules, programs: COPIERS },
];
