// The known read-only commands: the only way a part is rated safe. Each entry says which argument forms only read;
// anything outside them (an output option, an in-place flag, a command it would start) falls back to moderate.
import { type CmdView, firstOperand, hasFlag, mentionsOption, operands } from './rules-common.js';
import { gitReadOnly } from './rules-git.js';
import { SYSTEM_READ, ipReadOnly } from './rules-system.js';

type ReadCheck = (a: readonly string[], c: CmdView) => boolean;
const ANY: ReadCheck = () => true;
const NO_ARGS: ReadCheck = (a) => a.length === 0;
const AT_MOST_ONE_OPERAND: ReadCheck = (a) => operands(a).length <= 1;

const sedReads: ReadCheck = (a) => {
  if (mentionsOption(a, 'i', ['--in-place'])) return false;
  // w/W write files and e runs a command: look for them as sed commands or s/// flags.
  const scripts = a.filter((x) => !x.startsWith('-'));
  return !scripts.some((s) => /(^|[;{}\n]|\/[gpiImMe0-9]*)\s*[wWe](\s|$)|s(.).*\2.*\2[gpiImM0-9]*[we]/.test(s));
};

const awkReads: ReadCheck = (a) =>
  !mentionsOption(a, 'f', ['--file', '--exec', '--include', '--load']) &&
  !a.some((x) => /system\s*\(|\|\s*getline|\||>|-i\s*inplace|^inplace$/.test(x));

const dateReads: ReadCheck = (a) => {
  if (mentionsOption(a, 's', ['--set'])) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (/^(-d|--date|-r|--reference|-f|--file|-v|-z)$/.test(x)) {
      i++;
      continue;
    }
    if (!x.startsWith('-') && !x.startsWith('+')) return false; // `date MMDDhhmm` sets the clock
  }
  return true;
};

const npmReads: ReadCheck = (a) => {
  const sub = firstOperand(a, ['--prefix', '-w', '--workspace', '-C', '--dir', '--cwd']).word;
  if (sub === undefined) return a.some((x) => x === '--version' || x === '-v' || x === '--help');
  if (/^(ls|list|ll|la|view|info|show|v|outdated|why|explain|root|prefix|help|search|fund|query|licenses|bin)$/.test(sub)) return true;
  const next = a[a.indexOf(sub) + 1];
  return (sub === 'config' || sub === 'c') && (next === 'get' || next === 'list' || next === 'ls');
};

const pipReads: ReadCheck = (a) => /^(list|show|freeze|check|help|inspect|debug)$/.test(firstOperand(a, ['--python']).word ?? '');

const brewReads: ReadCheck = (a) =>
  /^(list|ls|info|abv|search|desc|deps|uses|config|doctor|dr|outdated|leaves|commands|--prefix|--cellar|--repository|--version|--cache|--env|shellenv|tap-info|formulae|casks|help)$/.test(a[0] ?? '');

const cargoReads: ReadCheck = (a) => /^(tree|search|locate-project|verify-project|version|help|pkgid|metadata|--version|-V|--list)$/.test(firstOperand(a, ['--manifest-path', '-C', '--config', '-Z']).word ?? a[0] ?? '');

const goReads: ReadCheck = (a) => {
  const sub = firstOperand(a, ['-C']).word;
  if (sub === 'env') return !mentionsOption(a, 'wu');
  return sub !== undefined && /^(version|doc|help)$/.test(sub);
};

