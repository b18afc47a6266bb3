// Attacks found in session 10 (attack10). Each test below fails on the gate as the attack found it (81cb4c2).
// The lines with a refusal were run in bash with a harmless command in place of the denied one: bash runs the code.
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { analyzeLine, decisionFor, type LineAnalysis } from '../../src/gate/analyze.js';
import { initParser } from '../../src/gate/parse.js';

const PROJECT = '/work/project';

beforeAll(async () => {
  await initParser();
});

const config = defaultConfig();
function analysis(line: string): LineAnalysis {
  return analyzeLine(line, config, PROJECT, { home: '/home/person' });
}
function decision(line: string): string {
  return decisionFor(analysis(line), config.approval.threshold);
}

describe('attack: a denied command given as code to a bash builtin (mapfile -C, compgen -W, hash -p, let) was only asked about', () => {
  // The builtins' code had exact keys since session 9 (ADR 0090), but the deny scan did not read it: `mapfile -C
  // 'sudo ls' x` was asked about, and a person could say yes to a refused command. bash runs each (checked with
  // `touch` in place of sudo).
  const LINES = [
    "mapfile -C 'sudo ls' x",
    "mapfile -tC 'sudo ls' -c 1 x < notes.txt",
    "readarray -C'sudo ls' x",
    "compgen -W '$(sudo ls)' x",
    "compgen -C 'sudo ls' x",
    "complete -C 'sudo ls' x",
    'hash -p /usr/bin/sudo ls; ls',
    "let 'a[$(sudo ls)]=1'",
    "declare 'a[$(sudo ls)]=1'",
    "read 'a[$(sudo ls)]' < notes.txt",
    "test -v 'a[$(sudo ls)]'",
    "[[ 'a[`sudo ls`]' -eq 1 ]]",
  ];
  for (const line of LINES) {
    it(`\`${line}\` is refused`, () => {
      expect(analysis(line).policyRule).toBe('privilege');
    });
  }

  it('their plain uses, and words that are only words, are still asked, not refused', () => {
    for (const line of ['mapfile -t lines < notes.txt', "compgen -W 'start stop sudo' x", 'hash -r', 'let n=1', "echo '$(sudo ls)'"]) {
      expect(decision(line), line).toBe('ask');
    }
  });
});

describe('attack: a script given on stdin to source, or printed by a process substitution, was only asked about', () => {
  // `source /dev/stdin <<< CODE` runs CODE in the current shell, as `bash <<< CODE` does (which was refused), and
  // `bash <(echo CODE)` / `. <(echo CODE)` run what echo prints. bash runs each.
  const LINES = [
    "source /dev/stdin <<< 'sudo x'",
    ". /dev/fd/0 <<< 'sudo x'",
    'source /dev/stdin <<END\nsudo x\nEND',
    '. <(echo sudo x)',
    "source <(printf 'sudo x\\n')",
    "bash <(echo 'sudo x')",
    "bash <(echo -e 'ls\\nsudo x')",
  ];
  for (const line of LINES) {
    it(`\`${JSON.stringify(line)}\` is refused`, () => {
      expect(analysis(line).policyRule).toBe('privilege');
    });
  }

  it('a script from a file or a printed harmless line is still asked', () => {
    for (const line of ['source ./env.sh', '. <(echo ls)', "source /dev/stdin <<< 'ls'", 'bash <(echo ls)']) expect(decision(line), line).toBe('ask');
  });
});

describe('attack: an unset variable before a denied program (`$unset sudo x`) was only asked about', () => {
  // An unquoted word that expands to nothing is dropped, and bash runs the next word as the program.
  for (const line of ['$unset sudo x', '$(true) sudo ls', '${a}${b} sudo ls', 'env $u sudo ls', '`true` sudo ls']) {
    it(`\`${line}\` is refused`, () => {
      expect(analysis(line).policyRule).toBe('privilege');
    });
  }

  it('a computed program with harmless words is still asked', () => {
    expect(decision('$EDITOR notes.txt')).toBe('ask');
  });
});
