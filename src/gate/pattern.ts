// The key a remembered answer is stored under: `<program> *`, `<program> <verb> *` for multiplexers, or the exact
// text when a broader key would cover commands the person never saw (interpreters, keywords, eval, odd names).
import type { Part } from './types.js';
import { GIT_VALUE_OPTIONS } from './rules-git.js';
import { INTERPRETERS } from './rules-system.js';
import { MULTI_CALL, SHELLS } from '../core/shells.js';
import { isPython } from './rules-common.js';
import { PRIVILEGE_WRAPPERS, isWrapper, resolveCommand } from './wrappers.js';
import { sedScriptReason } from './table/scripts.js';
import { isAssignment } from './words.js';
import { namedCommand } from './launch-verbs.js';

/** Multiplexers and the options of theirs that take a value before the verb. */
const MULTIPLEXERS: Readonly<Record<string, readonly string[]>> = {
  git: GIT_VALUE_OPTIONS,
  npm: ['--prefix', '-w', '--workspace', '--userconfig', '--registry', '--cache', '--loglevel', '-C'],
  pnpm: ['-C', '--dir', '--filter', '-F', '--workspace-dir', '--reporter'],
  yarn: ['--cwd', '--cache-folder', '--modules-folder'],
  npx: ['-p', '--package', '-c', '--call'],
  pnpx: ['-p', '--package'],
  bunx: ['-p', '--package'],
  cargo: ['-C', '--manifest-path', '--config', '-Z', '--color', '--target-dir'],
  rustup: ['--toolchain'],
  docker: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'],
  podman: ['--connection', '--url', '--root', '--runroot'],
  kubectl: ['-n', '--namespace', '--context', '--cluster', '--user', '--kubeconfig', '-s', '--server', '--token'],
  helm: ['-n', '--namespace', '--kube-context', '--kubeconfig'],
  go: ['-C'],
  brew: [],
  apt: ['-o', '-t', '-c'],
  'apt-get': ['-o', '-t', '-c'],
  'apt-cache': ['-o', '-c'],
  dnf: ['-c', '--releasever', '--installroot'],
  yum: ['-c', '--releasever', '--installroot'],
  zypper: [],
  apk: ['-X', '--repository', '-p', '--root'],
  snap: [],
  flatpak: [],
  port: [],
  pip: ['--python', '--cache-dir', '--log'],
  pip3: ['--python', '--cache-dir', '--log'],
  pipx: [],
  uv: ['--directory', '--project', '--python', '-p', '--cache-dir'],
  uvx: ['--from', '--with', '--python', '-p'],
  poetry: ['-C', '--directory', '-P', '--project'],
  conda: ['-n', '--name', '-p', '--prefix'],
  mamba: ['-n', '--name', '-p', '--prefix'],
  gem: [],
  bundle: ['--gemfile'],
  composer: ['-d', '--working-dir'],
  swift: ['--package-path', '--scratch-path', '-C'],
  gh: ['-R', '--repo'],
  glab: ['-R', '--repo'],
  systemctl: ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property', '-n', '--lines', '-o', '--output', '--state', '-s', '--signal'],
  launchctl: [],
  make: ['-C', '-f', '--file', '--makefile', '--directory', '-I', '--include-dir', '-o', '--old-file', '-W', '--what-if', '-j', '-l'],
  terraform: ['-chdir'],
  tofu: ['-chdir'],
  aws: ['--profile', '--region', '--output', '--endpoint-url', '--query'],
  gcloud: ['--project', '--account', '--configuration', '--format'],
  az: ['--subscription', '-o', '--output'],
  dotnet: [],
  mvn: ['-f', '--file', '-P', '--activate-profiles', '-pl', '--projects', '-s', '--settings'],
  gradle: ['-p', '--project-dir', '-b', '--build-file'],
  xcrun: ['--sdk', '--toolchain'],
  security: [],
  openssl: [],
  tmux: ['-L', '-S', '-f', '-c'],
  nix: ['--option', '-f', '--file'],
  deno: [],
  heroku: ['-a', '--app'],
  flyctl: ['-a', '--app'],
  fly: ['-a', '--app'],
  vercel: ['--cwd', '--scope', '--token'],
  netlify: [],
  firebase: ['--project', '-P'],
  wrangler: ['-c', '--config', '-e', '--env'],
  supabase: ['--workdir'],
  defaults: [],
  diskutil: [],
  wisp: [],
};

