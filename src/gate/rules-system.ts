// Privilege, system configuration, processes, scheduling, packages, builds, interpreters and scripts.
import { shellCommandString } from './parse.js';
import { type CmdView, type Family, type Finding, dangerous, firstOperand, hasFlag, isPython, moderate, operands } from './rules-common.js';
import { isShell } from '../core/shells.js';
import { PRIVILEGE_WRAPPERS } from './wrappers.js';

const IDENTITY_CHANGERS = ['su', 'sudoedit', 'visudo'];

function privilegeRules(c: CmdView): Finding[] {
  if (c.r.wrappers.some((w) => PRIVILEGE_WRAPPERS.has(w)) || PRIVILEGE_WRAPPERS.has(c.exe)) return [dangerous('runs as root')];
  if (IDENTITY_CHANGERS.includes(c.exe)) return [dangerous('runs as another user or edits privileges')];
  return [];
}

/** Reading forms of system tools; anything else they do changes the machine. */
const SYSTEM_READ: Readonly<Record<string, (a: readonly string[]) => boolean>> = {
  systemctl: (a) => {
    const sub = firstOperand(a, ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property', '-n', '--lines', '-o', '--output', '--state']).word;
    return sub === undefined || /^(status|show|cat|list-\w+|is-\w+|get-default|help)$/.test(sub);
  },
  launchctl: (a) => /^(list|print|print-cache|print-disabled|blame|dumpstate|examine|version|help|error)$/.test(a[0] ?? ''),
  service: (a) => a.includes('--status-all') || a[1] === 'status',
  sysctl: (a) => !hasFlag(a, 'w', ['--write', '--load', '--system']) && !a.some((x) => x.includes('=')),
  nvram: (a) => a.length > 0 && a.every((x) => x === '-p' || x === '-x' || (!x.startsWith('-') && !x.includes('='))),
  csrutil: (a) => a[0] === 'status',
  spctl: (a) => a.includes('--status') || a.includes('--assess') || a.includes('-a'),
  pmset: (a) => a[0] === '-g',
  scutil: (a) => a.length === 0 || /^(--get|--dns|--proxy|--nwi|-r)$/.test(a[0] ?? ''),
  networksetup: (a) => /^-(get|list|print)/.test(a[0] ?? ''),
  dscl: (a) => a.some((x) => /^-(read|list|search|readall)$/.test(x)),
  ufw: (a) => a[0] === 'status',
  iptables: (a) => a.length > 0 && a.every((x) => /^(-L|-S|--list|--list-rules|-n|-v|--line-numbers|-t|nat|filter|mangle|raw|INPUT|OUTPUT|FORWARD)$/.test(x)),
  ip6tables: (a) => a.length > 0 && a.every((x) => /^(-L|-S|--list|--list-rules|-n|-v|--line-numbers)$/.test(x)),
  nft: (a) => a[0] === 'list',
  pfctl: (a) => a.length > 0 && a.every((x) => /^-s\w*$/.test(x) || /^(rules|nat|states|info|all)$/.test(x)),
  mount: (a) => a.length === 0 || (a.length === 1 && (a[0] === '-l' || a[0] === '-v')),
  hostnamectl: (a) => a.length === 0 || a[0] === 'status',
  timedatectl: (a) => a.length === 0 || a[0] === 'status' || a[0] === 'show',
  localectl: (a) => a.length === 0 || a[0] === 'status' || a[0].startsWith('list'),
  crontab: (a) => a.length === 1 && a[0] === '-l',
  defaults: (a) => /^(read|read-type|domains|find|export)$/.test(a[0] ?? '') && a[0] !== 'export',
  tccutil: () => false,
};

const SYSTEM_CHANGERS = new Set([
  'systemctl', 'launchctl', 'service', 'sysctl', 'nvram', 'csrutil', 'spctl', 'pmset', 'scutil', 'networksetup', 'dscl',
  'systemsetup', 'ufw', 'iptables', 'ip6tables', 'nft', 'pfctl', 'firewall-cmd', 'modprobe', 'insmod', 'rmmod', 'kextload',
  'kextunload', 'kmutil', 'mount', 'umount', 'swapon', 'swapoff', 'hostnamectl', 'timedatectl', 'localectl', 'update-grub',
  'grub-install', 'grub-mkconfig', 'bootctl', 'efibootmgr', 'useradd', 'userdel', 'usermod', 'groupadd', 'groupdel',
  'groupmod', 'gpasswd', 'passwd', 'chpasswd', 'chsh', 'chfn', 'vipw', 'setenforce', 'auditctl', 'ldconfig',
  'update-alternatives', 'tccutil', 'sysadminctl', 'dseditgroup', 'bless', 'fdesetup', 'softwareupdate', 'profiles',
]);

const POWER = ['shutdown', 'reboot', 'halt', 'poweroff'];

function systemRules(c: CmdView): Finding[] {
  const e = c.exe;
  if (POWER.includes(e) || ((e === 'init' || e === 'telinit') && /^[06]$/.test(c.args[0] ?? ''))) {
    return [dangerous('shuts down or restarts the machine')];
  }
  if (e === 'crontab') {
    if (hasFlag(c.args, 'r')) return [dangerous('removes every scheduled job')];
    // Installing a schedule (`crontab FILE`, `… | crontab -`, `crontab -e`) stores commands that run later, unasked
    // and outside the sandbox: never a standing answer (ADR 0100).
    return SYSTEM_READ.crontab!(c.args) ? [] : [dangerous('installs commands that run later on a schedule, unasked and uncontained')];
  }
  if (e === 'defaults') {
    return SYSTEM_READ.defaults!(c.args) ? [] : [moderate('affects the desktop or scheduling')];
  }
  if (e === 'ip' && !ipReadOnly(c.args)) return [dangerous('changes system configuration')];
  if (e === 'ifconfig' && operands(c.args).length > 1) return [dangerous('changes system configuration')];
  if (SYSTEM_CHANGERS.has(e)) {
    const read = SYSTEM_READ[e];
    if (read && read(c.args)) return [];
    if (e === 'systemctl' && c.args.includes('--user')) return [moderate('changes user services')];
    return [dangerous('changes system configuration')];
  }
  return [];
}

export function ipReadOnly(a: readonly string[]): boolean {
  const objs = /^(a|addr|address|l|link|r|route|n|neigh|neighbor|neighbour|rule|maddr|monitor|netns|-\w+)$/;
  const words = a.filter((x) => !x.startsWith('-'));
  if (words.length === 0) return true;
  if (!objs.test(words[0]!)) return false;
  return words.length === 1 || /^(show|list|ls|lst|get)$/.test(words[1]!);
}

export { SYSTEM_READ };

const KILLERS = ['pkill', 'killall', 'killall5'];

function processRules(c: CmdView): Finding[] {
  if (KILLERS.includes(c.exe)) return [dangerous('kills processes broadly')];
  if (c.exe !== 'kill') return [];
  const a = [...c.args];
  if (a[0] === '-l' || a[0] === '-L') return [];
  if (a[0] === '-s' || a[0] === '-n') a.splice(0, 2);
  else if (a[0] !== undefined && a[0] !== '--' && /^-([A-Z]+|\d+)$/.test(a[0]) && a.length > 1) a.shift();
  const pids = a.filter((x) => x !== '--');
  if (pids.some((p) => p === '-1' || p === '0')) return [dangerous('kills processes broadly')];
  return [moderate('signals a process')];
}

const DESKTOP = ['open', 'xdg-open', 'osascript', 'at', 'batch', 'atrm', 'notify-send', 'say', 'pbcopy', 'xclip', 'xsel', 'wl-copy', 'shortcuts', 'automator'];

function desktopRules(c: CmdView): Finding[] {
  // `at TIME`, `batch`: the commands given run later, unasked and outside the sandbox (ADR 0100); `-l`, `-c` and `-r`/`-d`
  // list, show or remove jobs.
  if ((c.exe === 'at' || c.exe === 'batch') && !c.args.some((a) => /^-[A-Za-z]*[lcrd]/.test(a))) {
    return [dangerous('schedules commands that run later, unasked and uncontained')];
  }
  if (DESKTOP.includes(c.exe)) {
    return [moderate('affects the desktop or scheduling')];
  }
  return [];
}

const PKG_VERBS = /^(install|i|add|ci|update|up|upgrade|uninstall|remove|rm|un|r|unlink|link|dedupe|ddp|prune|rebuild|reinstall|purge|autoremove|dist-upgrade|full-upgrade|tap|untap|cleanup|pin|unpin|get|download|sync|lock|fix|audit)$/;

const JS_PACKAGERS = ['npm', 'pnpm', 'yarn', 'bun'];
const LANGUAGE_PACKAGERS = [
  'pip', 'pip3', 'pipx', 'gem', 'composer', 'conda', 'mamba', 'micromamba', 'bundle', 'poetry', 'pdm', 'rye', 'hatch', 'cpan', 'cpanm',
  'luarocks', 'opam', 'nix-env', 'mas', 'rustup',
];
const SYSTEM_PACKAGERS = ['brew', 'port', 'snap', 'flatpak', 'apk', 'apt', 'apt-get', 'aptitude', 'dnf', 'yum', 'zypper', 'swupd', 'pkg', 'winget', 'choco', 'scoop'];
const PACMAN_LIKE = ['pacman', 'yay', 'paru'];
const PACKAGERS = [...JS_PACKAGERS, ...LANGUAGE_PACKAGERS, 'uv', 'cargo', 'go', ...SYSTEM_PACKAGERS, ...PACMAN_LIKE, 'dpkg', 'rpm', 'swift', 'dotnet'];

/** Verbs that add packages (and run their install scripts): what they add is named in a reason (ADR 0093). */
const ADD_VERBS: ReadonlySet<string> = new Set(['install', 'i', 'add', 'get', 'in', 'reinstall', 'ci', 'upgrade', 'update', 'up', 'sync']);
/** A flag without a value (`--save-dev`, `-g`): not named. Anything else after the verb names what is added or from where. */
const PLAIN_FLAG = /^--?[A-Za-z][A-Za-z0-9-]*$/;

/**
 * `installs PKG …`: the words after an adding verb that name a package, a file, a URL or a registry (`lodash`,
 * `git+https://…`, `--registry=https://…`, `-i URL`'s URL). So an answer for `npm install lodash` never covers
 * `npm install other`, nor one from another index; a bare `npm install` (the lockfile) names none.
 */
function addedPackages(args: readonly string[], verb: string | undefined, out: Finding[]): void {
  if (verb === undefined || !ADD_VERBS.has(verb)) return;
  const at = args.indexOf(verb);
  const named = args.slice(at + 1).filter((a) => !PLAIN_FLAG.test(a));
  if (named.length > 0) out.push(moderate(`installs ${named.join(' ')}`));
}

function packageRules(c: CmdView): Finding[] {
  const out = packageRulesOf(c);
  if (out.length === 0) return out;
  const sub = firstOperand(c.args, ['--prefix', '-C', '--dir', '--cwd', '-w', '--workspace', '-o', '-t', '-c', '--manifest-path', '--config']).word;
  // `python3 -m pip install x`, `uv pip install x`: the verb after pip.
  const pip = c.args.indexOf('pip');
  const verb = pip >= 0 && (c.exe === 'uv' || c.args[0] === '-m') ? c.args[pip + 1] : sub;
  addedPackages(c.args, verb, out);
  return out;
}

function packageRulesOf(c: CmdView): Finding[] {
  const e = c.exe;
  const sub = firstOperand(c.args, ['--prefix', '-C', '--dir', '--cwd', '-w', '--workspace', '-o', '-t', '-c', '--manifest-path', '--config']).word;
  const installs = moderate('installs or removes packages');
  if (JS_PACKAGERS.includes(e)) {
    if (e === 'yarn' && sub === undefined && c.args.length === 0) return [installs];
    if (sub !== undefined && PKG_VERBS.test(sub) && !(sub === 'audit' && !c.args.includes('fix'))) return [installs];
    return [];
  }
  if (LANGUAGE_PACKAGERS.includes(e)) {
    return sub !== undefined && (PKG_VERBS.test(sub) || sub === 'create' || sub === 'toolchain' || sub === 'target' || sub === 'component') ? [installs] : [];
  }
  if (e === 'uv') {
    if (sub === 'pip' && PKG_VERBS.test(c.args[c.args.indexOf('pip') + 1] ?? '')) return [installs];
    if (sub !== undefined && /^(add|remove|sync|lock|tool|python|venv|init)$/.test(sub)) return [installs];
    return [];
  }
  if (isPython(e) && c.args[0] === '-m' && /^(pip|ensurepip|venv)$/.test(c.args[1] ?? '')) {
    return /^(list|show|freeze|check|help|--version)$/.test(c.args[2] ?? '') ? [] : [installs];
  }
  if (e === 'cargo' || e === 'go') {
    if (sub !== undefined && /^(install|uninstall|add|remove|update|get)$/.test(sub)) return [installs];
    if (e === 'go' && sub === 'mod' && /^(download|tidy|vendor|edit|init)$/.test(c.args[c.args.indexOf('mod') + 1] ?? '')) return [installs];
    return [];
  }
  if (SYSTEM_PACKAGERS.includes(e)) {
    return sub !== undefined && (PKG_VERBS.test(sub) || /^(del|refresh|dup|in|rm|services)$/.test(sub)) ? [installs] : [];
  }
  if (PACMAN_LIKE.includes(e)) {
    return c.args.some((a) => /^-[SRU]/.test(a) || /^--(sync|remove|upgrade)$/.test(a)) ? [installs] : [];
  }
  if (e === 'dpkg' && c.args.some((a) => /^-(i|r|P|-install|-remove|-purge|-configure)/.test(a))) return [installs];
  if (e === 'rpm' && c.args.some((a) => /^-[a-zA-Z]*[iUeF]/.test(a) && !a.startsWith('-q'))) return [installs];
  if (e === 'swift' && sub === 'package' && /^(update|resolve|reset|purge-cache|add-dependency)$/.test(c.args[c.args.indexOf('package') + 1] ?? '')) {
    return [installs];
  }
  if (e === 'dotnet' && sub === 'add') return [installs];
  return [];
}

const MAKES = ['make', 'gmake', 'bmake'];
const PACKAGE_RUNNERS = ['npx', 'pnpx', 'bunx', 'uvx', 'pipx'];
const ENV_RUNNERS = ['poetry', 'pdm', 'hatch', 'rye', 'bundle', 'pipenv'];
const BUILD_TOOLS = ['pytest', 'py.test', 'tox', 'nox', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'karma', 'playwright', 'cypress', 'rspec', 'rake', 'phpunit', 'ctest', 'cmake', 'ninja', 'meson', 'bazel', 'bazelisk', 'buck', 'buck2', 'scons', 'mvn', 'gradle', 'ant', 'sbt', 'lein', 'mix', 'rebar3', 'dune', 'stack', 'cabal', 'zig', 'dotnet', 'msbuild', 'tsc', 'webpack', 'vite', 'esbuild', 'rollup', 'parcel', 'turbo', 'nx', 'lerna', 'just', 'task', 'mage', 'invoke', 'fab', 'grunt', 'gulp', 'deno', 'eslint', 'prettier', 'ruff', 'black', 'mypy', 'pyright', 'rustc', 'gcc', 'g++', 'cc', 'c++', 'clang', 'clang++', 'javac', 'kotlinc', 'swiftc'];
const BUILDERS = [...MAKES, 'xcodebuild', 'cargo', 'swift', 'go', ...JS_PACKAGERS, ...PACKAGE_RUNNERS, 'uv', ...ENV_RUNNERS, ...BUILD_TOOLS];

/** Builds, tests and task runners execute the project's own code. */
function buildRules(c: CmdView): Finding[] {
  const e = c.exe;
  const runs = moderate('runs project code (build scripts, tests or tasks)');
  const sub = firstOperand(c.args, ['--prefix', '-C', '--dir', '--cwd', '-w', '--workspace', '--manifest-path', '--config', '-Z', '--package-path']).word;
  if (MAKES.includes(e)) {
    const targets = makeTargets(c.args);
    if (targets.some((t) => /^(clean|distclean|mrproper|install|uninstall)$/.test(t))) return [moderate('cleans or installs build output'), runs];
    return [runs];
  }
  if (e === 'xcodebuild') {
    if (c.args.length > 0 && c.args.every((a) => /^-(version|showsdks|list|help|usage)$/.test(a))) return [];
    return [moderate('writes build products outside the project'), runs];
  }
  if (e === 'cargo') {
    if (sub === 'clean') return [moderate('cleans or installs build output')];
    if (sub !== undefined && /^(build|b|test|t|run|r|bench|check|c|clippy|doc|d|fix|fmt|miri|nextest|install)$/.test(sub)) return [runs];
    return [];
  }
  if (e === 'swift' && sub !== undefined && /^(build|test|run|package)$/.test(sub)) return [runs];
  if (e === 'go' && sub !== undefined && /^(build|test|run|generate|vet|tool)$/.test(sub)) return [runs];
  if (JS_PACKAGERS.includes(e)) {
    if (sub !== undefined && /^(run|run-script|rum|urn|test|t|tst|start|stop|restart|exec|x|dlx|create|init|explore|rebuild)$/.test(sub)) return [runs];
    if (e !== 'npm' && sub !== undefined && !/^(list|ls|ll|la|why|info|view|show|outdated|help|config|root|bin|store|version|--version|-v|audit|licenses|search|pack|publish|login|logout|whoami|cache|add|install|i|remove|rm|up|update|upgrade|link|unlink|dedupe|prune|import|patch|workspaces?)$/.test(sub)) {
      return [runs]; // `yarn build`, `pnpm lint`: a package script
    }
    return [];
  }
  if (PACKAGE_RUNNERS.includes(e)) return e === 'pipx' && firstOperand(c.args).word !== 'run' ? [] : [moderate('downloads and runs a package')];
  if (e === 'uv' && sub === 'run') return [runs];
  if (ENV_RUNNERS.includes(e) && (sub === 'run' || sub === 'exec' || sub === 'shell')) return [runs];
  if (BUILD_TOOLS.includes(e)) {
    return [runs];
  }
  if (isPython(e) && c.args[0] === '-m' && /^(pytest|unittest|tox|nox|build|setup|mypy|black|ruff)$/.test(c.args[1] ?? '')) return [runs];
  return [];
}

function makeTargets(args: readonly string[]): string[] {
  const valueOpts = ['-C', '-f', '--file', '--makefile', '--directory', '-I', '--include-dir', '-o', '--old-file', '-W', '--what-if', '--assume-new', '--new-file'];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-')) {
      if (valueOpts.includes(a)) i++;
      else if ((a === '-j' || a === '-l') && /^\d+$/.test(args[i + 1] ?? '')) i++;
      continue;
    }
    if (!a.includes('=')) out.push(a);
  }
  return out;
}

