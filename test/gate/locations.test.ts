// The location allow-list on its own (ADR 0063): which words are allowed, and the reason given for those that are not.
import { describe, expect, it } from 'vitest';
import { cwdReason, fileWordReason, type Places } from '../../src/gate/locations.js';
import type { WordShape } from '../../src/gate/types.js';

const places: Places = { cwd: '/home/person/project', project: '/home/person/project', home: '/home/person' };
const reason = (word: string, shape: WordShape = 'literal', recursive = false, at: Places = places) => fileWordReason(word, shape, at, recursive);

describe('fileWordReason', () => {
  it.each([
    ['src/x.ts'], ['.'], ['README.md'], ['/home/person/project/src'], ['~/project/src/x'], ['src/../README.md'], ['/usr/bin/ls'],
    ['/usr/share/doc/x'], ['/etc/hosts'], ['/etc/os-release'], ['/etc/lsb-release'], ['/etc/apt/sources.list.d/x.list'],
    ['/dev/null'], ['/proc/cpuinfo'], ['/opt/tool/bin/x'], ['/nix/store/abc-x/bin/y'],
  ])('%s is allowed', (word) => {
    expect(reason(word)).toBeUndefined();
  });

  it.each([
    ['~', 'reads outside the project (~)'],
    ['~/.m2/settings.xml', 'reads outside the project (~/.m2/settings.xml)'],
    ['../x', 'reads outside the project (../x)'],
    ['/home//person/./x', 'reads outside the project (/home//person/./x)'],
    ['/tmp/x', 'reads outside the project (/tmp/x)'],
    ['/etc/fstab', 'reads outside the project (/etc/fstab)'],
    ['/proc/self/cmdline', 'reads outside the project (/proc/self/cmdline)'],
    ['/dev/tty', 'reads outside the project (/dev/tty)'],
    ['~-/x', 'reads through ~-, a directory the gate cannot see (~-/x)'],
    ['~+/x', 'reads through ~+, a directory the gate cannot see (~+/x)'],
    ['~root/x', 'reads through ~root, a directory the gate cannot see (~root/x)'],
    ['prod.env', 'names a file that may hold secrets (prod.env)'],
    ['config/.env.local', 'names a file that may hold secrets (config/.env.local)'],
    ['keys/server.pem', 'names a file that may hold secrets (keys/server.pem)'],
    ['deploy/.ssh/config', 'names a file that may hold secrets (deploy/.ssh/config)'],
    ['/usr/local/etc/my.cnf', 'reads configuration of installed services (/usr/local/etc/my.cnf)'],
    ['/opt/homebrew/var/db', 'reads data of installed services (/opt/homebrew/var/db)'],
  ])('%s: %s', (word, why) => {
    expect(reason(word)).toBe(why);
  });

  it('a recursive reader may not be given a folder that holds a never-read location', () => {
    expect(reason('/usr', 'literal', true)).toBe('searches a folder that holds configuration of installed services (/usr)');
    expect(reason('/usr/share', 'literal', true)).toBeUndefined();
    expect(reason('.', 'literal', true)).toBeUndefined();
    expect(reason('/usr', 'literal', false)).toBeUndefined();
  });

  it('globs: every match must lie in an allowed location, and none may reach a never-read one or a secret name', () => {
    expect(reason('src/*.ts', 'glob')).toBeUndefined();
    expect(reason('*', 'glob')).toBeUndefined();
    expect(reason('*.json', 'glob')).toBeUndefined();
    expect(reason('/etc/*-release', 'glob')).toBeUndefined();
    expect(reason('/usr/*/bin', 'glob')).toBeUndefined();
    expect(reason('*.env', 'glob')).toMatch(/^a glob that can match a secret's name such as x\.env/);
    expect(reason('c*s', 'glob')).toMatch(/^a glob that can match a secret's name such as credentials/);
    expect(reason('/etc/*', 'glob')).toBe('reads outside the project (/etc/*)');
    expect(reason('/e?c/hosts', 'glob')).toBe('reads outside the project (/e?c/hosts)');
    expect(reason('/usr/*/etc/x', 'glob')).toBe('reads configuration of installed services (/usr/*/etc/x)');
    expect(reason('/opt/*/etc', 'glob')).toBe('reads configuration of installed services (/opt/*/etc)');
    expect(reason('/usr/l*', 'glob', true)).toBe('searches a folder that holds configuration of installed services (/usr/l*)');
    expect(reason('src/.*', 'glob')).toMatch(/^a glob over hidden names/);
    expect(reason('~/.c*/g?/*', 'glob')).toMatch(/^a glob over hidden names/);
    expect(reason('src/' + '*a'.repeat(30), 'glob')).toMatch(/^a glob too intricate/);
  });

  it('a quoted ~ (literal to bash) is read as the home folder: asking too often, never too rarely', () => {
    expect(reason('~/x')).toBe('reads outside the project (~/x)');
  });

  it('the project is the root it is, wherever it lies; never-read locations inside it still apply', () => {
    const home: Places = { cwd: '/home/person', project: '/home/person', home: '/home/person' };
    expect(reason('notes.txt', 'literal', false, home)).toBeUndefined();
    expect(reason('.m2/settings.xml', 'literal', false, home)).toBe('reads a home folder (.m2/settings.xml)');
    expect(reason('snap/firefox/x', 'literal', false, home)).toBe('reads the home folder (snap/firefox/x)');
    expect(reason('.', 'literal', true, home)).toMatch(/^searches a folder that holds (a|the) home folder \(\.\)$/);
    const root: Places = { cwd: '/', project: '/', home: '/home/person' };
    expect(reason('usr/share/x', 'literal', false, root)).toBeUndefined();
    expect(reason('etc/hosts', 'literal', false, root)).toBeUndefined();
    expect(reason('etc/fstab', 'literal', false, root)).toBe("reads the machine's configuration, which can hold its secrets (etc/fstab)");
    expect(reason('proc/1/environ', 'literal', false, root)).toBe("reads the kernel's view of processes and devices (proc/1/environ)");
    const tmp: Places = { cwd: '/tmp/w1', project: '/tmp/w1', home: '/home/person' };
    expect(reason('a.txt', 'literal', false, tmp)).toBeUndefined();
    expect(reason('.', 'literal', true, tmp)).toBeUndefined();
    expect(reason('../w2/a.txt', 'literal', false, tmp)).toBe('reads outside the project (../w2/a.txt)');
  });
});

describe('cwdReason', () => {
  it('a command may run unasked in the project or a system location only', () => {
    expect(cwdReason(places)).toBeUndefined();
    expect(cwdReason({ ...places, cwd: '/home/person/project/src' })).toBeUndefined();
    expect(cwdReason({ ...places, cwd: '/usr/share' })).toBeUndefined();
    expect(cwdReason({ ...places, cwd: '/home/person' })).toBe('runs in a directory outside the project (/home/person)');
    expect(cwdReason({ ...places, cwd: '/tmp' })).toBe('runs in a directory outside the project (/tmp)');
  });
});