/** Shell keywords and builtins that run other code: their answers are keyed by exact text. */
const EXACT_PROGRAMS = new Set(['eval', 'exec', 'source', '.', 'xargs', 'do', 'for', 'if', 'then', 'else', 'elif', 'while', 'until', 'case', 'select', 'function', 'time', 'coproc', '{', '}', '!', '[[', '((', 'trap', 'alias', 'builtin', 'command', 'env', 'nohup', 'sudo', 'doas', 'watch']);

/** The exact key: the part's text, prefixed by the keyword that introduced it (`do rm "$f"`). */
export function exactPattern(part: Part): string {
  return part.keyword && part.keyword !== 'function' ? `${part.keyword} ${part.text}` : part.text;
}

/**
 * The exact key with what the text alone leaves out: heredoc bodies (`python3 <<EOF … EOF` is keyed by its code),
 * and, for a program that executes its input in a later pipeline stage (`… | sh`, `… | xargs rm`), the whole
 * pipeline — approving `sh` alone would cover whatever is piped into it next time.
 */
export function exactKey(part: Part, executable: string): string {
  if ((part.pipeStage ?? 0) > 0 && part.pipeline !== undefined) {
    const r = resolveCommand(part.words);
    if (isInterpreter(executable) || r.wrappers.includes('xargs') || executable === 'xargs') return part.pipeline;
  }
  let key = exactPattern(part);
  for (const r of part.redirects) if (/^\s*\d*<<(?:[^<]|$)/.test(r) && r.includes('\n')) key += r.slice(r.indexOf('\n'));
  return key;
}

/** Programs keyed by exact text besides the shells, Python and the interpreters' list (a set of whole names). */
const MORE_INTERPRETERS: ReadonlySet<string> = new Set([
  'awk', 'gawk', 'mawk', 'nawk', 'osascript', 'pwsh', 'powershell', 'expect', 'node', 'deno', 'bun', 'ruby', 'perl', 'php', 'lua',
  // Database clients run the statements in their words (`psql -c "DROP TABLE x"`, `redis-cli FLUSHALL`, `sqlite3 db
  // 'DELETE …'`): an answer for one query must not cover another (ADR 0099).
  'psql', 'mysql', 'mariadb', 'sqlite3', 'sqlcmd', 'redis-cli', 'valkey-cli', 'mongosh', 'mongo', 'clickhouse-client', 'cqlsh', 'duckdb', 'usql',
]);

function isInterpreter(exe: string): boolean {
  return SHELLS.has(exe) || INTERPRETERS.has(exe) || MORE_INTERPRETERS.has(exe) || isPython(exe);
}

/**
 * MULTIPLEXERS' own entries by name: a Map finds the executable (a fresh string) by its hash, where the object's
 * own-property test first looks it up among the engine's interned names (ADR 0074, 0085).
 */
const MULTIPLEXER_ROWS: ReadonlyMap<string, readonly string[]> = new Map(Object.entries(MULTIPLEXERS));

