// Attacks found in session 11 (attack11). Each test below fails on the gate as the attack found it (6f7ac82).
import { beforeAll, describe, expect, it } from 'vitest';
import { type Config, defaultConfig } from '../../src/config/schema.js';
import { analyzeLine, decisionFor, type LineAnalysis } from '../../src/gate/analyze.js';
import { initParser } from '../../src/gate/parse.js';
import { askedAfterSessionAnswer } from '../helpers/session-answer.js';

const PROJECT = '/work/project';

beforeAll(async () => {
  await initParser();
});

const contained = defaultConfig();
const open: Config = { ...contained, sandbox: { ...contained.sandbox, enabled: false } };

function analysis(line: string, config: Pick<Config, 'policy'> & { sandbox?: { enabled: boolean } } = contained): LineAnalysis {
  return analyzeLine(line, config, PROJECT, { home: '/home/person', project: PROJECT });
}
function decision(line: string, config: Pick<Config, 'policy'> & { sandbox?: { enabled: boolean } } = contained): string {
  return decisionFor(analysis(line, config), contained.approval.threshold);
}

describe('attack: with the sandbox off, a read whose files the words do not name ran unasked and read .env', () => {
  // With `sandbox.enabled: false` nothing hides the project's secret files, yet `grep -r . .` or `cat *` ran
  // unasked: the gate rated them as if the containment showed .env empty. Checked in bash: `grep -r . .` in a
  // folder with `.env` prints its lines; `cat *` prints `secrets.json`.
  const LINES = [
    'grep -r . .',
    'grep -r x',
    'grep -R TODO src',
    'grep -d recurse x .',
    'grep --directories=recurse x .',
    'rg -uu x',
    'rg --hidden x .',
    'git grep --untracked x',
    'cat *',
    'cat ./*',
    'cat -- *',
    'head -n 99 *',
    'tail -n +1 **/*',
    'grep x *',
    'sort -- *',
    'awk 1 -- *',
    'timeout 5 cat *',
    'cat ?env',
    'diff -r a b',
  ];
  for (const line of LINES) {
    it(`\`${line}\` is asked when the sandbox is off`, () => {
      expect(decision(line, open)).toBe('ask');
    });
  }

  it('the sandbox being on is not assumed: a configuration that does not say reads as off (fail closed)', () => {
    expect(decision('grep -r . .', { policy: contained.policy })).toBe('ask');
    expect(decision('cat *', { policy: contained.policy })).toBe('ask');
  });

  it('with the sandbox on, the same reads still run unasked (the containment shows secret files empty)', () => {
    for (const line of ['grep -r . .', 'rg x', 'cat *', 'head -n 99 *']) expect(decision(line, contained), line).toBe('run');
  });

  it('reads of named files, and programs that print only names or sizes, still run unasked with the sandbox off', () => {
    for (const line of ['cat README.md', 'ls -la', 'ls *', 'du -sh *', 'wc -l *', 'stat *', 'find . -name x', 'sha256sum *', 'git status']) {
      expect(decision(line, open), line).toBe('run');
    }
  });

  it('the reason names the folder or glob, so an answer for one read never covers another', async () => {
    expect(analysis('grep -r x src', open).parts[0]!.reasons.join()).toContain('below src');
    expect(analysis('cat src/*', open).parts[0]!.reasons.join()).toContain('(src/*)');
    expect(await askedAfterSessionAnswer('grep -r TODO src', 'grep -r . .', PROJECT, open)).toEqual(['grep -r . .']);
    expect(await askedAfterSessionAnswer('cat src/*', 'cat *', PROJECT, open)).toEqual(['cat *']);
    // The same folder is the same consent: searching it again for another word is not asked again.
    expect(await askedAfterSessionAnswer('grep -r TODO src', 'grep -r FIXME src', PROJECT, open)).toEqual([]);
  });
});
