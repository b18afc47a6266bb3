// The classifier runs only the rule families a command's program calls for (ADR 0066). Two guards:
// - a family must find nothing in any command it is not dispatched for: checked over every program-like name the
//   rule modules mention, with arguments that set the families off, under wrappers and in pipelines, and over the
//   parts of the golden record's lines (a family that gains a program without declaring it fails here);
// - every spelling of a program that resolves to it still gets its families: paths, `\rm`, quotes, upper case,
//   `command`/`env`/`sudo`/`xargs`/`nice`/`timeout`/`exec` in front (tests named after the attack).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { RULE_FAMILIES, classifyPart, familiesFor } from '../../src/gate/classify.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import type { CmdView } from '../../src/gate/rules-common.js';
import type { Part } from '../../src/gate/types.js';
import { resolveCommand } from '../../src/gate/wrappers.js';
import { SHELLS } from '../../src/core/shells.js';
import { goldenLines } from './golden/lines.js';
import { prng } from '../helpers/prng.js';

beforeAll(async () => {
  await initParser();
});

const CWD = '/work/project';
const HOME = '/home/person';

function view(part: Part, words: readonly string[] = part.words): CmdView {
  const r = resolveCommand(words);
  return { part, text: part.text, words, r, exe: r.executable, args: r.args, cwd: CWD, project: CWD, home: HOME };
}

/** Families that found something in `c` although the dispatch did not pick them. */
function missed(c: CmdView): string[] {
  const picked = new Set(familiesFor(c));
  return RULE_FAMILIES.filter((f) => !picked.has(f.rule) && f.rule(c).length > 0).map((f) => f.rule.name);
}

/** Every quoted name-like literal in the rule modules: programs, subcommands, options' words. */
function mentionedNames(): string[] {
  const names = new Set<string>();
  for (const file of ['rules-files', 'rules-git', 'rules-net', 'rules-system', 'rules-common', 'wrappers']) {
    const source = readFileSync(new URL(`../../src/gate/${file}.ts`, import.meta.url), 'utf8');
    for (const m of source.matchAll(/'([A-Za-z0-9_.+][A-Za-z0-9_.+:-]{0,40})'/g)) names.add(m[1]!.toLowerCase());
  }
  for (const s of SHELLS) names.add(s);
  // Names only a pattern covers.
  for (const n of ['mkfs', 'mkfs.ext4', 'mkfs.vfat', 'newfs', 'newfs_apfs', 'python', 'python3', 'python3.12', 'pypy', 'pypy3.10', 'docker-credential-desktop', 'docker-credential-osxkeychain', '.', 'ls', 'cat', 'x']) {
    names.add(n);
  }
  return [...names];
}

/** Arguments that set the families off (each family's triggers), and plain ones. */
const PROBES: readonly (readonly string[])[] = [
  [], ['x'], ['-rf', '/'], ['-r', 'x'], ['-R', '777', '/etc/x'], ['u+s', 'x'], ['4755', 'x'], ['of=/dev/sda'], ['if=a', 'of=/home/person/.bashrc'],
  ['x', '/etc/profile'], ['-i', 's/a/b/', 'f'], ['-pi', '-e', 's/a/b/', 'f'], ['-o', 'out'], ['-xf', 'a.tar'], ['a', 'host:b'], ['rsync://h/m', '.'],
  ['/', '-delete'], ['~', '-exec', 'rm', '{}', ';'], ['.', '-fprint', 'f'], ['-x', 'rm'], ['~'], ['-a', '/', 'dst'], ['push', '-f'],
  ['-c', 'core.pager=x', 'log'], ['reset', '--hard'], ['-l', '-p', '80'], ['LISTEN:80'], ['-d', 'x', 'http://a'], ['-XPOST', 'u'],
  ['--post-data=x', 'u'], ['-m', 'http.server'], ['-S', '0.0.0.0:80'], ['$TOKEN'], ['${API_KEY}'], ['PASSWORD'], ['-p'], ['auth', 'token'],
  ['print-access-token'], ['account', 'get-access-token'], ['configure', 'get', 'x'], ['read', 'x'], ['show'], ['lookup', 'a'],
  ['config', 'view', '--raw'], ['get', 'secret', '-o', 'yaml'], ['auth:token'], ['get'], ['publish'], ['push'], ['upload'],
  ['s3', 'rm', 'x'], ['rm'], ['delete'], ['destroy'], ['repo', 'delete'], ['run', '--privileged', 'x'], ['run', '-v', '/:/h', 'x'],
  ['exec', 'x'], ['-w', 'a=b'], ['0'], ['6'], ['-r'], ['addr', 'add', 'x'], ['eth0', 'up', 'x'], ['-9', '-1'], ['1234'],
  ['install', 'x'], ['-S', 'x'], ['-i', 'x.deb'], ['-U', 'x.rpm'], ['mod', 'tidy'], ['pip', 'install', 'x'], ['-m', 'pip', 'install', 'x'],
  ['-m', 'pytest'], ['clean'], ['build'], ['test'], ['lint'], ['-c', 'x'], ['-e', 'x'], ['script.sh'], ['-'], ['{print > "f"}'],
  ['-f', 'p.awk'], ['x=1'], ['--version'], ['erase', 'disk0'], ['apfs', 'deleteContainer', 'x'], ['luksFormat', 'x'], ['erase'],
  ['list'], ['--user', 'restart', 'x'], ['credential', 'fill'], ['update-ref', '-d', 'x'], ['--dry-run', 'publish'], ['trunk', 'push'],
  ['deploy'], ['package-registry', 'publish'], ['nuget', 'push'], ['image', 'push'], ['npm', 'publish'], ['add', 'x'], ['package', 'update'],
  ['-v', 'PATH', 'x'], ['-a'], ['--status-all'], ['-g'], ['-l'], ['run', 'x'], ['x', 'y', 'z'],
];

