// Safe by construction (issue #12, ADR 0014): every attack of the corpus is asked about or denied, named after its
// attack; ordinary read-only work still runs unasked; and the table's parts (option parsing, sed/awk/jq/find
// grammars, globs, secrets) each refuse what they do not know.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { readOnlyByTable, wordReason } from '../../src/gate/table/index.js';
import { allPrograms, programRow } from '../../src/gate/table/programs.js';
import { awkProgramReason, sedScriptReason } from '../../src/gate/table/scripts.js';
import { ATTACKS, ORDINARY } from './attacks.js';

const CWD = '/home/person/project';
const HOME = '/home/person';
const config = defaultConfig();
const decide = (line: string) => decisionFor(analyzeLine(line, config, CWD, { home: HOME }), 'moderate');
// Rated as the default configuration runs them: unasked runs contained (the sandbox on, ADR 0093).
const table = (line: string) => parseLine(line).parts.map((p) => readOnlyByTable(p, { cwd: CWD, home: HOME, contained: true }));

beforeAll(async () => {
  await initParser();
});

describe('issue #12 attacks are asked about or denied', () => {
  it.each(ATTACKS.map((a) => [a.name, a.line] as const))('%s', (_name, line) => {
    expect(decide(line)).not.toBe('run');
  });
});

describe('ordinary read-only work still runs unasked', () => {
  it.each(ORDINARY)('%s', (line) => {
    const a = analyzeLine(line, config, CWD, { home: HOME });
    expect(decisionFor(a, 'moderate'), a.parts.map((p) => `${p.text}: ${p.reasons.join('; ')}`).join(' | ')).toBe('run');
  });
});

describe('literal words only', () => {
  it.each([
    ['echo $HOME', 'expansion'],
    ['echo "$HOME"', 'expansion'],
    ['echo `id`', 'expansion'],
    ['echo $((1+2))', 'expansion'],
    ['cat <(ls)', 'expansion'],
    ['ls {a,b}', 'expansion'],
    ['ls ~/x$y', 'expansion'],
  ])('%s is not safe (%s)', (line, what) => {
    const v = table(line).at(-1)!;
    expect(v.safe).toBe(false);
    if (!v.safe) expect(v.reason).toContain(what);
  });

  it.each(["grep 'a$' f", 'echo "plain text"', "echo $'a\\tb'", 'cat a\\ b', 'ls -la -- -weird'])('%s: quoted or escaped literals are fine', (line) => {
    expect(table(line).every((v) => v.safe)).toBe(true);
  });
});

describe('options are parsed the way getopt reads them', () => {
  it('accepts clusters, attached values, values in the next word and --', () => {
    for (const line of ['grep -rn TODO src', 'grep -A3 x f', 'grep -A 3 x f', 'grep --context=3 x f', 'grep --context 3 x f', 'head -5 f', 'grep -- -x f']) {
      expect(table(line)[0], line).toEqual({ safe: true });
    }
  });

  it('refuses an option the row does not list, named in the reason', () => {
    expect(table('ls --frobnicate')[0]).toEqual({ safe: false, reason: 'uses an option wisp does not know to be read-only for ls: --frobnicate' });
    expect(table('sort -o x a')[0]).toEqual({ safe: false, reason: 'uses an option wisp does not know to be read-only for sort: -o' });
  });

  it('abbreviations only where every real option is harmless, and only when unambiguous', () => {
    expect(table('ls --almost')[0]!.safe).toBe(true);
    expect(table('grep --ignore-c x f')[0]!.safe).toBe(true);
    expect(table('ls --h')[0]!.safe).toBe(false); // too short to be read as anything
    expect(table('sed --expr=p f')[0]!.safe).toBe(false); // sed has harmful options: full names only
    expect(table('git log --outp=x')[0]!.safe).toBe(false);
  });

  it('--no-… only where listed', () => {
    expect(table('git clean -n --no-dry-run')[0]!.safe).toBe(false);
    expect(table('rg --no-ignore foo')[0]!.safe).toBe(true);
  });

  it('checks value kinds: numbers, enums, directories inside the project', () => {
    expect(table('head -n x f')[0]!.safe).toBe(false);
    expect(table('ls --color=sometimes')[0]!.safe).toBe(false);
    expect(table('git -C sub status')[0]!.safe).toBe(true);
    expect(table('git -C .. status')[0]!.safe).toBe(false);
  });

  it('reads sub-commands with their own rows, and refuses unknown ones', () => {
    expect(table('git stash list')[0]!.safe).toBe(true);
    expect(table('git stash pop')[0]!.safe).toBe(false);
    expect(table('npm ls --depth=0')[0]!.safe).toBe(true);
    expect(table('npm install')[0]!.safe).toBe(false);
  });

  it('wrappers: their own options first, then the command is checked the same way', () => {
    expect(table('timeout 5 ls')[0]!.safe).toBe(true);
    expect(table('timeout -s KILL 5s ls')[0]!.safe).toBe(true);
    expect(table('nice -n 5 git status')[0]!.safe).toBe(true);
    expect(table('time -o out.txt ls')[0]!.safe).toBe(false);
    expect(table('timeout 5 sort -o x a')[0]!.safe).toBe(false);
    expect(table('command -v git')[0]!.safe).toBe(true);
  });
});