/** The remembered-answer key for a part whose program (after wrappers) is `executable`. */
export function patternFor(part: Part, executable: string): string {
  // The exact key is built only when it is the answer: most parts get `<program> *` (ADR 0074).
  const exact = (): string => exactKey(part, executable);
  if (part.unparsed || part.dynamicName || part.keyword) return exact();
  const r = resolveCommand(part.words);
  if (executable === '' || r.programWord === undefined) return exact();
  // A multi-call program's applet may differ from the tool of that name: its key never covers the plain tool.
  if (r.wrappers.some((w) => w === 'exec' || w === 'xargs' || w === 'watch' || PRIVILEGE_WRAPPERS.has(w) || MULTI_CALL.has(w))) return exact();
  if (r.programWord.includes('/') || isWrapper(executable) || EXACT_PROGRAMS.has(executable)) return exact();
  if (!/^[a-z0-9][a-z0-9_.+-]*$/.test(executable) || isInterpreter(executable)) return exact();
  // A command that embeds another one to run per file: the broader key would cover any embedded command.
  if (executable === 'find' && r.args.some((a) => /^-(exec|execdir|ok|okdir)$/.test(a))) return exact();
  if ((executable === 'fd' || executable === 'fdfind') && r.args.some((a) => /^(-x|-X|--exec|--exec-batch)$/.test(a))) return exact();
  // A builtin that runs text of its arguments as code (`mapfile -C CMD`, `let 'a[$(cmd)]'`): the broader key would
  // cover any such code (ADR 0090).
  if (runsArgumentsAsCode(executable, r.args) || givesCodeOption(executable, r.args)) return exact();
  // `docker exec c CMD`, `kubectl exec p -- CMD`: the verb runs the command that follows, in a container or elsewhere,
  // so an answer for one command must not cover another (ADR 0092).
  if (runsAGivenCommand(executable, r.args)) return exact();
  // A launcher verb given options or a command line before its command (`uv run --with PKG pytest`, `npx -p PKG x`,
  // `npm --prefix DIR exec x`): they change what runs or from where (ADR 0096). Its command is a part of its own.
  const named = namedCommand(executable, r.args);
  if (named !== undefined && (named.optioned || named.lines.length > 0)) return exact();
  // A verb that changes a tool's own settings, which can name programs the tool runs later (`npm config set
  // script-shell`, `go env -w GOFLAGS=-toolexec=…`), or that fetches code into the tool (`yarn plugin import URL`):
  // an answer for one setting must not cover another (ADR 0096).
  if (changesToolSettings(executable, r.args)) return exact();
  // `go run example.com/x@latest` fetches a module from elsewhere and runs it: not the project's code (ADR 0096).
  if (executable === 'go' && r.args.includes('run') && r.args.some(namesRemoteModule)) return exact();
  // A project task runner: an answer is for one task (`npm run test` no longer covers `npm run deploy`, `just test`
  // no longer covers `just deploy`), and a line that may name several is keyed exactly (ADR 0100).
  const task = taskKey(executable, r.args);
  if (task === 'exact') return exact();
  if (task !== undefined) return task;
  // Own entries only: `constructor` is a program name too, and not a multiplexer.
  const valueOptions = MULTIPLEXER_ROWS.get(executable);
  if (valueOptions === undefined) return `${executable} *`;
  const verb = multiplexerVerb(executable, r.args, valueOptions);
  return verb === undefined ? `${executable} *` : `${executable} ${verb} *`;
}

/**
 * bash builtins whose option takes code they run: `mapfile -C CMD` and `readarray -C CMD` (a callback), `compgen -C CMD`,
 * `-F FUNC` and `-W '$(cmd)'` (a word list it expands), `hash -p PROG NAME` (the next `NAME` runs PROG), `enable -f LIB`
 * (loads a shared object). Short options only: none of them has long ones.
 */
const CODE_OPTION_LETTERS: ReadonlyMap<string, string> = new Map([
  ['mapfile', 'C'], ['readarray', 'C'], ['compgen', 'CFW'], ['complete', 'CFW'], ['hash', 'p'], ['enable', 'f'],
]);
/** Builtins taking variable names, whose subscript (`read 'a[$(cmd)]'`) bash evaluates as arithmetic. */
const NAME_TAKERS: ReadonlySet<string> = new Set(['read', 'mapfile', 'readarray', 'declare', 'typeset', 'local', 'export', 'readonly', 'unset', 'wait', 'getopts', 'printf', 'test']);

