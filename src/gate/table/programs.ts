// The table of known read-only programs: one row per program, listing every option it may be given and still only
// read (docs/decisions/0014-safe-by-construction.md). Adding a program is adding a row. Options that write files,
// reach a host, run another program, or read the environment are simply absent; `--no-…` forms only where listed.
import { ipReadOnly } from '../rules-system.js';
import { checkValue } from './options.js';
import { awkCheck, awkVarValue, findCheck, findStarts, jqCheck, psCheck, sedCheck, tarArchives, tarCheck } from './scripts.js';
import type { ParsedArgs, ProgramSpec, ValueCheck, ValueKind } from './spec.js';

/** A row (or a piece of rows) made on first use and kept: every call returns the same object (ADR 0086). */
function once<T extends object>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const HELP_VERSION = { '--help': null, '--version': null } as const;
const COLOR_WHEN = ['always', 'never', 'auto', 'yes', 'no', 'force', 'tty', 'if-tty', 'none'] as const;

/** Rows that only print a version (`node --version`, `java -version`): exactly one of these words, nothing else. */
function versionOnly(...options: string[]): ProgramSpec {
  return {
    noOptions: true,
    check: (p) => (p.operands.length === 1 && options.includes(p.operands[0]!) ? undefined : 'only the version may be asked for'),
  };
}

const lsRow = once((): ProgramSpec => ({
  namesOnly: true,
  globSafe: true,
  flags: 'aAbBcCdfFgGhHiklLmnNopqQrRsStuUvxXZ1',
  values: { I: 'text', w: 'num', T: 'num' },
  long: {
    ...HELP_VERSION, '--all': null, '--almost-all': null, '--author': null, '--escape': null, '--block-size': 'text',
    '--ignore-backups': null, '--directory': null, '--dired': null, '--file-type': null, '--format': 'text', '--full-time': null,
    '--group-directories-first': null, '--no-group': null, '--human-readable': null, '--si': null,
    '--dereference-command-line': null, '--dereference-command-line-symlink-to-dir': null, '--hide': 'text',
    '--indicator-style': 'text', '--inode': null, '--ignore': 'text', '--kibibytes': null, '--dereference': null,
    '--numeric-uid-gid': null, '--literal': null, '--hide-control-chars': null, '--show-control-chars': null,
    '--quote-name': null, '--quoting-style': 'text', '--reverse': null, '--recursive': null, '--size': null, '--sort': 'text',
    '--time': 'text', '--time-style': 'text', '--tabsize': 'num', '--width': 'num', '--context': null, '--zero': null,
  },
  optionalLong: { '--color': COLOR_WHEN, '--colour': COLOR_WHEN, '--classify': COLOR_WHEN, '--hyperlink': COLOR_WHEN },
  abbreviations: true,
}));

const catRow = once((): ProgramSpec => ({
  globSafe: true,
  flags: 'AbeEnstTuv',
  long: {
    ...HELP_VERSION, '--show-all': null, '--number-nonblank': null, '--show-ends': null, '--number': null,
    '--squeeze-blank': null, '--show-tabs': null, '--show-nonprinting': null,
  },
  abbreviations: true,
}));

const headTail = (extraFlags: string, extraLong: Record<string, 'num' | 'text' | null>): ProgramSpec => ({
  globSafe: true,
  flags: 'qvz' + extraFlags,
  values: { n: 'num', c: 'num' },
  long: { ...HELP_VERSION, '--bytes': 'num', '--lines': 'num', '--quiet': null, '--silent': null, '--verbose': null, '--zero-terminated': null, ...extraLong },
  numericOption: true,
  abbreviations: true,
});

const wcRow = once((): ProgramSpec => ({
  namesOnly: true,
  globSafe: true,
  flags: 'clmwL',
  long: { ...HELP_VERSION, '--bytes': null, '--chars': null, '--lines': null, '--words': null, '--max-line-length': null, '--total': 'text' },
  abbreviations: true,
}));

const grepRow = once((): ProgramSpec => ({
  globSafe: true,
  flags: 'EFGPiyvwxcLloqsbHhnTZzUraIRV',
  values: { e: 'text', f: 'path', m: 'num', A: 'num', B: 'num', C: 'num', d: ['read', 'skip', 'recurse'], D: ['read', 'skip'] },
  long: {
    ...HELP_VERSION, '--extended-regexp': null, '--fixed-strings': null, '--basic-regexp': null, '--perl-regexp': null,
    '--regexp': 'text', '--file': 'path', '--ignore-case': null, '--no-ignore-case': null, '--word-regexp': null,
    '--line-regexp': null, '--null-data': null, '--no-messages': null, '--invert-match': null, '--max-count': 'num',
    '--byte-offset': null, '--line-number': null, '--line-buffered': null, '--with-filename': null, '--no-filename': null,
    '--label': 'text', '--only-matching': null, '--quiet': null, '--silent': null, '--binary-files': 'text', '--text': null,
    '--devices': ['read', 'skip'], '--directories': ['read', 'skip', 'recurse'], '--exclude': 'text', '--exclude-from': 'path',
    '--exclude-dir': 'text', '--include': 'text', '--recursive': null, '--dereference-recursive': null,
    '--files-without-match': null, '--files-with-matches': null, '--count': null, '--initial-tab': null, '--null': null,
    '--before-context': 'num', '--after-context': 'num', '--context': 'num', '--binary': null, '--no-line-number': null,
  },
  optionalLong: { '--color': COLOR_WHEN, '--colour': COLOR_WHEN },
  numericOption: true,
  abbreviations: true,
  // `-d recurse` is `-r` spelled as a value (ADR 0093).
  recursive: ['-r', '-R', '--recursive', '--dereference-recursive', '-d=recurse', '--directories=recurse'],
  files: { skipFirstUnless: ['-e', '-f', '--regexp', '--file'] },
}));

/** ripgrep: no --pre/--pre-glob (run a program per file), --search-zip, --hostname-bin; clap takes no abbreviations. */
const rgRow = once((): ProgramSpec => ({
  flags: 'abcFHhiIlLnNopqsSuUvwx0.',
  values: { A: 'num', B: 'num', C: 'num', e: 'text', f: 'path', g: 'text', t: 'text', T: 'text', m: 'num', j: 'num', M: 'num', E: 'text', r: 'text', d: 'num' },
  long: {
    ...HELP_VERSION, '--after-context': 'num', '--before-context': 'num', '--context': 'num', '--binary': null, '--block-buffered': null,
    '--byte-offset': null, '--case-sensitive': null, '--colors': 'text', '--column': null, '--context-separator': 'text', '--count': null,
    '--count-matches': null, '--crlf': null, '--encoding': 'text', '--engine': ['default', 'pcre2', 'auto'], '--files': null,
    '--files-with-matches': null, '--files-without-match': null, '--fixed-strings': null, '--follow': null, '--glob': 'text',
    '--glob-case-insensitive': null, '--heading': null, '--hidden': null, '--iglob': 'text', '--ignore-case': null,
    '--ignore-file': 'path', '--include-zero': null, '--invert-match': null, '--json': null, '--line-buffered': null,
    '--line-number': null, '--line-regexp': null, '--max-columns': 'num', '--max-columns-preview': null, '--max-count': 'num',
    '--max-depth': 'num', '--max-filesize': 'text', '--multiline': null, '--multiline-dotall': null, '--no-config': null,
    '--no-filename': null, '--no-heading': null, '--no-ignore': null, '--no-ignore-dot': null, '--no-ignore-exclude': null,
    '--no-ignore-files': null, '--no-ignore-global': null, '--no-ignore-messages': null, '--no-ignore-parent': null,
    '--no-ignore-vcs': null, '--no-line-number': null, '--no-messages': null, '--no-unicode': null, '--null': null,
    '--null-data': null, '--one-file-system': null, '--only-matching': null, '--passthru': null, '--path-separator': 'text',
    '--pcre2': null, '--quiet': null, '--regexp': 'text', '--replace': 'text', '--smart-case': null, '--sort': 'text',
    '--sortr': 'text', '--stats': null, '--text': null, '--threads': 'num', '--trim': null, '--type': 'text', '--type-not': 'text',
    '--type-list': null, '--unrestricted': null, '--vimgrep': null, '--with-filename': null, '--word-regexp': null,
    '--color': COLOR_WHEN, '--no-require-git': null,
  },
  recursive: true,
  files: { skipFirstUnless: ['-e', '-f', '--regexp', '--file', '--files', '--type-list'] },
}));

