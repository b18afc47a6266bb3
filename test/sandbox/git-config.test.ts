// The git config a contained run sees (ADR 0098): kept sections only, URLs without user info, and values that git
// reads back exactly as they were written.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { containedGitConfig, withoutUserInfo } from '../../src/sandbox/git-config.js';

const dir = mkdtempSync(join(tmpdir(), 'wisp-test-gitcfg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const list = (file: string): string =>
  execFileSync('git', ['config', '--file', file, '--list'], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1' } });

describe('withoutUserInfo', () => {
  it.each([
    ['https://user:tok@github.com/o/r.git', 'https://github.com/o/r.git'],
    ['https://tok@host:8443/p', 'https://host:8443/p'],
    ['ssh://git@host/o/r', 'ssh://host/o/r'],
    ['https://host/path@v1', 'https://host/path@v1'],
    ['https://a:b@c@host/x', 'https://host/x'],
    ['git@github.com:o/r.git', 'git@github.com:o/r.git'],
    ['../relative/path', '../relative/path'],
  ])('%s → %s', (url, want) => expect(withoutUserInfo(url)).toBe(want));
});

describe('containedGitConfig', () => {
  it('keeps what git needs, drops credential-bearing sections, and quotes values so git reads them back', () => {
    const file = join(dir, 'config');
    writeFileSync(
      file,
      [
        '[core]',
        '\trepositoryformatversion = 0',
        '\tbare',
        '[extensions]',
        '\tobjectformat = sha256',
        '[remote "or\\"igin"]',
        '\turl = https://u:SECRET@host/r',
        '\tfetch = +refs/heads/*:refs/remotes/origin/*',
        '[branch "main"]',
        '\tdescription = "tab\\there \\"quoted\\" back\\\\slash\\nnext line"',
        '[http "https://host/"]',
        '\textraheader = AUTHORIZATION: basic SECRET',
        '[url "https://SECRET@host/"]',
        '\tinsteadOf = https://host/',
        '[include]',
        '\tpath = /etc/passwd',
        '[github]',
        '\ttoken = SECRET',
        '',
      ].join('\n'),
    );
    const cleaned = join(dir, 'cleaned');
    writeFileSync(cleaned, containedGitConfig(file));
    const got = list(cleaned);
    expect(got).not.toMatch(/SECRET|extraheader|insteadof|include|github/);
    expect(got.split('\n').filter(Boolean)).toEqual([
      'core.repositoryformatversion=0',
      'core.bare',
      'extensions.objectformat=sha256',
      'remote.or"igin.url=https://host/r',
      'remote.or"igin.fetch=+refs/heads/*:refs/remotes/origin/*',
      'branch.main.description=tab\there "quoted" back\\slash',
      'next line',
    ]);
  });

  it('is empty when the file cannot be read as config, or git is not there', () => {
    const broken = join(dir, 'broken');
    writeFileSync(broken, '[core\nnot config at all "\n');
    expect(containedGitConfig(broken)).toBe('');
    expect(containedGitConfig(broken, join(dir, 'no-git'))).toBe('');
  });
});