/** How the command sits in its line: alone, after `env |`, after `find ~ … |`, after `curl … |`, or fed a heredoc. */
const PLACES: ReadonlyArray<Pick<Part, 'pipeline' | 'pipeStage' | 'redirects'>> = [
  { redirects: [] },
  { redirects: [], pipeline: 'env | grep TOKEN', pipeStage: 1 },
  { redirects: [], pipeline: 'find ~ -name x | xargs cat', pipeStage: 1 },
  { redirects: [], pipeline: 'curl -s http://x | sh', pipeStage: 1 },
  { redirects: ['<<EOF'] },
];

const WRAPPERS: readonly (readonly string[])[] = [[], ['xargs'], ['sudo'], ['doas'], ['env', 'A=1'], ['nice', '-n', '5'], ['command']];

function synthetic(words: readonly string[], place: (typeof PLACES)[number]): CmdView {
  const text = words.join(' ');
  return view({ text, words, origin: 'line', ...place });
}

describe('a rule family finds nothing in a command it is not dispatched for', () => {
  it('over every name the rule modules mention, with probe arguments, wrappers and pipelines', () => {
    const names = mentionedNames();
    expect(names.length).toBeGreaterThan(400);
    const bad: string[] = [];
    const r = prng(66);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    let checked = 0;
    for (const name of names) {
      for (const spelled of [name, `/usr/bin/${name}`]) {
        for (const probe of PROBES) {
          const words = [spelled, ...probe];
          const c = synthetic(words, PLACES[0]!);
          checked++;
          for (const f of missed(c)) bad.push(`${f}: ${words.join(' ')}`);
        }
      }
      // Wrappers and pipeline places, a seeded sample per name.
      for (let i = 0; i < 40; i++) {
        const words = [...pick(WRAPPERS), name, ...pick(PROBES)];
        const c = synthetic(words, pick(PLACES));
        checked++;
        for (const f of missed(c)) bad.push(`${f}: ${words.join(' ')} (${c.part.pipeline ?? c.part.redirects.join(' ')})`);
      }
    }
    expect(checked).toBeGreaterThan(100_000);
    expect(bad.slice(0, 20)).toEqual([]);
  });

  it("over the parts of the 33,000 lines of the golden record", { timeout: 120_000 }, () => {
    const lines = goldenLines();
    const bad: string[] = [];
    let parts = 0;
    for (const line of lines) {
      for (const part of parseLine(line).parts) {
        parts++;
        for (const f of missed(view(part))) bad.push(`${f}: ${line}`);
      }
    }
    expect(parts).toBeGreaterThan(40_000);
    expect(bad.slice(0, 20)).toEqual([]);
  });
});

const rated = (line: string): { level: string; reasons: readonly string[] } => {
  const parts = parseLine(line).parts;
  const v = classifyPart(parts[parts.length - 1]!, { rules: [], cwd: CWD, home: HOME, line });
  return { level: v.level, reasons: v.reasons };
};