const sedRow = once((): ProgramSpec => ({
  flags: 'nErsuz',
  values: { e: 'text', l: 'num' },
  long: {
    ...HELP_VERSION, '--quiet': null, '--silent': null, '--expression': 'text', '--regexp-extended': null, '--separate': null,
    '--unbuffered': null, '--null-data': null, '--zero-terminated': null, '--posix': null, '--debug': null, '--sandbox': null,
    '--line-length': 'num',
  },
  check: sedCheck,
  files: { skipFirstUnless: ['-e', '--expression'] },
}));

const awkRow = once((): ProgramSpec => ({
  flags: 'bcPS',
  values: { F: 'text', v: awkVarValue, e: 'text' },
  long: {
    '--field-separator': 'text', '--assign': awkVarValue, '--source': 'text', '--characters-as-bytes': null, '--traditional': null,
    '--posix': null, '--sandbox': null, '--re-interval': null, '--version': null,
  },
  check: awkCheck,
  files: { skipFirstUnless: ['-e', '--source'] },
}));

const sortRow = once((): ProgramSpec => ({
  flags: 'bdfgiMhnRrVcCsuz',
  values: { k: 'text', t: 'text', S: 'text' },
  long: {
    ...HELP_VERSION, '--ignore-leading-blanks': null, '--dictionary-order': null, '--ignore-case': null,
    '--general-numeric-sort': null, '--ignore-nonprinting': null, '--month-sort': null, '--human-numeric-sort': null,
    '--numeric-sort': null, '--random-sort': null, '--reverse': null, '--version-sort': null, '--key': 'text',
    '--field-separator': 'text', '--unique': null, '--stable': null, '--zero-terminated': null, '--parallel': 'num',
    '--buffer-size': 'text', '--debug': null, '--sort': ['general-numeric', 'human-numeric', 'month', 'numeric', 'random', 'version'],
  },
  optionalLong: { '--check': ['diagnose-first', 'quiet', 'silent'] },
}));

const findRow = once((): ProgramSpec => ({ noOptions: true, check: findCheck, files: findStarts, namesOnly: true }));

const jqRow = once((): ProgramSpec => ({
  flags: 'cnesrajSCMR',
  values: { L: () => 'loads jq modules from a directory' },
  long: {
    ...HELP_VERSION, '--compact-output': null, '--null-input': null, '--exit-status': null, '--slurp': null, '--raw-output': null,
    '--ascii-output': null, '--join-output': null, '--sort-keys': null, '--color-output': null, '--monochrome-output': null,
    '--raw-input': null, '--tab': null, '--indent': 'num', '--arg': 'pair', '--argjson': 'pair', '--seq': null, '--stream': null,
    '--raw-output0': null,
  },
  check: jqCheck,
  files: { skipFirstUnless: [] },
}));

const yqRow = once((): ProgramSpec => ({
  flags: 'rPCMeN',
  values: { o: ['yaml', 'y', 'json', 'j', 'props', 'p', 'xml', 'x', 'tsv', 't', 'csv', 'c', 'toml', 'auto', 'a'], I: 'num', p: 'text' },
  long: { ...HELP_VERSION, '--output-format': 'text', '--input-format': 'text', '--prettyPrint': null, '--no-colors': null, '--colors': null, '--exit-status': null, '--indent': 'num', '--unwrapScalar': null },
  check: jqCheck,
  // yq takes a lone operand for a file when one of that name exists: only a second operand makes the first a filter.
  files: (p) => p.operands.map((word, i) => ({ word, shape: p.operandShapes?.[i] ?? 'dynamic' })).slice(p.operands.length > 1 ? 1 : 0),
}));

const duRow = once((): ProgramSpec => ({
  namesOnly: true,
  globSafe: true,
  flags: 'aAbcDhHklLmPsSx0',
  values: { d: 'num', B: 'text', t: 'text' },
  long: {
    ...HELP_VERSION, '--max-depth': 'num', '--human-readable': null, '--summarize': null, '--all': null, '--apparent-size': null,
    '--total': null, '--exclude': 'text', '--si': null, '--block-size': 'text', '--threshold': 'text', '--count-links': null,
    '--one-file-system': null, '--dereference': null, '--null': null, '--inodes': null, '--bytes': null, '--separate-dirs': null,
  },
  optionalLong: { '--time': ['atime', 'access', 'use', 'ctime', 'status'] },
  abbreviations: true,
}));

const dfRow = once((): ProgramSpec => ({
  globSafe: true,
  flags: 'ahHiklPTx',
  values: { B: 'text', t: 'text', x: 'text' },
  long: {
    ...HELP_VERSION, '--human-readable': null, '--inodes': null, '--print-type': null, '--type': 'text', '--exclude-type': 'text',
    '--total': null, '--local': null, '--all': null, '--si': null, '--block-size': 'text', '--portability': null, '--sync': null, '--no-sync': null,
  },
  optionalLong: { '--output': 'text' },
  abbreviations: true,
  // df asks the file system of each operand for its size; it opens no file.
  files: 'none',
}));

const statRow = once((): ProgramSpec => ({
  namesOnly: true,
  globSafe: true,
  flags: 'LfZt',
  values: { c: 'text' },
  long: { ...HELP_VERSION, '--format': 'text', '--printf': 'text', '--dereference': null, '--file-system': null, '--terse': null, '--cached': 'text' },
  abbreviations: true,
}));

const fileRow = once((): ProgramSpec => ({
  namesOnly: true,
  flags: 'bchiLsz0kNnpEl',
  values: { F: 'text', e: 'text', P: 'text' },
  long: {
    ...HELP_VERSION, '--mime-type': null, '--mime-encoding': null, '--mime': null, '--brief': null, '--dereference': null,
    '--no-dereference': null, '--keep-going': null, '--raw': null, '--print0': null, '--separator': 'text', '--uncompress': null,
    '--special-files': null, '--extension': null, '--apple': null, '--no-pad': null, '--exclude': 'text',
  },
}));