/** Whether a builtin's arguments hold code it runs (see above), or a name it may evaluate; `let` is all arithmetic. */
function runsArgumentsAsCode(exe: string, args: readonly string[]): boolean {
  if (exe === 'let') return true;
  const letters = CODE_OPTION_LETTERS.get(exe);
  if (letters !== undefined && args.some((a) => a.length > 1 && a.charCodeAt(0) === 0x2d && [...a.slice(1)].some((ch) => letters.includes(ch)))) return true;
  if (!NAME_TAKERS.has(exe) || (exe === 'printf' && !(args[0] ?? '').startsWith('-'))) return false; // printf names only after -v
  // declare -i NAME=x evaluates x as arithmetic.
  return args.some((a) => a.includes('[') || (exe !== 'printf' && exe !== 'test' && /^-[A-Za-z]*i/.test(a)));
}

/**
 * Options whose value is a command, or a file of commands or settings, that the program runs or obeys:
 * `tar --to-command=sh`, `rsync -e CMD`, `zip -TT CMD`, `sort --compress-program=CMD`, `ssh -o ProxyCommand=…`,
 * `git clone --upload-pack=CMD`, `wget -e CMD`, `curl -K FILE`, `vim -c CMD`, `less +!CMD`. A session answer for a
 * plain use of the program would cover them (ADR 0090). A long name matches any abbreviation getopt_long takes (a
 * prefix), a short letter matches anywhere in a cluster (`-avze`), and a `prefixes` entry matches the start of a word.
 */
interface CodeOptions {
  readonly short: string;
  readonly long: readonly string[];
  readonly prefixes: readonly string[];
  /** An operand `NAME=VALUE` sets a variable the program expands into the commands it runs (`make CC='…'`). */
  readonly assignments?: boolean;
  /** Words after `--` go to the project's own program (`npm test -- --config=/tmp/x.js`), whose options wisp cannot know. */
  readonly passesOn?: boolean;
}
const VIM: CodeOptions = { short: 'cSs', long: ['--cmd'], prefixes: ['+'] };
const PAGER: CodeOptions = { short: 'k', long: ['--lesskey-file', '--lesskey-src'], prefixes: ['+'] };
const SSH: CodeOptions = { short: 'oFSD', long: [], prefixes: [] };
const JS_TOOL: CodeOptions = { short: '', long: ['--script-shell', '--node-options', '--registry', '--userconfig', '--globalconfig'], prefixes: [], passesOn: true };
const CONTAINER_BUILD: CodeOptions = { short: 'f', long: ['--file', '--project-directory', '--env-file'], prefixes: [] };
const PYTEST: CodeOptions = { short: 'pc', long: ['--config-file', '--rootdir', '--confcutdir', '--override-ini'], prefixes: [] };
const PIP: CodeOptions = { short: 'if', long: ['--index-url', '--extra-index-url', '--find-links', '--trusted-host', '--config-settings'], prefixes: [] };
const CODE_OPTIONS: ReadonlyMap<string, CodeOptions> = new Map([
  ['tar', { short: 'IF', long: ['--to-command', '--checkpoint-action', '--use-compress-program', '--rsh-command', '--info-script', '--new-volume-script', '--rmt-command'], prefixes: [] }],
  ['rsync', { short: 'e', long: ['--rsh', '--rsync-path'], prefixes: [] }],
  ['zip', { short: '', long: ['--unzip-command'], prefixes: ['-TT'] }],
  ['sort', { short: '', long: ['--compress-program'], prefixes: [] }],
  ['ssh', SSH], ['scp', SSH], ['sftp', SSH],
  ['git', {
    short: '',
    long: ['--upload-pack', '--receive-pack', '--exec', '--template', '--config', '--extcmd', '--sendmail-cmd', '--smtp-server', '--to-cmd', '--cc-cmd', '--header-cmd', '--open-files-in-pager'],
    prefixes: [],
  }],
  ['wget', { short: 'e', long: ['--execute', '--use-askpass'], prefixes: [] }],
  ['curl', { short: 'K', long: ['--config'], prefixes: [] }],
  ['vim', VIM], ['vi', VIM], ['nvim', VIM], ['view', VIM], ['vimdiff', VIM], ['ex', VIM],
  ['less', PAGER], ['more', PAGER],
  // make runs the recipes of a makefile given with -f (`-f /dev/stdin`), of --eval's text, and with a variable set on
  // its command line (`make build CC='…'`): an answer for `make build` must not cover them (ADR 0093).
  ['make', { short: 'fE', long: ['--file', '--makefile', '--eval'], prefixes: [], assignments: true }],
  // Build, test and install tools given a program, a plugin, a config from elsewhere or a package index: an answer
  // for `npm test`, `go test ./...` or `cargo build` must not cover them (ADR 0093).
  ['npm', JS_TOOL], ['pnpm', JS_TOOL], ['yarn', JS_TOOL], ['bun', JS_TOOL],
  ['npx', { short: 'pc', long: ['--package', '--call', '--node-options', '--registry', '--userconfig'], prefixes: [] }],
  ['pnpx', { short: 'pc', long: ['--package'], prefixes: [] }],
  ['bunx', { short: 'p', long: ['--package'], prefixes: [] }],
  ['cargo', { short: 'Z', long: ['--config', '--manifest-path'], prefixes: [] }],
  ['docker', CONTAINER_BUILD], ['podman', CONTAINER_BUILD], ['docker-compose', CONTAINER_BUILD], ['podman-compose', CONTAINER_BUILD],
  ['go', { short: '', long: [], prefixes: ['-exec', '--exec', '-toolexec', '--toolexec', '-overlay', '--overlay', '-modfile', '--modfile'] }],
  ['pytest', PYTEST], ['py.test', PYTEST],
  ['pip', PIP], ['pip3', PIP],
  ['gmake', { short: 'fE', long: ['--file', '--makefile', '--eval'], prefixes: [], assignments: true }],
]);

