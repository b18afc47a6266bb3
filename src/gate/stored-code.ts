// Code a command stores for later instead of running it now: `npm pkg set scripts.x='CMD'`, `git config alias.x
// '!CMD'`, `gh alias set --shell x 'CMD'`, `npm config set script-shell CMD`. What runs later is asked about only by its
// short name (`npm run x`, `git x`), so the stored text is read now, as a part of its own (origin `stored`): the deny
// scan refuses it as it refuses the line itself, the classifier rates it, and its answer key is its exact text
// (ADR 0100). A table of where each tool keeps code, not a reading of each tool.

/**
 * git settings whose value git runs as a command (by the key's last segment): `core.pager`, `diff.x.textconv`,
 * `filter.x.clean`, `credential.helper` … Shared with the deny scan's `git -c KEY=VALUE` (deny.ts).
 */
export const GIT_COMMAND_SETTINGS =
  /^[a-z0-9.-]*\.(fsmonitor|sshcommand|pager|editor|askpass|gitproxy|external|textconv|command|driver|clean|smudge|process|helper|program|cmd|uploadpack|receivepack|packobjectshook|difffilter|sendmailcmd|tocmd|cccmd|headercmd|browser)=/i;

/** Settings of the JS package managers whose value is a program they run (`npm config set script-shell CMD`). */
const JS_PROGRAM_SETTINGS: ReadonlySet<string> = new Set(['script-shell', 'shell', 'editor', 'browser', 'viewer', 'git']);

/** Options of `git config` that take a value which is not a key (`--file F`, `--type bool`, `--default X`). */
const GIT_CONFIG_VALUE_OPTIONS: ReadonlySet<string> = new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value']);
/** `git config` forms that only read or remove: no value is stored. */
const GIT_CONFIG_NO_VALUE = /^(--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|-l|--list|--unset|--unset-all|--remove-section|--rename-section|-e|--edit|get|list|unset|remove-section|rename-section|edit)$/;

/** The code (shell lines) a command stores for later (`exe` after wrappers, `args` its words after the program). */
export function storedCode(exe: string, args: readonly string[]): string[] {
  switch (exe) {
    case 'npm':
    case 'pnpm':
    case 'yarn':
    case 'bun':
      return jsStored(args);
    case 'git':
      return gitStored(args);
    case 'gh':
      return ghStored(args);
    default:
      return [];
  }
}

/** The words that are not options. An option's value stays among them: the verbs are looked for, not counted. */
function operands(args: readonly string[]): string[] {
  return args.filter((a) => !a.startsWith('-'));
}

/** Where `first` (then `second`) stands among the words: the verb is looked for anywhere (over-reading only asks more). */
function verbAt(words: readonly string[], first: string, second?: string): number {
  for (let i = 0; i < words.length; i++) if (words[i] === first && (second === undefined || words[i + 1] === second)) return i + (second === undefined ? 1 : 2);
  return -1;
}

/** `npm pkg set scripts.x=CMD …`, `npm set-script x CMD`, `npm config set script-shell CMD` (and `KEY=VALUE`). */
function jsStored(args: readonly string[]): string[] {
  const words = operands(args);
  const out: string[] = [];
  const pkg = verbAt(words, 'pkg', 'set');
  if (pkg >= 0) {
    for (const w of words.slice(pkg)) {
      const eq = w.indexOf('=');
      if (eq > 0 && /^scripts[.[]/.test(w)) out.push(w.slice(eq + 1));
    }
  }
  const script = verbAt(words, 'set-script');
  if (script >= 0 && words[script + 1] !== undefined) out.push(words[script + 1]!);
  const config = verbAt(words, 'config', 'set');
  const set = config >= 0 ? config : verbAt(words, 'set');
  if (set >= 0) {
    const rest = words.slice(set);
    for (let i = 0; i < rest.length; i++) {
      const w = rest[i]!;
      const eq = w.indexOf('=');
      const key = (eq > 0 ? w.slice(0, eq) : w).toLowerCase();
      const value = eq > 0 ? w.slice(eq + 1) : rest[++i];
      if (value !== undefined && JS_PROGRAM_SETTINGS.has(key)) out.push(value);
    }
  }
  return out;
}

/** `git config [--global] alias.x '!CMD'`, `git config set core.pager CMD`, `git config --add diff.x.textconv CMD`. */
function gitStored(args: readonly string[]): string[] {
  const at = args.indexOf('config');
  if (at < 0) return [];
  const found: string[] = [];
  for (let i = at + 1; i < args.length; i++) {
    const w = args[i]!;
    if (found.length === 0 && GIT_CONFIG_NO_VALUE.test(w)) return [];
    if (w.startsWith('-')) {
      if (GIT_CONFIG_VALUE_OPTIONS.has(w)) i++;
      continue;
    }
    if (found.length === 0 && w === 'set') continue;
    found.push(w);
    if (found.length === 2) break;
  }
  const [key, value] = found;
  if (key === undefined || value === undefined) return [];
  const lower = key.toLowerCase();
  // An alias without `!` is more git words (`git x` runs `git VALUE`); with it, a shell line.
  if (lower.startsWith('alias.')) return [value.startsWith('!') ? value.slice(1) : `git ${value}`];
  // `submodule.x.update = !CMD`: `git submodule update` runs CMD (other values name a mode).
  if (lower.startsWith('submodule.') && lower.endsWith('.update')) return value.startsWith('!') ? [value.slice(1)] : [];
  return GIT_COMMAND_SETTINGS.test(`${lower}=`) ? [value.replace(/^!/, '')] : [];
}

/** `gh alias set [--shell] NAME EXPANSION`: a shell line with `--shell` or a leading `!`, else more gh words. */
function ghStored(args: readonly string[]): string[] {
  const words = operands(args);
  // The name, then the expansion.
  const at = verbAt(words, 'alias', 'set');
  const expansion = at < 0 ? undefined : words[at + 1];
  if (expansion === undefined) return [];
  const shell = args.some((a) => a === '-s' || a === '--shell');
  return [shell || expansion.startsWith('!') ? expansion.replace(/^!/, '') : `gh ${expansion}`];
}

/**
 * The commands a scheduler is given on its input (`crontab - <<EOF`, `at now <<< CMD`), to run later: crontab's lines
 * without their schedule, at's text whole. undefined: the program reads no schedule from its input.
 */
export function scheduledCommands(exe: string, args: readonly string[], input: string): string[] | undefined {
  if (exe === 'crontab') {
    if (args.some((a) => /^-[A-Za-z]*[lre]/.test(a))) return undefined;
    const out: string[] = [];
    for (const raw of input.split('\n')) {
      const line = raw.trim();
      // Blank lines, comments and `NAME=value` settings run nothing.
      if (line === '' || line.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(line)) continue;
      const fields = line.split(/\s+/);
      const command = fields.slice(line.startsWith('@') ? 1 : 5).join(' ');
      if (command !== '') out.push(command);
    }
    return out;
  }
  if (exe === 'at' || exe === 'batch') return args.some((a) => /^-[A-Za-z]*[flcrd]/.test(a)) ? undefined : [input];
  return undefined;
}