const dockerReads: ReadCheck = (a) => {
  const sub = firstOperand(a, ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level']).word;
  if (sub === undefined) return a.some((x) => x === '--version' || x === '--help');
  if (/^(ps|images|version|info|inspect|logs|top|port|history|search)$/.test(sub)) return true;
  const next = a[a.indexOf(sub) + 1] ?? '';
  return /^(image|container|volume|network|context|system|compose|buildx)$/.test(sub) && /^(ls|list|inspect|ps|df|version|images)$/.test(next);
};

const aptReads: ReadCheck = (a) => /^(list|search|show|policy|madison|depends|rdepends|showpkg|stats|changelog|help)$/.test(firstOperand(a, ['-o', '-t', '-c']).word ?? '');
const dpkgReads: ReadCheck = (a) => a.length > 0 && a.every((x) => /^-(l|L|s|S|p|-list|-listfiles|-status|-search|-print-architecture|-get-selections)$/.test(x) || !x.startsWith('-'));
/** tar options that start another program, even while only listing an archive. */
const TAR_RUNS = ['--use-compress-program', '--checkpoint-action', '--to-command', '--info-script', '--new-volume-script', '--rsh-command', '--rmt-command'];
const tarReads: ReadCheck = (a) => {
  const mode = a[0] ?? '';
  if (/^[a-zA-Z]*[IF]/.test(mode) || mentionsOption(a, 'IF', TAR_RUNS)) return false;
  return (/^-?[a-zA-Z]*t/.test(mode) && !/^-?[a-zA-Z]*[xcruA]/.test(mode)) || a.some((x) => x === '--list');
};

export const READ_ONLY: Readonly<Record<string, ReadCheck>> = {
  // Files and text.
  ls: ANY, dir: ANY, vdir: ANY, cat: ANY, tac: ANY, head: ANY, tail: ANY, wc: ANY, nl: ANY,
  grep: ANY, egrep: ANY, fgrep: ANY, zgrep: ANY, rg: (a) => !mentionsOption(a, '', ['--pre', '--pre-glob']), ag: ANY, ack: (a) => !mentionsOption(a, '', ['--pager', '--output']),
  stat: ANY, du: ANY, df: ANY, file: ANY, tree: (a) => !mentionsOption(a, 'o'), realpath: ANY, readlink: ANY, basename: ANY, dirname: ANY,
  find: (a) => !a.some((x) => /^-(exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls)$/.test(x)),
  fd: (a) => !mentionsOption(a, 'xX', ['--exec', '--exec-batch']), fdfind: (a) => !mentionsOption(a, 'xX', ['--exec', '--exec-batch']),
  locate: ANY, mdfind: ANY, mdls: ANY,
  sort: (a) => !mentionsOption(a, 'o', ['--output', '--compress-program']), uniq: AT_MOST_ONE_OPERAND, cut: ANY, tr: ANY, paste: ANY, column: ANY, fold: ANY,
  fmt: ANY, rev: ANY, od: ANY, xxd: AT_MOST_ONE_OPERAND, hexdump: ANY, strings: ANY, cmp: ANY, diff: ANY, comm: ANY,
  join: ANY, expand: ANY, unexpand: ANY, jq: ANY, yq: (a) => !mentionsOption(a, 'i', ['--inplace']), sed: sedReads, gsed: sedReads,
  awk: awkReads, gawk: awkReads, mawk: awkReads, nawk: awkReads, zcat: ANY, gzcat: ANY, bzcat: ANY, xzcat: ANY,
  base64: (a) => !mentionsOption(a, 'o', ['--output']), tar: tarReads, unzip: (a) => hasFlag(a, 'lvZt') && !mentionsOption(a, 'd'),
  sha1sum: ANY, sha224sum: ANY, sha256sum: ANY, sha384sum: ANY, sha512sum: ANY, md5sum: ANY, md5: ANY, shasum: ANY, cksum: ANY,
  b2sum: ANY, sum: ANY, bat: (a) => !mentionsOption(a, '', ['--pager']), nm: ANY, otool: ANY, objdump: ANY, readelf: ANY, size: ANY,
  // Printing and the shell's own harmless builtins.
  echo: ANY, printf: ANY, true: ANY, false: ANY, test: ANY, '[': ANY, '[[': ANY, '((': ANY, ':': ANY, sleep: ANY, seq: ANY,
  pwd: ANY, cd: ANY, pushd: ANY, popd: ANY, dirs: ANY, exit: ANY, return: ANY, wait: ANY, shift: ANY, type: ANY, which: ANY,
  whereis: ANY, command: (a) => a[0] === '-v' || a[0] === '-V', hash: NO_ARGS, umask: NO_ARGS, alias: NO_ARGS,
  set: (a) => a.length > 0 && a.every((x) => /^[-+][a-zA-Z]+$/.test(x) || /^(pipefail|errexit|nounset|xtrace|noglob|noclobber|errtrace|functrace)$/.test(x) || x === '-o' || x === '+o'),
  unset: ANY, let: ANY, read: ANY, help: ANY, man: (a) => !mentionsOption(a, 'PHX', ['--pager', '--html', '--gxditview', '--preprocessor']), whatis: ANY, apropos: ANY, tput: ANY, clear: ANY,
  printenv: (a) => operands(a).length > 0,
  // The machine and its processes (reading only).
  date: dateReads, cal: ANY, uptime: ANY, uname: ANY, arch: ANY, nproc: ANY, lscpu: ANY, free: ANY, vm_stat: ANY, sw_vers: ANY,
  whoami: ANY, id: ANY, groups: ANY, logname: ANY, users: ANY, who: ANY, w: ANY, last: ANY, tty: ANY, locale: ANY,
  hostname: (a) => operands(a).length === 0 && !mentionsOption(a, 'bF', ['--file', '--boot']), getconf: ANY,
  ps: ANY, pgrep: ANY, lsof: ANY, lsblk: ANY, netstat: ANY, ss: ANY, ifconfig: AT_MOST_ONE_OPERAND, ip: (a) => ipReadOnly(a),
  journalctl: (a) => !mentionsOption(a, '', ['--vacuum-size', '--vacuum-time', '--vacuum-files', '--rotate', '--flush', '--sync', '--relinquish-var', '--smart-relinquish-var', '--setup-keys', '--update-catalog']),
  dmesg: (a) => !mentionsOption(a, 'cCDEn', ['--clear', '--read-clear', '--console-off', '--console-on', '--console-level']),
  // Tools with a reading subset.
  git: (a) => gitReadOnly(a), npm: npmReads, pnpm: npmReads, yarn: (a, c) => a.length > 0 && npmReads(a, c),
  pip: pipReads, pip3: pipReads, brew: brewReads, cargo: cargoReads, go: goReads, docker: dockerReads, podman: dockerReads,
  gem: (a) => /^(list|info|search|contents|which|environment|help)$/.test(a[0] ?? ''), apt: aptReads, 'apt-cache': aptReads,
  dpkg: dpkgReads, 'dpkg-query': ANY, rpm: (a) => a.length > 0 && a.every((x) => /^-q/.test(x) || !x.startsWith('-')),
  pacman: (a) => a.length > 0 && a.some((x) => /^-Q/.test(x)) && !a.some((x) => /^-[SRU]/.test(x)),
  systemctl: (a) => SYSTEM_READ.systemctl!(a), launchctl: (a) => SYSTEM_READ.launchctl!(a), sysctl: (a) => SYSTEM_READ.sysctl!(a),
  defaults: (a) => SYSTEM_READ.defaults!(a), csrutil: (a) => SYSTEM_READ.csrutil!(a), pmset: (a) => SYSTEM_READ.pmset!(a),
  scutil: (a) => SYSTEM_READ.scutil!(a), networksetup: (a) => SYSTEM_READ.networksetup!(a), mount: (a) => SYSTEM_READ.mount!(a),
  hostnamectl: (a) => SYSTEM_READ.hostnamectl!(a), timedatectl: (a) => SYSTEM_READ.timedatectl!(a), crontab: (a) => SYSTEM_READ.crontab!(a),
  ufw: (a) => SYSTEM_READ.ufw!(a), nft: (a) => SYSTEM_READ.nft!(a), iptables: (a) => SYSTEM_READ.iptables!(a),
  xcodebuild: (a) => a.length > 0 && a.every((x) => /^-(version|showsdks|list|help|usage)$/.test(x)),
};

/** Multiplexers whose `version`/`help` subcommand is built in (not a project script or make target). */
const BUILTIN_VERSION_SUB = new Set(['git', 'go', 'docker', 'podman', 'kubectl', 'npm', 'pnpm', 'cargo', 'brew', 'pip', 'pip3', 'gh', 'swift', 'rustup', 'terraform', 'helm', 'uv', 'deno', 'bun']);

/** Tools whose `-v` means "print the version" (elsewhere it often means verbose, or something else entirely). */
const DASH_V_VERSION = new Set(['node', 'nodejs', 'npm', 'npx', 'pnpm', 'yarn', 'bun', 'deno', 'tsc', 'docker', 'podman', 'ruby', 'gcc', 'g++', 'clang', 'clang++', 'php', 'lua']);
/** Tools whose version flag is `-version` (one dash). */
const DASH_VERSION = new Set(['java', 'javac', 'xcodebuild', 'ffmpeg', 'ffprobe', 'openssl']);

/** `<tool> --version` / `--help` (and `version`/`help` for tools where that is built in). */
export function isVersionOrHelp(c: CmdView): boolean {
  if (c.args.length !== 1 || c.r.programWord === undefined || c.r.programWord.includes('/')) return false;
  const a = c.args[0]!;
  if (a === '--version' || a === '-V' || a === '--help') return true;
  if (a === '-v' && DASH_V_VERSION.has(c.exe)) return true;
  if (a === '-version' && DASH_VERSION.has(c.exe)) return true;
  return (a === 'version' || a === 'help') && BUILTIN_VERSION_SUB.has(c.exe);
}

export function isReadOnlyCommand(c: CmdView): boolean {
  if (isVersionOrHelp(c)) return true;
  if (!Object.prototype.hasOwnProperty.call(READ_ONLY, c.exe)) return false;
  return READ_ONLY[c.exe]!(c.args, c);
}