/**
 * Programs that run a program named among their words, not known to `resolveCommand` as wrappers (the deny scan reads
 * them as launchers): an answer for `strace ls` would cover `strace ./evil`.
 */
const LAUNCHERS: ReadonlySet<string> = new Set([
  'strace', 'ltrace', 'chroot', 'unshare', 'nsenter', 'flock', 'firejail', 'bwrap', 'systemd-run', 'setpriv', 'taskset', 'chrt',
  'prlimit', 'faketime', 'proxychains', 'proxychains4', 'torsocks', 'tsocks', 'valgrind', 'gdb', 'rlwrap', 'fakeroot', 'fakechroot',
  'dbus-run-session', 'xvfb-run', 'ssh-agent', 'numactl', 'cgexec', 'setarch', 'linux32', 'linux64', 'catchsegv', 'eatmydata',
  'parallel', 'entr', 'nodemon', 'watchexec', 'tsp', 'sem', 'script', 'at', 'batch', 'machinectl', 'please', 'ksu', 'su', 'runuser', 'sg',
]);

/**
 * Verbs that run a command given among the words, in a container, a VM, a device or a remote host (ADR 0092):
 * `docker exec c CMD`, `docker compose run web CMD`, `kubectl exec p -- CMD`, `adb shell CMD`. A two-word verb is
 * matched as consecutive words. Any word matching counts, wherever it is: reading more only narrows a key.
 */
const CONTAINER_VERBS = ['exec', 'run', 'create', 'container exec', 'container run', 'container create', 'compose exec', 'compose run'];
const RUNS_A_COMMAND: ReadonlyMap<string, readonly string[]> = new Map([
  ['docker', CONTAINER_VERBS], ['podman', CONTAINER_VERBS], ['nerdctl', CONTAINER_VERBS], ['finch', CONTAINER_VERBS],
  ['docker-compose', ['exec', 'run']], ['podman-compose', ['exec', 'run']],
  ['kubectl', ['exec', 'run', 'debug']], ['oc', ['exec', 'run', 'debug', 'rsh']],
  ['lxc', ['exec']], ['incus', ['exec']], ['multipass', ['exec']], ['adb', ['shell', 'exec-out']],
  ['distrobox', ['enter', 'run']], ['toolbox', ['run']], ['vagrant', ['ssh']], ['heroku', ['run']],
  ['gcloud', ['compute ssh']], ['fly', ['ssh']], ['flyctl', ['ssh']], ['limactl', ['shell']], ['lima', ['']],
]);

