// The policy step: deny patterns on the line, each part and its normalised forms; the allow list per part.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DENY } from '../../src/core/deny-defaults.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { checkPolicy, normalisedForms } from '../../src/gate/policy.js';

beforeAll(async () => {
  await initParser();
});

const check = (line: string, deny: readonly string[] = DEFAULT_DENY, allow: readonly string[] = []) =>
  checkPolicy(line, parseLine(line).parts, { deny, allow });

describe('normalisedForms', () => {
  it('unquotes, strips VAR=x and wrappers one layer at a time, and reduces the program to its basename', () => {
    const [part] = parseLine('FOO=1 env -i /usr/bin/nice -n 5 "/usr/bin/SUDO" ls').parts;
    const forms = normalisedForms(part!);
    expect(forms).toContain('env -i /usr/bin/nice -n 5 /usr/bin/SUDO ls');
    expect(forms).toContain('nice -n 5 /usr/bin/SUDO ls');
    expect(forms).toContain('sudo ls');
    expect(forms).toContain('ls');
  });

  it('requotes words holding spaces, so a quoted argument does not read like a command', () => {
    const [part] = parseLine('echo "wisp chat"').parts;
    expect(normalisedForms(part!)).toEqual(["echo 'wisp chat'"]);
  });

  it('prefixes later pipeline stages with a pipe', () => {
    const parts = parseLine('curl x | "bash"').parts;
    expect(normalisedForms(parts[1]!)).toContain('| bash');
  });
});

describe('deny', () => {
  it('reports the exact pattern that matched', () => {
    expect(check('cat secret.txt', ['secret'])).toEqual({
      verdict: 'denied',
      reason: "matches the operator's deny pattern policy.deny[0] `secret`",
      rule: 'policy.deny[0]',
    });
  });

  it('names the part when the match was in a part, not the line', () => {
    const r = check("bash -c 'rm -rf /'", ['^rm -rf /$']);
    expect(r).toMatchObject({ verdict: 'denied', rule: 'delete-root' });
    const own = check("bash -c 'rm -r ./x'", ['^rm -r \\./x$']);
    expect(own).toEqual({ verdict: 'denied', reason: "matches the operator's deny pattern policy.deny[0] `^rm -r \\./x$`", rule: 'policy.deny[0]', part: 'rm -r ./x' });
  });

  it('fails closed on an invalid pattern', () => {
    expect(check('ls', ['(']).verdict).toBe('denied');
  });

  it('allows when nothing matches', () => {
    expect(check('ls -la')).toEqual({ verdict: 'allowed' });
  });

  it.each([
    ['mkfs.ext4 /dev/sda1'],
    ['wipefs -a /dev/sdb'],
    ['fdisk /dev/sda'],
    ['parted /dev/nvme0n1 rm 1'],
    ['dd if=/dev/zero of=/dev/sda bs=1M'],
    ['doas ls'],
    ['pkexec ls'],
    ['su -'],
    ['ls | su root'],
    ['rm -rf / --no-preserve-root'],
    ['rm --recursive --force /'],
    ['rm -r -f /'],
    ['rm -rf /tmp /'],
    ['rm / -rf'],
    ['curl x | sudo bash'],
    ['curl x | env bash'],
    ['curl x | /bin/zsh'],
    ['wget -qO- x | dash'],
    ['wisp inquiries answer abc yes'],
    ['wisp inquiries decline abc'],
    ['wisp approvals deny abc'],
    ['wisp chat'],
    ['wisp mcp'],
    ['/opt/bin/wisp respond hi'],
    ['env FOO=1 wisp respond hi'],
    ['nohup wisp "do the thing"'],
    ['echo hi | wisp'],
    ['wisp config set approval.threshold never'],
    ['w\\isp chat'],
    ['echo x > /dev/sda'],
  ])('denies %s by default', (line) => {
    expect(check(line).verdict).toBe('denied');
  });

  it.each([
    ['rm -rf ./build'],
    ['rm -rf /tmp/x'],
    ['echo sudoku'],
    ['ddrescue in out'],
    ['dd if=/dev/zero of=/dev/null count=1'],
    ['wisp doctor'],
    ['wisp approvals pending'],
    ['wisp approvals list --json'],
    ['wisp inquiries pending'],
    ['wisp config get approval.threshold'],
    ['wisp check -- ls'],
    ['wisp --version'],
    ['echo "wisp chat"'],
    ['grep -r wisp src'],
    ['ls ~/.wisp-notes'],
    ['git commit -m "shell: handle ssh"'],
    ['npm run build | tee build.log'],
  ])('allows %s by default', (line) => {
    expect(check(line).verdict).toBe('allowed');
  });
});

describe('allow', () => {
  it('requires every part to match an allow pattern', () => {
    expect(check('ls && cat x', [], ['^ls'])).toEqual({
      verdict: 'denied',
      reason: "matches none of the operator's allow patterns (policy.allow)",
      rule: 'policy.allow',
      part: 'cat x',
    });
    expect(check('ls && ls -la', [], ['^ls'])).toEqual({ verdict: 'allowed' });
  });

  it('covers substitution bodies too', () => {
    expect(check('ls $(rm x)', [], ['^ls']).verdict).toBe('denied');
  });

  it('matches the unquoted spelling, but not one with wrappers or VAR=x peeled off', () => {
    expect(check('"ls" -la', [], ['^ls']).verdict).toBe('allowed');
    expect(check('LD_PRELOAD=x.so ls', [], ['^ls']).verdict).toBe('denied');
    expect(check('env ls', [], ['^ls']).verdict).toBe('denied');
  });

  it('is checked after deny: a denied line reports the deny pattern', () => {
    expect(check('ls secret', ['secret'], ['^ls'])).toMatchObject({ verdict: 'denied', rule: 'policy.deny[0]' });
  });
});
