// Verbs that run a command named by the words after them, in the project's environment or from a fetched package:
// `uv run pytest`, `bundle exec rspec`, `npm exec eslint`, `npx eslint .`. The parser lists that command as a part of
// its own (as it does `find -exec`'s), so the policy and the classifier read it and its answer key is its own: an
// answer for `uv run pytest` no longer covers `uv run rm -rf ~` (ADR 0096). A table, not a reading of each tool.

interface LaunchRow {
  /** The verbs (one or two words) that run a named command; `''`: the program runs its operands itself (`npx`). */
  readonly verbs: readonly string[];
  /** Options, before the verb or the command, that take the next word as their value. */
  readonly values: readonly string[];
  /** Options whose value is a shell command line (`npm exec -c 'CMD'`). */
  readonly lines?: readonly string[];
  /** The command comes only after `--` (`mise exec node@20 -- node x`): without one, none is named. */
  readonly afterDashDash?: boolean;
  /** The command comes only after one of these options (`nix shell PKG -c CMD`): without one, none is named. */
  readonly afterOption?: readonly string[];
  /** No command is named among the words, only command lines in options (`nix-shell --run 'CMD'`). */
  readonly linesOnly?: boolean;
  /** The command follows one operand (`direnv exec DIR CMD`). */
  readonly afterOperand?: boolean;
}

const JS: LaunchRow = { verbs: ['exec', 'x', 'dlx'], values: ['-p', '--package', '-w', '--workspace', '--prefix', '-C', '--dir', '--filter', '-F', '--cwd'], lines: ['-c', '--call'] };
const PY_ENV: LaunchRow = { verbs: ['run'], values: ['-C', '--directory', '-P', '--project', '-e', '--env', '-p', '--python'] };
const CONDA: LaunchRow = { verbs: ['run'], values: ['-n', '--name', '-p', '--prefix', '--cwd'] };
const VERSION_EXEC: LaunchRow = { verbs: ['exec'], values: [] };
const MISE: LaunchRow = { verbs: ['exec', 'x'], values: ['-C', '--cd', '-j', '--jobs'], afterDashDash: true };

const ROWS: ReadonlyMap<string, LaunchRow> = new Map([
  ['npm', JS], ['pnpm', JS], ['yarn', JS], ['bun', JS],
  ['npx', { verbs: [''], values: ['-p', '--package', '-w', '--workspace'], lines: ['-c', '--call'] }],
  ['pnpx', { verbs: [''], values: ['-p', '--package'] }],
  ['bunx', { verbs: [''], values: ['-p', '--package'] }],
  ['uvx', { verbs: [''], values: ['--from', '--with', '--with-editable', '--with-requirements', '--python', '-p', '--index', '--index-url', '--extra-index-url', '--default-index', '-f', '--find-links'] }],
  ['uv', {
    verbs: ['run', 'tool run'],
    values: ['--directory', '--project', '--python', '-p', '--with', '--with-editable', '--with-requirements', '--package', '--extra', '--group', '--env-file', '--from', '--index', '--index-url', '--extra-index-url', '--default-index', '-f', '--find-links', '--cache-dir'],
  }],
  ['pipx', { verbs: ['run'], values: ['--spec', '--python', '--pip-args', '--index-url', '-i'] }],
  ['poetry', PY_ENV], ['pdm', PY_ENV], ['hatch', PY_ENV], ['rye', PY_ENV], ['pipenv', PY_ENV], ['pixi', PY_ENV],
  ['conda', CONDA], ['mamba', CONDA], ['micromamba', CONDA],
  ['bundle', { verbs: ['exec'], values: ['--gemfile'] }],
  ['rbenv', VERSION_EXEC], ['pyenv', VERSION_EXEC], ['nodenv', VERSION_EXEC], ['goenv', VERSION_EXEC], ['asdf', VERSION_EXEC],
  ['fnm', VERSION_EXEC], ['opam', VERSION_EXEC], ['stack', VERSION_EXEC], ['cabal', VERSION_EXEC],
  ['volta', { verbs: ['run'], values: ['--node', '--npm', '--yarn', '--pnpm'] }],
  ['mise', MISE], ['rtx', MISE],
  ['nix', { verbs: ['shell', 'develop'], values: [], afterOption: ['-c', '--command'] }],
  ['nix-shell', { verbs: [''], values: [], lines: ['--run', '--command'], linesOnly: true }],
  ['devbox', { verbs: ['run'], values: ['-c', '--config', '-e', '--env', '--env-file'] }],
  ['direnv', { verbs: ['exec'], values: [], afterOperand: true }],
]);

/** Where a launcher's named command starts among its arguments, and what else it was given. */
export interface NamedCommand {
  /** The index in the arguments of the command's first word (the arguments' length when none follows). */
  readonly at: number;
  /** Options or operands stood between the verb and the command: where it starts is read, not sure. */
  readonly optioned: boolean;
  /** Command lines given in options (`-c 'CMD'`). */
  readonly lines: readonly string[];
}

/** The command a launcher verb runs (`uv run pytest -x` → at the word `pytest`), or undefined for other commands. */
export function namedCommand(exe: string, args: readonly string[]): NamedCommand | undefined {
  const row = ROWS.get(exe);
  if (row === undefined) return undefined;
  const lines: string[] = [];
  if (row.linesOnly) {
    skipAll(row, args, lines);
    return { at: args.length, optioned: true, lines };
  }
  let i = skipOptions(row, args, 0, lines);
  // Words that are neither the verb nor a bare `--`: options or operands that change what runs or where.
  let extra = i - (i > 0 && args[i - 1] === '--' ? 1 : 0);
  if (!row.verbs.includes('')) {
    const first = args[i];
    const two = `${first ?? ''} ${args[i + 1] ?? ''}`;
    if (row.verbs.includes(two)) i += 2;
    else if (first !== undefined && row.verbs.includes(first)) i += 1;
    else return undefined;
    if (row.afterOption !== undefined) {
      const opt = args.findIndex((a, k) => k >= i && row.afterOption!.includes(a));
      return { at: opt < 0 ? args.length : opt + 1, optioned: true, lines };
    }
    if (row.afterDashDash) {
      const dash = args.indexOf('--', i);
      return { at: dash < 0 ? args.length : dash + 1, optioned: extra > 0 || dash !== i, lines };
    }
    const start = i;
    i = skipOptions(row, args, i, lines);
    extra += i - start - (i > start && args[i - 1] === '--' ? 1 : 0);
    if (row.afterOperand === true && i < args.length) {
      i = skipOptions(row, args, i + 1, lines);
      extra++;
    }
  }
  return { at: i, optioned: extra > 0, lines };
}

/** Every command line given in options, wherever they stand among the words. */
function skipAll(row: LaunchRow, args: readonly string[], lines: string[]): void {
  for (let i = 0; i < args.length; i = skipOptions(row, args, i, lines) + 1);
}

/** The index of the first word after the options from `i` (after a `--`, which ends them). */
function skipOptions(row: LaunchRow, args: readonly string[], from: number, lines: string[]): number {
  let i = from;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return i + 1;
    if (a.length < 2 || a.charCodeAt(0) !== 0x2d) return i;
    if (a.includes('=')) {
      if (row.lines?.includes(a.slice(0, a.indexOf('='))) === true) lines.push(a.slice(a.indexOf('=') + 1));
      continue;
    }
    if (row.lines?.includes(a) === true) {
      if (i + 1 < args.length) lines.push(args[i + 1]!);
      i++;
    } else if (row.values.includes(a)) i++;
  }
  return i;
}