function runsAGivenCommand(exe: string, args: readonly string[]): boolean {
  const verbs = RUNS_A_COMMAND.get(exe);
  if (verbs === undefined) return false;
  return verbs.some((v) => {
    if (v === '') return true; // the program runs its words as a command (`lima ls`)
    const [first, second] = v.split(' ');
    return args.some((a, i) => a === first && (second === undefined || args[i + 1] === second));
  });
}

/**
 * Verbs (first words; a second word must follow somewhere after the first) that change a tool's settings or add code
 * to it: settings that name a program the tool runs (npm's `script-shell`, pip's index, `GOFLAGS`, git's aliases are
 * rules-git's), shims and hooks other tools run (`corepack`, `direnv allow`, `mise trust`, `pre-commit install`),
 * plugins and extensions fetched from a URL, and credentials helpers (`aws configure set credential_process`,
 * `kubectl config set-credentials --exec-command`). Reading a setting shares the key: such lines are rare.
 */
const SETTING_VERBS: ReadonlyMap<string, readonly (readonly string[])[]> = new Map(Object.entries({
  npm: [['config'], ['set'], ['pkg'], ['set-script']],
  pnpm: [['config'], ['set'], ['pkg']],
  yarn: [['config'], ['set'], ['plugin'], ['policies']],
  bun: [['pm', 'trust']],
  pip: [['config']], pip3: [['config']],
  go: [['env', '-w'], ['env', '-u']],
  poetry: [['config'], ['self'], ['source']],
  bundle: [['config']], gem: [['sources']], composer: [['config']],
  conda: [['config']], mamba: [['config']],
  rustup: [['override'], ['toolchain', 'link'], ['default'], ['set']],
  corepack: [[]],
  direnv: [['allow'], ['permit'], ['grant']],
  mise: [['trust'], ['use'], ['set'], ['settings'], ['plugins'], ['plugin']],
  asdf: [['plugin'], ['global'], ['local'], ['set']],
  gh: [['alias'], ['extension'], ['ext'], ['config']],
  'pre-commit': [['install'], ['install-hooks'], ['autoupdate']],
  husky: [[]],
  kubectl: [['config']], aws: [['configure']], gcloud: [['config']],
  helm: [['plugin']], dotnet: [['tool'], ['nuget']],
  // Not settings: runs what it fetches (`nix run github:someone/x`).
  nix: [['run']],
} satisfies Record<string, readonly (readonly string[])[]>));

/**
 * Project task runners (ADR 0100), keyed by the task they run, never by the runner alone. `one`: one task's name
 * follows the verb and the words after it go to that task (`npm run test -- -x`, `composer run lint`): the key is
 * `PROG VERB TASK *`. `many`: each operand may be one more task (`make test deploy`, `just deploy prod`): a line naming
 * one task is keyed `PROG [VERB] TASK *`, a line naming more keeps its exact text. `program`: the words go to the
 * project's own program, whose options wisp cannot know (`cargo run -- ARGS`, `go run . ARGS`): only the bare verb is
 * keyed broadly. `''`: the program's operands are the tasks (`just test`).
 */