describe('globs', () => {
  it('a leading glob is accepted only where every option is harmless, or after --', () => {
    expect(table('ls *.ts')[0]!.safe).toBe(true);
    expect(table('rg foo *')[0]!.safe).toBe(false);
    expect(table('rg foo -- *')[0]!.safe).toBe(true);
    expect(table('rg foo src/*.ts')[0]!.safe).toBe(true);
  });

  it('a glob in an option is refused, except inside a long option value', () => {
    expect(table('ls -*')[0]!.safe).toBe(false);
    expect(table('grep -r x --include=*.ts .')[0]!.safe).toBe(true);
  });

  it.each([
    ['~/.ss?/id_*', 'hidden'],
    ['.e?v', 'hidden'],
    ['/home/person/.aws/c*s', undefined],
    ['keys/id_*', 'id_rsa'],
    ['/proc/self/env*', '/proc'],
  ])('%s is refused as a secret-reaching glob', (word, what) => {
    const reason = wordReason(word, 'glob');
    expect(reason).toBeDefined();
    if (what !== undefined) expect(reason).toContain(what);
  });

  it('a glob with many wildcards is refused at once rather than matched (no backtracking blow-up)', () => {
    const start = process.hrtime.bigint();
    expect(wordReason('*?'.repeat(400), 'glob')).toMatch(/too intricate/);
    expect(wordReason('src/' + '*a'.repeat(30), 'glob')).toMatch(/too intricate/);
    expect(Number(process.hrtime.bigint() - start) / 1e6).toBeLessThan(1000);
  });

  it('ordinary globs pass', () => {
    for (const w of ['src/*.ts', '*.md', 'src/**/*.ts', 'test/[ab]*.ts']) expect(wordReason(w, 'glob'), w).toBeUndefined();
  });
});

describe('sed: a strict allow-grammar', () => {
  it.each(['p', '1,5p', '$p', '/x/d', 's/a/b/g', 's|a|b|2', 's/a\\/b/c/', '1!G;h;$!d', '/start/,/end/p', 'y/abc/xyz/', '0~2d', '$=', '/x/{s/a/b/;p}', 'l', 'q5'])(
    'accepts %s',
    (script) => expect(sedScriptReason(script)).toBeUndefined(),
  );
  it.each(['1e id', '$e id', 'e', '0~1w out', 's/a/b/e', 's/a/b/w out', 's/a/b/ge', 'r /etc/passwd', 'R f', 'W f', '1a text', 'v', 'z;e id', 's/[/]/x/e', '/x/!e id'])(
    'refuses %s',
    (script) => expect(sedScriptReason(script)).toBeDefined(),
  );
});

describe('awk: no commands, pipes, other files or environment', () => {
  it.each(['{print $1}', 'NR==5', '$3 > 100 {print $1}', '{ if ($3 > 1) print $1 }', '{sum += $3} END {print sum}', 'BEGIN{FS=","} {print $2}'])(
    'accepts %s',
    (p) => expect(awkProgramReason(p)).toBeUndefined(),
  );
  it.each(['{print > "f"}', '{print | "sh"}', 'BEGIN{system("id")}', '{"date" | getline d}', 'BEGIN{print ENVIRON["HOME"]}', '@include "x"', 'BEGIN{ARGV[1]="f"}', '{printf "%s", $1 > "/dev/stderr"}'])(
    'refuses %s',
    (p) => expect(awkProgramReason(p)).toBeDefined(),
  );
});

describe('the table is data', () => {
  it('every row is an object keyed by a program name without a slash', () => {
    for (const [name, spec] of Object.entries(allPrograms())) {
      expect(name).not.toContain('/');
      expect(typeof spec).toBe('object');
    }
  });

  it('has no rows for programs that print the environment or run other programs', () => {
    for (const name of ['env', 'printenv', 'xargs', 'sh', 'bash', 'eval', 'exec', 'source', 'set', 'export', 'unset', 'declare', 'shopt', 'alias', 'cargo', 'rustc', 'yarn', 'pnpm']) {
      expect(Object.prototype.hasOwnProperty.call(allPrograms(), name), name).toBe(false);
      expect(programRow(name), name).toBeUndefined();
    }
  });

  it('a row looked up by name is the row of the full table, the common rows built at load included', () => {
    const all = allPrograms();
    for (const name of Object.keys(all)) expect(programRow(name), name).toBe(all[name]);
    for (const name of ['ls', 'cat', 'head', 'tail', 'wc', 'grep', 'rg', 'sed', 'awk', 'sort', 'find', 'jq', 'git']) {
      expect(programRow(name), name).toBe(all[name]);
    }
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expect(programRow(name), name).toBeUndefined();
  });
});