const diffRow = once((): ProgramSpec => ({
  flags: 'iEZbwBaNuprqsyltTcdP',
  values: { U: 'num', C: 'num', x: 'text', X: 'path', I: 'text', W: 'num', F: 'text', S: 'text' },
  long: {
    ...HELP_VERSION, '--brief': null, '--report-identical-files': null, '--recursive': null, '--new-file': null,
    '--unidirectional-new-file': null, '--text': null, '--ignore-case': null, '--ignore-all-space': null,
    '--ignore-space-change': null, '--ignore-blank-lines': null, '--ignore-tab-expansion': null,
    '--ignore-trailing-space': null, '--strip-trailing-cr': null, '--exclude': 'text', '--exclude-from': 'path',
    '--side-by-side': null, '--width': 'num', '--normal': null, '--label': 'text', '--suppress-common-lines': null,
    '--minimal': null, '--speed-large-files': null, '--expand-tabs': null, '--initial-tab': null, '--show-c-function': null,
    '--show-function-line': 'text', '--ignore-matching-lines': 'text', '--starting-file': 'text', '--no-dereference': null,
    '--from-file': 'path', '--to-file': 'path', '--ignore-file-name-case': null, '--no-ignore-file-name-case': null,
    '--left-column': null, '--tabsize': 'num', '--suppress-blank-empty': null, '--palette': 'text',
  },
  optionalLong: { '--unified': 'num', '--context': 'num', '--color': COLOR_WHEN },
  // Given two folders, diff compares the files of the same name in both even without -r.
  recursive: true,
}));

const checksumRow = once((): ProgramSpec => ({
  namesOnly: true,
  globSafe: true,
  flags: 'bctwz',
  values: { a: 'num' },
  long: {
    ...HELP_VERSION, '--binary': null, '--check': null, '--tag': null, '--text': null, '--zero': null, '--ignore-missing': null,
    '--quiet': null, '--status': null, '--strict': null, '--warn': null, '--algorithm': 'num',
  },
}));

const simple = (flags: string, values: ProgramSpec['values'] = {}, long: ProgramSpec['long'] = {}, extra: Partial<ProgramSpec> = {}): ProgramSpec => ({
  flags,
  values,
  long: { ...HELP_VERSION, ...long },
  ...extra,
});

const dateRow = once((): ProgramSpec => ({
  flags: 'uRI',
  values: { d: 'text', r: 'path' },
  long: { ...HELP_VERSION, '--utc': null, '--universal': null, '--date': 'text', '--rfc-3339': ['date', 'seconds', 'ns'], '--rfc-email': null, '--reference': 'path', '--debug': null },
  optionalLong: { '--iso-8601': ['date', 'hours', 'minutes', 'seconds', 'ns'] },
  // An operand other than +FORMAT sets the clock.
  check: (p) => (p.operands.every((o) => o.startsWith('+')) ? undefined : 'date with an operand sets the clock'),
}));