interface TaskRow {
  readonly verbs: readonly string[];
  readonly kind: 'one' | 'many' | 'program';
}
const one = (...verbs: string[]): TaskRow => ({ verbs, kind: 'one' });
const many = (...verbs: string[]): TaskRow => ({ verbs, kind: 'many' });
const program = (...verbs: string[]): TaskRow => ({ verbs, kind: 'program' });
const TASK_RUNNERS: ReadonlyMap<string, TaskRow> = new Map([
  ['npm', one('run', 'run-script', 'rum', 'urn')], ['pnpm', one('run', 'run-script')], ['yarn', one('run')], ['bun', one('run')],
  ['composer', one('run', 'run-script', 'run-scripts')], ['nx', one('run')], ['lerna', one('run')], ['deno', one('task')], ['poe', one('')],
  ['mise', many('run', 'r')], ['rtx', many('run', 'r')], ['turbo', many('run')],
  ['make', many('')], ['gmake', many('')], ['just', many('')], ['task', many('')], ['go-task', many('')], ['rake', many('')],
  ['invoke', many('')], ['inv', many('')], ['gradle', many('')], ['mvn', many('')], ['ant', many('')], ['ninja', many('')],
  ['grunt', many('')], ['gulp', many('')], ['fab', many('')], ['doit', many('')], ['scons', many('')],
  ['cargo', program('run')], ['go', program('run')], ['dotnet', program('run')], ['swift', program('run')], ['cabal', program('run')],
  ['stack', program('run')], ['zig', program('run')], ['mix', program('run')], ['flutter', program('run')], ['bazel', program('run')],
  ['bazelisk', program('run')],
]);

/**
 * Options a task runner may be given and still run the task it names, as it names it: jobs, output, dry runs. Any
 * other (`just -f FILE`, `make -C DIR`, `rake -f FILE`, `task -t FILE`) may name another task file or folder: the
 * exact text.
 */
const PLAIN_TASK_OPTION = /^(-j\d*|--jobs(=\d+)?|-k|--keep-going|-s|--silent|-q|--quiet|-v|--verbose|-n|--dry-run|--if-present|--no-print-directory)$/;

/** A task runner's key: `PROG [VERB] TASK *`, `'exact'`, or undefined for other programs and verbs. */
function taskKey(exe: string, args: readonly string[]): string | 'exact' | undefined {
  const row = TASK_RUNNERS.get(exe);
  if (row === undefined) return undefined;
  const verbal = !row.verbs.includes('');
  const first = verbal ? args.findIndex((w) => !w.startsWith('-')) : 0;
  const verb = verbal ? args[first] : '';
  if (verb === undefined || !row.verbs.includes(verb)) return undefined;
  // Options before the verb (`npm --prefix DIR run x`, `npm -w pkg run x`) may name another project: the exact text.
  if (first > 0) return 'exact';
  const head = verbal ? `${exe} ${verb}` : exe;
  const rest = args.slice(verbal ? 1 : 0);
  if (row.kind === 'program') return rest.length === 0 ? `${head} *` : 'exact';
  const at = rest.findIndex((w) => !w.startsWith('-'));
  // What is read: the options before the task (`one`: the words after it are the task's), or every word (`many`).
  const read = row.kind === 'one' ? rest.slice(0, at < 0 ? rest.length : at) : rest;
  if (read.some((w) => w.startsWith('-') && !PLAIN_TASK_OPTION.test(w))) return 'exact';
  if (at < 0) return `${head} *`;
  if (row.kind === 'many' && read.filter((w) => !w.startsWith('-')).length > 1) return 'exact';
  const name = plainVerb(rest[at]);
  return name === undefined ? 'exact' : `${head} ${name} *`;
}

/** A Go package path from elsewhere: a version (`x@latest`), or a host (a dot) in its first element (`example.com/x`). */
function namesRemoteModule(word: string): boolean {
  if (word.startsWith('-') || word.startsWith('.') || word.startsWith('/')) return false;
  const slash = word.indexOf('/');
  return word.includes('@') || (slash > 0 && word.slice(0, slash).includes('.'));
}

function changesToolSettings(exe: string, args: readonly string[]): boolean {
  const rows = SETTING_VERBS.get(exe);
  if (rows === undefined) return false;
  const valueOptions = MULTIPLEXER_ROWS.get(exe) ?? [];
  let at = 0;
  for (; at < args.length; at++) {
    const a = args[at]!;
    if (!a.startsWith('-')) break;
    if (!a.includes('=') && valueOptions.includes(a)) at++;
  }
  return rows.some(([first, second]) => {
    if (first === undefined) return true; // every use of the program
    if (args[at] !== first) return false;
    return second === undefined || args.slice(at + 1).some((a) => a === second || a.startsWith(`${second}=`));
  });
}