/** Inline code given to an interpreter. */
const INLINE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  node: ['-e', '--eval', '-p', '--print'],
  nodejs: ['-e', '--eval', '-p', '--print'],
  bun: ['-e', '--eval', '-p', '--print'],
  deno: ['eval'],
  ruby: ['-e'],
  perl: ['-e', '-E'],
  php: ['-r'],
  lua: ['-e'],
  luajit: ['-e'],
  osascript: ['-e'],
  pwsh: ['-c', '-command', '-Command', '-EncodedCommand', '-e', '-ec'],
  powershell: ['-c', '-command', '-Command', '-EncodedCommand'],
  rscript: ['-e'],
  julia: ['-e', '--eval'],
  tclsh: [],
  expect: ['-c'],
};

export const INTERPRETERS: ReadonlySet<string> = new Set([
  ...Object.keys(INLINE_FLAGS),
  'irb', 'wish', 'r', 'groovy', 'scala', 'kotlin', 'jshell', 'elixir', 'erl', 'ghci', 'runghc', 'racket', 'guile', 'sbcl',
  'clisp', 'tsx', 'ts-node', 'busybox',
]);

const AWKS = ['awk', 'gawk', 'mawk', 'nawk'];
const SHELL_BUILTINS = ['source', '.', 'eval', 'exec', 'alias', 'trap'];