function testReason(words: readonly string[]): string | undefined {
  return words.some((o) => o === '-v' || o === '-R' || /[[$`]/.test(o)) ? 'test -v evaluates a variable name' : undefined;
}

// ---------------------------------------------------------------- git

const gitDiffOpts = once((): Record<string, 'num' | 'text' | 'path' | null> => ({
  '--stat': null, '--shortstat': null, '--numstat': null, '--dirstat': null, '--summary': null, '--name-only': null,
  '--name-status': null, '--patch': null, '--no-patch': null, '--raw': null, '--patch-with-stat': null, '--compact-summary': null,
  '--unified': 'num', '--minimal': null, '--patience': null, '--histogram': null, '--ignore-all-space': null,
  '--ignore-space-change': null, '--ignore-space-at-eol': null, '--ignore-blank-lines': null, '--ignore-cr-at-eol': null,
  '--word-diff-regex': 'text', '--color-words': null, '--no-color': null, '--no-renames': null, '--find-renames': null,
  '--diff-filter': 'text', '--check': null, '--full-index': null, '--binary': null, '--abbrev': null, '--relative': null,
  '--text': null, '--exit-code': null, '--quiet': null, '--no-ext-diff': null, '--no-textconv': null, '--ignore-submodules': null,
  '--src-prefix': 'text', '--dst-prefix': 'text', '--no-prefix': null, '--function-context': null, '--stat-width': 'num',
  '--merge-base': null, '--cached': null, '--staged': null, '--no-index': null, '--anchored': 'text', '--output-indicator-new': 'text',
  '--output-indicator-old': 'text', '--output-indicator-context': 'text', '--pickaxe-all': null, '--pickaxe-regex': null,
  '--ignore-matching-lines': 'text', '--inter-hunk-context': 'num', '--indent-heuristic': null, '--no-indent-heuristic': null,
}));
const gitDiffOptional = once((): Record<string, 'text'> => ({ '--color': 'text', '--word-diff': 'text', '--submodule': 'text', '--color-moved': 'text', '--abbrev': 'text', '--stat': 'text', '--dirstat': 'text', '--relative': 'text', '--ignore-submodules': 'text', '--find-renames': 'text', '--find-copies': 'text' }));

/** A log format with %G (signature status, signer, key) makes git run gpg, or the gpg.program a repository names. */
const gitFormat: ValueCheck = (v) => (/%G/.test(v) ? 'a %G format runs gpg to check signatures' : undefined);

const gitLogOpts = once((): Record<string, ValueKind | null> => ({
  '--oneline': null, '--graph': null, '--all': null, '--branches': null, '--tags': null, '--remotes': null, '--decorate': null,
  '--no-decorate': null, '--format': gitFormat, '--pretty': gitFormat, '--since': 'text', '--after': 'text', '--until': 'text',
  '--before': 'text', '--author': 'text', '--committer': 'text', '--grep': 'text', '--all-match': null, '--invert-grep': null,
  '--regexp-ignore-case': null, '--max-count': 'num', '--skip': 'num', '--no-merges': null, '--merges': null, '--first-parent': null,
  '--reverse': null, '--follow': null, '--abbrev-commit': null, '--no-abbrev-commit': null, '--date': 'text', '--relative-date': null,
  '--topo-order': null, '--date-order': null, '--author-date-order': null, '--left-right': null, '--cherry-pick': null,
  '--cherry-mark': null, '--boundary': null, '--simplify-by-decoration': null, '--full-history': null, '--ancestry-path': null,
  '--no-walk': null, '--parents': null, '--children': null, '--walk-reflogs': null, '--encoding': 'text', '--log-size': null,
  '--use-mailmap': null, '--mailmap': null, '--no-mailmap': null, '--source': null, '--count': null, '--min-parents': 'num',
  '--max-parents': 'num', '--no-min-parents': null, '--no-max-parents': null, '--not': null, '--basic-regexp': null,
  '--extended-regexp': null, '--fixed-strings': null, '--perl-regexp': null, '--expand-tabs': null, '--no-expand-tabs': null,
  '--no-notes': null, '--full-diff': null, '--dense': null, '--sparse': null, '--show-linear-break': null,
}));

const gitLogRow = once((): ProgramSpec => {
  const GIT_DIFF_OPTS = gitDiffOpts(), GIT_LOG_OPTS = gitLogOpts(), GIT_DIFF_OPTIONAL = gitDiffOptional();
  return {
    flags: 'pusiEFPMCBRwbzaW',
    values: { n: 'num', U: 'num', S: 'text', G: 'text', L: 'text' },
    long: { ...GIT_DIFF_OPTS, ...GIT_LOG_OPTS },
    optionalLong: { ...GIT_DIFF_OPTIONAL, '--decorate': 'text' },
    numericOption: true,
    repositoryPrograms: true,
  };
});
const gitDiffRow = once((): ProgramSpec => {
  const GIT_DIFF_OPTS = gitDiffOpts(), GIT_DIFF_OPTIONAL = gitDiffOptional();
  return {
    flags: 'pusRwbzaWMCBDt',
    values: { U: 'num', S: 'text', G: 'text', O: () => 'reads an order file' },
    long: { ...GIT_DIFF_OPTS },
    optionalLong: GIT_DIFF_OPTIONAL,
    numericOption: false,
    // Outside a repository's index, git diff compares two files or two folders of the disk, folders recursively.
    recursive: ['--no-index'],
    repositoryPrograms: true,
  };
});
// `git diff -O` takes a file; not needed, so refused above (a value check that always fails).

const gitRow = once((): ProgramSpec => {
  const gitLog = gitLogRow(), gitDiff = gitDiffRow(), GIT_DIFF_OPTS = gitDiffOpts();
  return {
    flags: '',
    values: { C: 'inside' },
    long: { '--version': null, '--no-pager': null, '--no-optional-locks': null, '--literal-pathspecs': null, '--no-replace-objects': null },
    bareAllowed: true,
    subcommands: {
      status: {
        flags: 'sbvuz',
        long: {
          '--short': null, '--branch': null, '--long': null, '--verbose': null, '--show-stash': null, '--ahead-behind': null,
          '--no-ahead-behind': null, '--renames': null, '--no-renames': null, '--null': null,
        },
        optionalLong: { '--porcelain': ['v1', 'v2'], '--untracked-files': ['no', 'normal', 'all'], '--ignored': ['traditional', 'no', 'matching'], '--ignore-submodules': ['none', 'untracked', 'dirty', 'all'], '--column': 'text', '--find-renames': 'text' },
        repositoryPrograms: true,
      },
      log: gitLog,
      show: gitLog,
      diff: gitDiff,
      'diff-tree': { ...gitDiff, flags: 'pusRwbzaWMCBDtrc', long: { ...GIT_DIFF_OPTS, '--root': null, '--no-commit-id': null, '--stdin': null } },
      blame: {
        flags: 'bcflnpstwMCe',
        values: { L: 'text' },
        long: { '--porcelain': null, '--line-porcelain': null, '--incremental': null, '--root': null, '--show-stats': null, '--show-name': null, '--show-number': null, '--show-email': null, '--date': 'text', '--abbrev': 'num', '--reverse': null, '--first-parent': null, '--since': 'text' },
        optionalLong: { '--color-lines': 'text', '--color-by-age': 'text' },
        repositoryPrograms: true,
      },
      'rev-parse': {
        flags: 'q',
        long: {
          '--abbrev-ref': null, '--show-toplevel': null, '--show-prefix': null, '--show-cdup': null, '--git-dir': null, '--absolute-git-dir': null,
          '--is-inside-work-tree': null, '--is-inside-git-dir': null, '--is-bare-repository': null, '--is-shallow-repository': null,
          '--verify': null, '--quiet': null, '--symbolic': null, '--symbolic-full-name': null, '--all': null, '--branches': null,
          '--tags': null, '--remotes': null, '--git-common-dir': null, '--show-superproject-working-tree': null, '--default': 'text',
          '--short': null, '--sq': null, '--not': null,
        },
        optionalLong: { '--short': 'num', '--abbrev-ref': ['strict', 'loose'] },
      },
      'ls-files': {
        flags: 'cdmokisutvfzX'.replace('X', ''),
        values: { x: 'text' },
        long: { '--cached': null, '--deleted': null, '--modified': null, '--others': null, '--ignored': null, '--stage': null, '--unmerged': null, '--killed': null, '--exclude-standard': null, '--exclude': 'text', '--full-name': null, '--error-unmatch': null, '--directory': null, '--no-empty-directory': null, '--eol': null, '--deduplicate': null, '--recurse-submodules': null, '--format': 'text' },
        optionalLong: { '--abbrev': 'num' },
      },
      'ls-tree': { flags: 'drtlz', long: { '--name-only': null, '--name-status': null, '--full-name': null, '--full-tree': null, '--long': null, '--object-only': null, '--format': 'text' }, optionalLong: { '--abbrev': 'num' } },
      'cat-file': { flags: 'ptse', long: { '--textconv': null }, repositoryPrograms: true },
      describe: { flags: '', long: { '--tags': null, '--all': null, '--always': null, '--long': null, '--contains': null, '--exact-match': null, '--first-parent': null, '--candidates': 'num', '--match': 'text', '--exclude': 'text' }, optionalLong: { '--abbrev': 'num', '--dirty': 'text' }, repositoryPrograms: true },
      shortlog: { flags: 'nsec', long: { '--numbered': null, '--summary': null, '--email': null, '--committer': null, '--all': null, '--since': 'text', '--until': 'text', '--no-merges': null }, numericOption: true },
      grep: {
        flags: 'aiIvwlLcnhHoqzEGFPe',
        values: { A: 'num', B: 'num', C: 'num', e: 'text', m: 'num', f: 'path' },
        long: { '--cached': null, '--untracked': null, '--no-index': null, '--ignore-case': null, '--word-regexp': null, '--invert-match': null, '--line-number': null, '--count': null, '--files-with-matches': null, '--name-only': null, '--files-without-match': null, '--full-name': null, '--extended-regexp': null, '--basic-regexp': null, '--fixed-strings': null, '--perl-regexp': null, '--heading': null, '--break': null, '--show-function': null, '--function-context': null, '--only-matching': null, '--quiet': null, '--all-match': null, '--and': null, '--or': null, '--not': null, '--max-depth': 'num', '--recurse-submodules': null, '--column': null, '--no-color': null, '--threads': 'num', '--max-count': 'num' },
        optionalLong: { '--color': 'text' },
        numericOption: true,
        // It searches every file below its paths; with --no-index, any folder of the disk.
        recursive: true,
        files: { skipFirstUnless: ['-e', '-f'] },
        repositoryPrograms: true,
      },
      branch: {
        // Listing only: a name operand without --list creates a branch, so the check below requires listing mode.
        flags: 'arvl',
        long: { '--all': null, '--remotes': null, '--verbose': null, '--list': null, '--show-current': null, '--contains': 'text', '--no-contains': 'text', '--merged': 'text', '--no-merged': 'text', '--points-at': 'text', '--sort': 'text', '--format': 'text', '--ignore-case': null, '--omit-empty': null },
        optionalLong: { '--color': 'text', '--column': 'text', '--abbrev': 'num' },
        check: (p) => (p.operands.length === 0 || p.options.some((o) => o.name === '-l' || o.name === '--list') ? undefined : 'git branch with a name creates a branch'),
      },
      tag: {
        flags: 'ln',
        long: { '--list': null, '--contains': 'text', '--no-contains': 'text', '--merged': 'text', '--no-merged': 'text', '--points-at': 'text', '--sort': 'text', '--format': 'text', '--ignore-case': null },
        optionalLong: { '--column': 'text', '--color': 'text' },
        numericOption: true,
        check: (p) => (p.operands.length === 0 || p.options.some((o) => o.name === '-l' || o.name === '--list') ? undefined : 'git tag with a name creates a tag'),
      },
      remote: { flags: 'v', long: { '--verbose': null }, operands: { max: 0 } },
      stash: { subcommands: { list: { flags: '', long: { '--oneline': null, '--format': 'text', '--max-count': 'num' }, numericOption: true }, show: { flags: 'pu', long: { '--stat': null, '--patch': null, '--name-only': null, '--include-untracked': null }, repositoryPrograms: true } } },
      reflog: { flags: '', long: { '--date': 'text', '--format': 'text', '--oneline': null, '--relative-date': null }, numericOption: true, values: { n: 'num' }, check: (p) => (p.operands.every((o) => o !== 'expire' && o !== 'delete' && o !== 'drop') ? undefined : 'git reflog expire/delete destroys history') },
      worktree: { subcommands: { list: { flags: 'v', long: { '--porcelain': null, '--verbose': null } } } },
      'show-ref': { flags: 'dsq', long: { '--head': null, '--tags': null, '--heads': null, '--branches': null, '--dereference': null, '--hash': null, '--verify': null, '--quiet': null, '--exists': null } },
      'for-each-ref': { flags: '', long: { '--format': 'text', '--sort': 'text', '--count': 'num', '--points-at': 'text', '--merged': 'text', '--no-merged': 'text', '--contains': 'text', '--no-contains': 'text', '--ignore-case': null } },
      'merge-base': { flags: 'a', long: { '--all': null, '--octopus': null, '--is-ancestor': null, '--independent': null, '--fork-point': null } },
      'name-rev': { flags: '', long: { '--tags': null, '--all': null, '--name-only': null, '--no-undefined': null, '--always': null, '--refs': 'text', '--exclude': 'text' } },
      'rev-list': { ...gitLog },
      'count-objects': { flags: 'vH', long: { '--verbose': null, '--human-readable': null } },
      'check-ignore': { flags: 'qvn', long: { '--quiet': null, '--verbose': null, '--non-matching': null, '--no-index': null } },
      version: { flags: '', long: { '--build-options': null } },
      // Lists what would be removed; -f, -i and --no-dry-run are absent, so nothing is deleted.
      clean: {
        flags: 'ndxXq',
        values: { e: 'text' },
        long: { '--dry-run': null, '--quiet': null, '--exclude': 'text' },
        check: (p) => (p.options.some((o) => o.name === '-n' || o.name === '--dry-run') ? undefined : 'git clean without --dry-run deletes files'),
      },
      config: {
        flags: 'lz',
        long: { '--get': null, '--get-all': null, '--get-regexp': null, '--list': null, '--show-origin': null, '--show-scope': null, '--local': null, '--global': null, '--system': null, '--name-only': null, '--null': null, '--type': 'text', '--bool': null, '--int': null, '--path': null, '--default': 'text' },
        check: gitConfigCheck,
        // Its operands are a setting's name and a value pattern, not files.
        files: 'none',
      },
    },
  };
});

/**
 * Settings whose values hold no secret, readable from every config file (the user's ~/.gitconfig and the system's
 * included): `git config --get user.name`. Any other name, and any listing (`-l`, `--get-regexp`), is read unasked
 * only from the repository's own config (`--local`), which the project holds anyway: the user's config can hold
 * tokens (`http.<url>.extraheader`, `url.<token-url>.insteadOf`, `github.token`).
 */
const GIT_CONFIG_PLAIN: Readonly<Record<string, readonly string[] | 'any'>> = {
  user: ['name', 'email'], init: ['defaultbranch'], core: 'any', pull: 'any', push: 'any', merge: 'any',
};
const GIT_CONFIG_PLAIN_SUB: Readonly<Record<string, readonly string[]>> = { branch: ['remote', 'merge', 'rebase'], remote: ['url', 'pushurl', 'fetch'] };

/** Whether `name` (`section.key` or `section.sub.key`) is one of GIT_CONFIG_PLAIN's settings. */
function plainGitSetting(name: string): boolean {
  const parts = name.split('.');
  const section = (parts[0] ?? '').toLowerCase();
  const key = (parts[parts.length - 1] ?? '').toLowerCase();
  if (parts.length === 2 && Object.prototype.hasOwnProperty.call(GIT_CONFIG_PLAIN, section)) {
    const keys = GIT_CONFIG_PLAIN[section]!;
    return keys === 'any' ? /^[a-z]+$/.test(key) : keys.includes(key);
  }
  return parts.length >= 3 && Object.prototype.hasOwnProperty.call(GIT_CONFIG_PLAIN_SUB, section) && GIT_CONFIG_PLAIN_SUB[section]!.includes(key);
}

function gitConfigCheck(p: ParsedArgs): string | undefined {
  const has = (...names: string[]) => p.options.some((o) => names.includes(o.name));
  const lists = has('--list', '-l', '--get-regexp');
  if (!lists && !has('--get', '--get-all')) return 'git config without --get or --list changes settings';
  if (p.operands.length > 2) return 'git config with more than a name and a pattern';
  if (has('--local') && !has('--global', '--system')) return undefined;
  if (lists) return "git config lists the user's and the system's settings too, which can hold tokens";
  return plainGitSetting(p.operands[0] ?? '') ? undefined : "git config reads a setting from the user's config, which can hold tokens";
}

/** fd: no -x/-X/--exec/--exec-batch (run a command per file). */
const fdRow = once((): ProgramSpec => ({
  namesOnly: true,
  flags: 'HIuisgFalLp01q',
  values: { d: 'num', t: 'text', e: 'text', E: 'text', S: 'text', c: COLOR_WHEN, j: 'num' },
  long: {
    ...HELP_VERSION, '--hidden': null, '--no-ignore': null, '--no-ignore-vcs': null, '--unrestricted': null, '--case-sensitive': null,
    '--ignore-case': null, '--glob': null, '--fixed-strings': null, '--absolute-path': null, '--list-details': null, '--follow': null,
    '--full-path': null, '--print0': null, '--quiet': null, '--max-depth': 'num', '--min-depth': 'num', '--exact-depth': 'num',
    '--type': 'text', '--extension': 'text', '--exclude': 'text', '--size': 'text', '--changed-within': 'text',
    '--changed-before': 'text', '--color': COLOR_WHEN, '--max-results': 'num', '--threads': 'num', '--strip-cwd-prefix': null,
  },
  // The first operand is the pattern; the folders to search follow it.
  files: { skipFirstUnless: [] },
}));

/** pip: listing what is installed; no --python (runs another interpreter), no --outdated (the network). */
const pipRow = once((): ProgramSpec => ({ long: { '--version': null }, flags: 'V', bareAllowed: true, subcommands: { list: simple('lue', {}, { '--local': null, '--user': null, '--editable': null, '--format': ['columns', 'freeze', 'json'], '--not-required': null, '--exclude-editable': null, '--include-editable': null }), show: simple('f', {}, { '--files': null }), freeze: simple('l', {}, { '--local': null, '--user': null, '--all': null, '--exclude-editable': null }) } }));

const headRow = once(() => headTail('', {}));
const tailRow = once(() => headTail('fF', { '--follow': null, '--retry': null, '--sleep-interval': 'num', '--pid': 'num', '--max-unchanged-stats': 'num' }));

// ---------------------------------------------------------------- the table

/**
 * Every row in one shape (ADR 0083): the rows are written as literals with whichever fields they need, about fifty
 * shapes in all, so each field read of the option parser saw many shapes and took the engine's slow generic path.
 * The same fields, in the same order, with `undefined` for an absent one, read the same everywhere (a row never
 * asks whether a field is present, only what it holds). Sub-command rows too. A row written once and used under
 * several names (`ls`, `dir`, `vdir`) stays one object.
 */
const uniformRows = new WeakMap<ProgramSpec, ProgramSpec>();
export function uniformRow<S extends ProgramSpec>(spec: S): S {
  const known = uniformRows.get(spec);
  if (known !== undefined) return known as S;
  // Every field of ProgramSpec is listed (the type makes a missing one a compile error).
  const row: { [K in keyof Required<ProgramSpec>]: ProgramSpec[K] } & { leading: number | undefined } = {
    flags: spec.flags,
    values: spec.values,
    long: spec.long,
    optionalLong: spec.optionalLong,
    abbreviations: spec.abbreviations,
    numericOption: spec.numericOption,
    permute: spec.permute,
    noOptions: spec.noOptions,
    operands: spec.operands,
    globSafe: spec.globSafe,
    subcommands: spec.subcommands === undefined ? undefined : uniformRecord(spec.subcommands),
    bareAllowed: spec.bareAllowed,
    check: spec.check,
    recursive: spec.recursive,
    files: spec.files,
    namesOnly: spec.namesOnly,
    seesProcesses: spec.seesProcesses,
    repositoryPrograms: spec.repositoryPrograms,
    leading: (spec as { leading?: number }).leading,
  };
  uniformRows.set(spec, row);
  return row as S;
}

/** A record of rows with each row in the one shape; the same own names. */
function uniformRecord<S extends ProgramSpec>(rows: Readonly<Record<string, S>>): Record<string, S> {
  const out: Record<string, S> = {};
  for (const [name, spec] of Object.entries(rows)) Object.defineProperty(out, name, { value: uniformRow(spec), enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * The rows wanted most, looked up first. Each is made on its first lookup (ADR 0086): made at module load (ADR 0055),
 * the thirteen of them (git's alone a few hundred properties) cost every `wisp check` about 3 ms of its start, and
 * `check -- ls` needs one. Each is the full table's row of that name, the same object (a test checks: both come from
 * the same maker, made once, through uniformRow), so looking here first changes no answer.
 */
const COMMON_MAKERS: ReadonlyMap<string, () => ProgramSpec> = new Map([
  ['ls', lsRow], ['cat', catRow], ['head', headRow], ['tail', tailRow], ['wc', wcRow], ['grep', grepRow], ['rg', rgRow], ['sed', sedRow], ['awk', awkRow], ['sort', sortRow], ['find', findRow], ['jq', jqRow], ['git', gitRow],
]);
const commonRows = new Map<string, ProgramSpec>();

let table: Readonly<Record<string, ProgramSpec>> | undefined;

/**
 * The rows by name, as Maps: a name the model wrote is a fresh string, which a Map finds by its hash, while an
 * object's keyed lookup first looks it up among the engine's interned names (ADR 0074). Own entries only, as before.
 */
let allRows: ReadonlyMap<string, ProgramSpec> | undefined;

/**
 * Every row. Built on first use, not at module load: its few thousand object literals cost 8–20 ms of a `wisp check`
 * start on a loaded machine (docs/performance.md, issue #16), and `check -- ls` needs only its own row.
 */
export function allPrograms(): Readonly<Record<string, ProgramSpec>> {
  return (table ??= uniformRecord(buildTable()));
}

/** The row for `name`, or undefined when it has none (own properties only: no `constructor`, no `__proto__`). */
export function programRow(name: string): ProgramSpec | undefined {
  // Once the full table is built, one lookup in it: the common rows are its rows.
  if (allRows !== undefined) return allRows.get(name);
  let common = commonRows.get(name);
  if (common !== undefined) return common;
  const make = COMMON_MAKERS.get(name);
  if (make !== undefined) {
    common = uniformRow(make());
    commonRows.set(name, common);
    return common;
  }
  allRows = new Map(Object.entries(allPrograms()));
  return allRows.get(name);
}

const buildTable = (): Record<string, ProgramSpec> => {
  // The named rows, each made once (ADR 0086): a row under several names (`ls`, `dir`, `vdir`) is one object.
  const ls = lsRow(), cat = catRow(), head = headRow(), tail = tailRow(), wc = wcRow(), grep = grepRow(), rg = rgRow(), sed = sedRow(), awk = awkRow(), sort = sortRow(), find = findRow(), jq = jqRow(), yq = yqRow(), diff = diffRow(), stat = statRow(), du = duRow(), df = dfRow(), file = fileRow(), checksum = checksumRow(), FD = fdRow(), date = dateRow(), git = gitRow(), PIP = pipRow();
  return {
    // Files and text.
    ls, dir: ls, vdir: ls, cat, tac: simple('bBrs', { s: 'text' }), nl: simple('p', { b: 'text', h: 'text', f: 'text', i: 'num', v: 'num', w: 'num', s: 'text', n: 'text', d: 'text' }),
    head,
    tail,
    wc, grep, egrep: grep, fgrep: grep, rg, sed, awk, gawk: awk, mawk: awk, nawk: awk, sort, find, jq, yq,
    uniq: simple('cdDiuz', { f: 'num', s: 'num', w: 'num' }, { '--count': null, '--repeated': null, '--all-repeated': 'text', '--ignore-case': null, '--unique': null, '--skip-fields': 'num', '--skip-chars': 'num', '--check-chars': 'num', '--zero-terminated': null }, { operands: { max: 1 } }),
    cut: simple('nsz', { b: 'text', c: 'text', f: 'text', d: 'text' }, { '--bytes': 'text', '--characters': 'text', '--fields': 'text', '--delimiter': 'text', '--complement': null, '--only-delimited': null, '--output-delimiter': 'text', '--zero-terminated': null }),
    tr: simple('cCdst', {}, { '--complement': null, '--delete': null, '--squeeze-repeats': null, '--truncate-set1': null }),
    paste: simple('sz', { d: 'text' }, { '--serial': null, '--delimiters': 'text', '--zero-terminated': null }),
    column: simple('tnxeJLR', { s: 'text', c: 'num', o: 'text', N: 'text', W: 'text', H: 'text', O: 'text', E: 'text', d: 'text' }, { '--table': null, '--separator': 'text', '--output-separator': 'text', '--columns': 'num', '--fillrows': null, '--json': null, '--table-columns': 'text' }),
    fold: simple('bs', { w: 'num' }, { '--bytes': null, '--spaces': null, '--width': 'num' }),
    fmt: simple('cstu', { w: 'num', p: 'text', g: 'num' }, { '--width': 'num', '--split-only': null, '--uniform-spacing': null, '--crown-margin': null, '--tagged-paragraph': null }, { numericOption: true }),
    rev: simple(''),
    expand: simple('i', { t: 'text' }, { '--initial': null, '--tabs': 'text' }),
    unexpand: simple('a', { t: 'text' }, { '--all': null, '--first-only': null, '--tabs': 'text' }),
    comm: simple('123z', {}, { '--check-order': null, '--nocheck-order': null, '--output-delimiter': 'text', '--total': null, '--zero-terminated': null }),
    join: simple('iz', { '1': 'text', '2': 'text', j: 'text', t: 'text', e: 'text', o: 'text', a: 'text', v: 'text' }, { '--ignore-case': null, '--check-order': null, '--nocheck-order': null, '--header': null }),
    diff, cmp: simple('bls', { i: 'text', n: 'num' }, { '--print-bytes': null, '--verbose': null, '--silent': null, '--quiet': null, '--ignore-initial': 'text', '--bytes': 'num' }),
    od: simple('bcdfiloxsv', { A: 'text', t: 'text', j: 'text', N: 'text', w: 'text' }, { '--address-radix': 'text', '--format': 'text', '--skip-bytes': 'text', '--read-bytes': 'text', '--output-duplicates': null, '--endian': 'text' }),
    xxd: simple('abeEiprCu', { c: 'num', g: 'num', l: 'num', s: 'text', o: 'text', n: 'text' }, {}, { operands: { max: 1 } }),
    hexdump: simple('bcCdovx', { n: 'num', s: 'text', e: 'text' }),
    strings: simple('afw', { n: 'num', t: ['d', 'o', 'x'], e: 'text' }, { '--all': null, '--bytes': 'num', '--radix': 'text', '--encoding': 'text' }),
    stat, du, df, file,
    realpath: simple('eLmPqsz', {}, { '--canonicalize-existing': null, '--canonicalize-missing': null, '--logical': null, '--physical': null, '--quiet': null, '--relative-to': 'path', '--relative-base': 'path', '--strip': null, '--no-symlinks': null, '--zero': null }, { namesOnly: true }),
    readlink: simple('efmnqsvz', {}, { '--canonicalize': null, '--canonicalize-existing': null, '--canonicalize-missing': null, '--no-newline': null, '--quiet': null, '--silent': null, '--verbose': null, '--zero': null }, { namesOnly: true }),
    // Both only cut a string.
    basename: simple('az', { s: 'text' }, { '--multiple': null, '--suffix': 'text', '--zero': null }, { files: 'none' }),
    dirname: simple('z', {}, { '--zero': null }, { files: 'none' }),
    tree: simple('adlfixApugshDFvtrcCnNQ', { L: 'num', P: 'text', I: 'text' }, { '--dirsfirst': null, '--noreport': null, '--gitignore': null, '--prune': null, '--charset': 'text', '--filelimit': 'num', '--du': null, '--si': null }, { namesOnly: true }),
    sha1sum: checksum, sha224sum: checksum, sha256sum: checksum, sha384sum: checksum, sha512sum: checksum, md5sum: checksum, b2sum: checksum, cksum: checksum, shasum: checksum, sum: simple('rs'),
    base64: simple('di', { w: 'num' }, { '--decode': null, '--ignore-garbage': null, '--wrap': 'num' }),
    zcat: simple('fqv'), gzcat: simple('fqv'), bzcat: simple('qv'), xzcat: simple('qv'),
    tar: { noOptions: true, check: tarCheck, files: tarArchives },
    // Printing, and the shell's harmless builtins.
    // These only print or end: a file name taken for one of their options changes nothing.
    echo: { noOptions: true, globSafe: true, files: 'none' },
    // printf -v NAME assigns a variable (and evaluates a subscript in NAME): the format must come first.
    printf: { noOptions: true, operands: { min: 1 }, files: 'none', check: (p) => (p.operands[0]!.startsWith('-') ? 'printf with an option (-v assigns a variable)' : undefined) }, true: { noOptions: true, globSafe: true, files: 'none' }, false: { noOptions: true, globSafe: true, files: 'none' }, ':': { noOptions: true, globSafe: true, files: 'none' },
    // test -v NAME and -R evaluate a subscript in NAME as arithmetic, which runs any $(…) inside it.
    // test and [ compare words and ask whether a file exists; they open none.
    test: { noOptions: true, files: 'none', check: (p) => testReason(p.operands) },
    '[': { noOptions: true, files: 'none', check: (p) => (p.operands[p.operands.length - 1] === ']' ? testReason(p.operands.slice(0, -1)) : '[ without ]') }, sleep: simple('', {}, {}, { operands: { min: 1, max: 4 } }), seq: simple('w', { s: 'text', f: 'text' }, { '--separator': 'text', '--format': 'text', '--equal-width': null }),
    pwd: simple('LP'), exit: { noOptions: true, globSafe: true, operands: { max: 1 }, files: 'none' },
    type: simple('afptP', {}, {}), which: simple('as', {}, { '--all': null, '--skip-alias': null, '--skip-functions': null }),
    whereis: simple('bmsul'), whatis: simple(''), apropos: simple('ae'), tput: simple('', {}, {}, { operands: { min: 1, max: 3 }, check: (p) => (['cols', 'lines', 'colors', 'longname', 'clear', 'sgr0', 'bold'].includes(p.operands[0] ?? '') ? undefined : `tput ${p.operands[0] ?? ''}`) }),
    clear: simple('x'),
    dmesg: simple('dHkLPrtTuwxe', { l: 'text', f: 'text', s: 'num' }, { '--ctime': null, '--human': null, '--kernel': null, '--userspace': null, '--decode': null, '--level': 'text', '--facility': 'text', '--follow': null, '--nopager': null, '--notime': null, '--reltime': null, '--raw': null, '--show-delta': null, '--time-format': 'text', '--since': 'text', '--until': 'text', '--json': null }),
    fd: FD, fdfind: FD,
    man: simple('kf', {}, {}, { check: (p) => (p.operands.every((o) => /^[A-Za-z0-9_.:+-]+$/.test(o)) ? undefined : 'man with a path renders a file') }),
    // The machine and its processes (reading only).
    date, cal: simple('13jymSMw'), uptime: simple('ps', {}, { '--pretty': null, '--since': null }), uname: simple('asnrvmpio', {}, { '--all': null, '--kernel-name': null, '--nodename': null, '--kernel-release': null, '--kernel-version': null, '--machine': null, '--processor': null, '--hardware-platform': null, '--operating-system': null }),
    arch: simple(''), nproc: simple('', {}, { '--all': null, '--ignore': 'num' }), lscpu: simple('aebcJpxy', {}, { '--json': null, '--extended': null }), free: simple('bkmghltwv', { s: 'num', c: 'num' }, { '--human': null, '--si': null, '--total': null, '--wide': null, '--kilo': null, '--mega': null, '--giga': null, '--bytes': null, '--lohi': null }),
    whoami: simple(''), id: simple('ugGnrz'), groups: simple(''), logname: simple(''), users: simple(''), who: simple('abdHlmpqrstTuw'), w: simple('hisuf'), tty: simple('s'), locale: simple('amkv'),
    hostname: simple('sfdiIAa', {}, { '--short': null, '--fqdn': null, '--long': null, '--domain': null, '--ip-address': null, '--all-ip-addresses': null, '--all-fqdns': null, '--alias': null }, { operands: { max: 0 } }),
    ps: { noOptions: true, check: psCheck, files: 'none', seesProcesses: true },
    pgrep: simple('flaivxcnoLw', { u: 'text', U: 'text', g: 'text', G: 'text', P: 'text', s: 'text', t: 'text', d: 'text' }, { '--list-name': null, '--list-full': null, '--full': null, '--count': null, '--newest': null, '--oldest': null, '--exact': null, '--inverse': null, '--ignore-case': null, '--euid': 'text', '--uid': 'text', '--parent': 'text' }, { files: 'none', seesProcesses: true }),
    ss: simple('halnrHtuwxpseoim46Z0', { f: 'text', A: 'text' }, { '--all': null, '--listening': null, '--numeric': null, '--processes': null, '--tcp': null, '--udp': null, '--unix': null, '--extended': null, '--info': null, '--summary': null, '--no-header': null }),
    netstat: simple('antulprsiegcvWwxo46'),
    lsblk: simple('adfJlnOpSstmbz', { o: 'text' }, { '--all': null, '--fs': null, '--json': null, '--list': null, '--output': 'text', '--paths': null, '--bytes': null, '--tree': null }),
    // Tools: read-only sub-commands and versions. Tools that may run project code even for `--version` (a project's
    // rust-toolchain.toml, yarnPath, .pnpmfile.cjs) are not here.
    git,
    npm: {
      flags: 'v',
      long: { '--version': null },
      bareAllowed: true,
      subcommands: Object.fromEntries(
        ['ls', 'list', 'll', 'la', 'explain', 'why'].map((k) => [k, simple('apl', {}, { '--all': null, '--depth': 'num', '--json': null, '--long': null, '--parseable': null, '--prod': null, '--production': null, '--dev': null, '--omit': ['dev', 'optional', 'peer'], '--include': ['prod', 'dev', 'optional', 'peer'], '--link': null, '--global': null, '--unicode': null, '--package-lock-only': null })]),
      ),
    },
    node: versionOnly('--version', '-v'), nodejs: versionOnly('--version', '-v'), python3: versionOnly('--version', '-V'), python: versionOnly('--version', '-V'),
    go: { bareAllowed: false, subcommands: { version: simple(''), env: simple('', {}, { '--json': null }) } },
    java: versionOnly('-version', '--version'), javac: versionOnly('-version', '--version'),
    docker: {
      flags: 'v',
      long: { '--version': null },
      bareAllowed: true,
      subcommands: {
        ps: simple('aqsnl', { n: 'num', f: 'text' }, { '--all': null, '--quiet': null, '--size': null, '--no-trunc': null, '--latest': null, '--last': 'num', '--filter': 'text', '--format': 'text' }),
        images: simple('aq', { f: 'text' }, { '--all': null, '--quiet': null, '--digests': null, '--no-trunc': null, '--filter': 'text', '--format': 'text' }),
        version: simple('', { f: 'text' }, { '--format': 'text' }),
      },
    },
    'apt-cache': { subcommands: { search: simple('n', {}, { '--names-only': null, '--full': null }), show: simple(''), policy: simple(''), depends: simple(''), rdepends: simple('') } },
    dpkg: simple('lLsS', {}, { '--list': null, '--listfiles': null, '--status': null, '--search': null, '--print-architecture': null }),
    'dpkg-query': simple('lLsSWf', {}, { '--list': null, '--listfiles': null, '--status': null, '--search': null, '--show': null, '--showformat': 'text' }),
    journalctl: simple('fremqxkba', { u: 'text', n: 'num', p: 'text', o: 'text', S: 'text', U: 'text', t: 'text' }, { '--unit': 'text', '--user-unit': 'text', '--since': 'text', '--until': 'text', '--follow': null, '--lines': 'num', '--no-pager': null, '--reverse': null, '--output': 'text', '--priority': 'text', '--boot': 'text', '--dmesg': null, '--identifier': 'text', '--grep': 'text', '--user': null, '--system': null, '--utc': null, '--no-hostname': null, '--quiet': null }),
    systemctl: {
      flags: 'al',
      long: { '--no-pager': null, '--user': null, '--all': null, '--full': null, '--plain': null, '--no-legend': null, '--failed': null, '--type': 'text', '--state': 'text' },
      // Not `cat` or `show`: they print unit files and their `Environment=` lines, where services keep passwords
      // (/etc is read unasked only where listed, ADR 0063).
      subcommands: Object.fromEntries(['status', 'list-units', 'list-unit-files', 'list-timers', 'list-sockets', 'is-active', 'is-enabled', 'is-failed'].map((k) => [k, simple('al', { p: 'text', n: 'num' }, { '--no-pager': null, '--user': null, '--all': null, '--full': null, '--plain': null, '--no-legend': null, '--type': 'text', '--state': 'text', '--lines': 'num', '--property': 'text', '--value': null })])),
    },
    // `cd -` goes to $OLDPWD, wherever that is.
    cd: { operands: { min: 1, max: 1 }, check: (p, env) => (p.operands[0] === '-' ? 'cd - goes back to the previous directory, which may be outside the project' : checkValue('inside', p.operands[0]!, env)) },
    // ip reads its own option words (-brief, -json…); -batch runs commands from a file, so only these are listed.
    ip: {
      noOptions: true,
      files: 'none',
      check: (p) =>
        p.operands.every((o) => !o.startsWith('-') || /^-(4|6|s|d|j|p|c|o|br|brief|color|details|json|pretty|stats|oneline)$/.test(o)) && ipReadOnly(p.operands)
          ? undefined
          : 'ip that changes network settings or reads a batch file',
    },
    ifconfig: simple('a', {}, {}, { operands: { max: 1 } }),
    mount: simple('lv', {}, {}, { operands: { max: 0 } }),
    hostnamectl: { subcommands: { status: simple('') }, bareAllowed: true },
    timedatectl: { subcommands: { status: simple(''), show: simple('', { p: 'text' }, { '--property': 'text', '--all': null, '--value': null }) }, bareAllowed: true },
    // sysctl NAME reads; NAME=VALUE, -w and -p (load a file) write.
    sysctl: simple('aneNbhAX', {}, { '--all': null, '--values': null, '--names': null }, { check: (p) => (p.operands.every((o) => !o.includes('=')) ? undefined : 'sysctl NAME=VALUE changes the kernel') }),
    launchctl: { subcommands: { list: simple('x'), print: simple('') } },
    brew: { long: { '--version': null, '--prefix': null, '--cellar': null, '--repository': null }, bareAllowed: true, subcommands: { list: simple('1lrt', {}, { '--versions': null, '--formula': null, '--cask': null, '--pinned': null }), ls: simple('1lrt', {}, { '--versions': null, '--formula': null, '--cask': null }), info: simple('', {}, { '--json': 'text', '--installed': null }), deps: simple('', {}, { '--tree': null, '--installed': null }), leaves: simple('') } },
    pip: PIP, pip3: PIP,
    apt: { subcommands: { list: simple('a', {}, { '--installed': null, '--upgradable': null, '--all-versions': null, '--manual-installed': null }), show: simple('a', {}, { '--all-versions': null }), search: simple('n', {}, { '--names-only': null, '--full': null }), policy: simple('') } },
    crontab: { flags: 'l', operands: { max: 0 }, check: (p) => (p.options.length === 1 ? undefined : 'crontab without -l changes the schedule') },
  };
};


/** Programs that run the rest of their words as a command; their own options are read first. */
export const WRAPPERS: Readonly<Record<string, ProgramSpec & { readonly leading?: number }>> = {
  time: { flags: 'p', permute: false },
  nice: { values: { n: 'num' }, long: { '--adjustment': 'num' }, numericOption: true, permute: false },
  timeout: { flags: 'v', values: { s: 'text', k: 'text' }, long: { '--signal': 'text', '--kill-after': 'text', '--preserve-status': null, '--foreground': null, '--verbose': null }, permute: false, leading: 1 },
  stdbuf: { values: { i: 'text', o: 'text', e: 'text' }, long: { '--input': 'text', '--output': 'text', '--error': 'text' }, permute: false },
  command: { flags: 'p', permute: false },
};

/** WRAPPERS by name (see COMMON_ROWS). */
export const WRAPPER_ROWS: ReadonlyMap<string, ProgramSpec & { readonly leading?: number }> = new Map(Object.entries(uniformRecord(WRAPPERS)));