function givesCodeOption(exe: string, args: readonly string[]): boolean {
  if (LAUNCHERS.has(exe)) return true;
  if (exe === 'sed') return sedRunsMore(args);
  const o = CODE_OPTIONS.get(exe);
  if (o === undefined) return false;
  if (o.assignments === true && args.some((a) => !a.startsWith('-') && isAssignment(a))) return true;
  if (o.passesOn === true && args.includes('--')) return true;
  let short = o.short;
  if (exe === 'git') {
    // `git submodule foreach CMD` and `git bisect run CMD` run CMD; `git rebase -x CMD` after each commit, `git clone
    // -u CMD` as the upload pack, and `git clone -c key=value` sets core.sshCommand and the like.
    if ((args.includes('submodule') && args.includes('foreach')) || (args.includes('bisect') && args.includes('run'))) return true;
    if (args.includes('rebase')) short = 'x';
    else if (args.includes('grep')) short = 'O'; // `git grep -O CMD` opens the files found with CMD
    else if (args.includes('clone')) short = 'uc';
  }
  return args.some((a, i) => {
    if (o.prefixes.some((p) => a.startsWith(p))) return true;
    if (a.startsWith('--')) {
      const name = a.split('=')[0]!;
      return name.length > 2 && o.long.some((l) => l.startsWith(name));
    }
    // tar's first word may be a cluster without a dash (`tar xIf prog a.tgz`).
    const cluster = a.startsWith('-') ? a.slice(1) : exe === 'tar' && i === 0 ? a : '';
    return [...cluster].some((ch) => short.includes(ch));
  });
}

/**
 * Whether sed is given a script that does more than print, substitute and delete (`e`, `w`, `s///e` …: what the
 * read-only row refuses), or a script file, or a script wisp cannot find. `sed -i 's/a/b/' f` keeps its broad key.
 */
function sedRunsMore(args: readonly string[]): boolean {
  const scripts: string[] = [];
  let given = false;
  let first: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      first ??= args[i + 1];
      break;
    }
    if (a.startsWith('--')) {
      const name = a.split('=')[0]!;
      if (name.length > 2 && '--file'.startsWith(name)) return true;
      if (name.length > 2 && '--expression'.startsWith(name)) {
        given = true;
        scripts.push(a.includes('=') ? a.slice(a.indexOf('=') + 1) : (args[++i] ?? ''));
      }
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const ch = a[j]!;
        if (ch === 'f') return true;
        if (ch === 'e') {
          given = true;
          scripts.push(j + 1 < a.length ? a.slice(j + 1) : (args[++i] ?? ''));
          break;
        }
        if (ch === 'i' || ch === 'l') break; // -i's suffix, -l's number: attached
      }
      continue;
    }
    first ??= a;
  }
  if (!given) {
    if (first === undefined) return true;
    scripts.push(first);
  }
  return scripts.some((s) => sedScriptReason(s) !== undefined);
}

function multiplexerVerb(exe: string, args: readonly string[], valueOptions: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return plainVerb(args[i + 1]);
    if (a.startsWith('+') && exe !== 'make') continue; // cargo +nightly
    if (a.startsWith('-')) {
      if (!a.includes('=') && valueOptions.includes(a)) {
        // make -j/-l take an optional number only.
        if ((a === '-j' || a === '-l') && exe === 'make' && !/^\d+$/.test(args[i + 1] ?? '')) continue;
        i++;
      }
      continue;
    }
    if (exe === 'make' && a.includes('=')) continue; // make VAR=value target
    return plainVerb(a);
  }
  return undefined;
}

function plainVerb(word: string | undefined): string | undefined {
  return word !== undefined && /^[A-Za-z0-9@][\w.:@/-]*$/.test(word) && word.length <= 64 ? word : undefined;
}