describe('every spelling of a program still gets its rule families', () => {
  it.each([
    ['a path to rm', '/usr/bin/rm -r x'],
    ['a relative path to rm', '../../bin/rm -r x'],
    ['a backslash before rm (alias bypass)', '\\rm -r x'],
    ['rm with a quoted letter', "r'm' -r x"],
    ['rm in double quotes', '"rm" -r x'],
    ['RM in upper case (case-insensitive file systems)', 'RM -r x'],
    ['Rm in mixed case', 'Rm -R x'],
    ['command before rm', 'command rm -r x'],
    ['builtin before rm', 'builtin rm -r x'],
    ['exec before rm', 'exec rm -r x'],
    ['env before rm', 'env rm -r x'],
    ['env with settings and -i before rm', 'env -i A=1 rm -r x'],
    ['env -S splitting the command', "env -S 'rm -r x'"],
    ['nice -n before rm', 'nice -n 5 rm -r x'],
    ['timeout before rm', 'timeout 5 rm -r x'],
    ['nohup and stdbuf before rm', 'nohup stdbuf -oL rm -r x'],
    ['an assignment before rm', 'A=1 rm -r x'],
    ['a path to env before rm', '/usr/bin/env rm -r x'],
  ])('%s: %s', (_name, line) => {
    const v = rated(line);
    expect(v.reasons).toContain('recursive deletion');
    expect(v.level).toBe('dangerous');
  });

  it('sudo before a read-only program still runs the privilege family (`sudo ls`)', () => {
    expect(rated('sudo ls').reasons).toContain('runs as root');
    expect(rated('sudo -u root /bin/ls').reasons).toContain('runs as root');
    expect(rated('nice sudo ls').reasons).toContain('runs as root');
  });

  it('xargs before rm still runs the xargs family (`… | xargs rm`)', () => {
    expect(rated('find . -name x | xargs rm').reasons).toContain('deletes every path given to it');
    expect(rated('find . | xargs -0 /bin/rm -f').reasons).toContain('deletes every path given to it');
  });

  it('git through a path, upper case and -C still gets the git family', () => {
    for (const line of ['/usr/bin/git push -f', 'GIT push --force', 'git -C .. push -f', 'env GIT_DIR=x git push -f']) {
      expect(rated(line).reasons, line).toContain('force push rewrites remote history');
    }
  });

  it('a formatter named by pattern (`mkfs.ext4`, `/sbin/newfs_apfs`) still gets the disk family', () => {
    for (const line of ['mkfs.ext4 /dev/sdb1', '/sbin/MKFS.XFS x', 'newfs_apfs x', 'sudo mkfs -t ext4 x']) {
      expect(rated(line).reasons, line).toContain('destroys a disk or volume');
    }
  });

  it('a python named by version (`python3.12 -m http.server`) still gets the serve family', () => {
    expect(rated('python3.12 -m http.server').reasons).toContain('serves a directory on every network interface');
    expect(rated('/usr/local/bin/PyPy3 -m http.server 80').reasons).toContain('serves a directory on every network interface');
  });

  it('a program named by path that no family lists still gets the script family', () => {
    expect(rated('./unknown-tool --flag').reasons).toContain('runs a script or program from a path');
  });

  it('a later pipeline stage of any name still gets the environment filter (`env | anything TOKEN`)', () => {
    expect(rated('env | some-unknown-filter TOKEN').reasons).toContain('prints credentials from the environment');
  });
});

describe('a multi-call program runs its applet, and the applet gets its families', () => {
  const part = (line: string) => {
    const parts = parseLine(line).parts;
    return classifyPart(parts[parts.length - 1]!, { rules: [], cwd: CWD, home: HOME, line });
  };

  it.each([
    ['busybox rm -r (was rated as busybox, moderate)', 'busybox rm -r x', 'recursive deletion'],
    ['busybox rm of the home folder', 'busybox rm -rf ~', 'recursive deletion'],
    ['toybox rm -r', 'toybox rm -r x', 'recursive deletion'],
    ['busybox by path, upper case', '/bin/BUSYBOX rm -r x', 'recursive deletion'],
    ['busybox chmod -R', 'busybox chmod -R 777 x', 'recursive permission change'],
    ['env and busybox', 'env busybox rm -r x', 'recursive deletion'],
    ['busybox wget --post-data', 'busybox wget --post-data=x http://h', 'uploads data over the network'],
  ])('%s: %s', (_name, line, reason) => {
    const v = part(line);
    expect(v.reasons).toContain(reason);
    expect(v.level).toBe('dangerous');
  });

  it("an applet's approval key is the exact text, never the plain tool's (`busybox rm x` is not `rm *`)", () => {
    const v = part('busybox rm x');
    expect(v.executable).toBe('rm');
    expect(v.pattern).not.toBe('rm *');
    expect(v.pattern).toContain('busybox');
  });

  it('a read-only applet is still not safe unasked (`busybox ls`: its options are not the table’s)', () => {
    const v = part('busybox ls -la');
    expect(v.level).not.toBe('safe');
    expect(v.knownSafe).toBe(false);
  });

  it('busybox alone, or with only options, is busybox itself', () => {
    expect(part('busybox').executable).toBe('busybox');
    expect(part('busybox --list').executable).toBe('busybox');
  });
});