function interpreterRules(c: CmdView): Finding[] {
  const e = c.exe;
  const stage = c.part.pipeStage ?? 0;
  const downloaded = stage > 0 && /\b(curl|wget|fetch|nc|ncat|http|xh|aria2c)\b/.test(c.part.pipeline ?? '');
  if (isShell(e)) {
    const script = shellCommandString(c.args);
    const fetches = /(?:\$\(|`|<\()\s*(?:[^\s/`(]*\/)*(?:curl|wget|fetch)\b/.test(c.text);
    if (fetches) return [dangerous('pipes downloaded or generated content into a shell')];
    if (script.kind === 'stdin' && stage > 0) return [dangerous('pipes downloaded or generated content into a shell', 'pipeline')];
    if (script.kind === 'string') return [moderate('runs a shell command string')];
    if (script.kind === 'file') return [moderate('runs a script')];
    if (c.part.redirects.some((r) => /^\s*\d*<</.test(r))) return [moderate('runs a shell script given inline')];
    return [moderate('starts a shell')];
  }
  if (e === 'source' || e === '.') {
    if (/<\(\s*(?:[^\s/`(]*\/)*(?:curl|wget|fetch)\b/.test(c.text)) return [dangerous('pipes downloaded or generated content into a shell')];
    return [moderate('runs a script in the current shell')];
  }
  if (e === 'eval') return [moderate('evaluates text as shell code')];
  if (e === 'exec' && c.r.programWord !== undefined) return [moderate('replaces the shell or changes its open files')];
  if (e === 'alias' && c.args.length > 0) return [moderate('defines an alias')];
  if (e === 'trap' && c.args.length > 0) return [moderate('runs code when the shell gets a signal')];
  if (AWKS.includes(e)) {
    if (awkWritesOrRuns(c.args.join(' ')) || hasFlag(c.args, 'f', ['--file'])) {
      return [moderate('runs an awk program that can write files or start commands')];
    }
    return [];
  }
  const isInterp = isPython(e) || INTERPRETERS.has(e);
  if (!isInterp) return [];
  if (isPython(e)) {
    if (c.args.some((a) => a === '-c' || /^-[a-zA-Z]*c$/.test(a))) return [moderate('runs inline interpreter code')];
    if (c.args[0] === '-m') return [moderate('runs a Python module')];
  } else {
    const flags = INLINE_FLAGS[e] ?? [];
    if (c.args.some((a) => flags.includes(a) || (e === 'perl' && /^-[a-zA-Z]*[eE]/.test(a)) || (e === 'ruby' && /^-[a-zA-Z]*e/.test(a)))) {
      return [moderate('runs inline interpreter code')];
    }
  }
  const scriptArg = operands(c.args)[0];
  if (scriptArg === undefined || scriptArg === '-') {
    if (downloaded) return [dangerous('pipes downloaded content into an interpreter', 'pipeline')];
    if (stage > 0 || c.part.redirects.some((r) => /<</.test(r))) return [moderate('runs code read from its input')];
    return [moderate('starts an interpreter')];
  }
  return [moderate('runs a script')];
}

/** `./build.sh`, `bin/tool`: a program named by path, not a known command. */
function scriptRules(c: CmdView): Finding[] {
  const w = c.r.programWord;
  if (w === undefined || !w.includes('/')) return [];
  if (/^\/(usr\/)?(local\/)?s?bin\/[^/]+$/.test(w) || /^\/opt\/homebrew\/bin\/[^/]+$/.test(w)) return [];
  return [moderate('runs a script or program from a path')];
}

export const SYSTEM_RULES: readonly Family[] = [
  { rule: privilegeRules, programs: [...PRIVILEGE_WRAPPERS, ...IDENTITY_CHANGERS], wrappers: PRIVILEGE_WRAPPERS },
  { rule: systemRules, programs: [...POWER, 'init', 'telinit', 'crontab', 'defaults', 'ip', 'ifconfig', ...SYSTEM_CHANGERS] },
  { rule: processRules, programs: [...KILLERS, 'kill'] },
  { rule: desktopRules, programs: DESKTOP },
  { rule: packageRules, programs: PACKAGERS, matches: isPython },
  { rule: buildRules, programs: BUILDERS, matches: isPython },
  { rule: interpreterRules, programs: [...SHELL_BUILTINS, ...AWKS, ...INTERPRETERS], matches: (e) => isShell(e) || isPython(e) },
  // A program named by its path (`./build.sh`), whatever its name.
  { rule: scriptRules, everyCommand: true },
];

/** `system(…)`, `| getline`, `|&`, or a `print` whose statement goes on to `|` or `>`: one pass per statement. */
function awkWritesOrRuns(program: string): boolean {
  if (/system\s*\(|\|\s*getline|\|&/.test(program)) return true;
  return program.split(/[;}]/).some((statement) => {
    const at = statement.indexOf('print');
    return at >= 0 && /[|>]/.test(statement.slice(at));
  });
}
