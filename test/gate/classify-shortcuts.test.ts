// The classifier's shortcuts (ADR 0074) skip work that cannot change what the gate says: a reading of a command
// remembered for the same word list, the location checks looking only at entries a path can meet, a word without `/`
// or `.` skipping the path expressions, the secret expressions' anchors in one scan. Each sits beside the full way it
// replaces; here both ways must say exactly the same over the golden lines, generated words and odd places — and the
// remembered reading must never answer for a list whose words changed.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine } from '../../src/gate/analyze.js';
import { classifyPart } from '../../src/gate/classify.js';
import { defaultConfig } from '../../src/config/schema.js';
import { globMatcher } from '../../src/gate/glob.js';
import { type Places, fileWordReason } from '../../src/gate/locations.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { shortcuts } from '../../src/gate/shortcuts.js';
import { wordReason } from '../../src/gate/table/index.js';
import type { Part, WordShape } from '../../src/gate/types.js';
import { resolveCommand } from '../../src/gate/wrappers.js';
import { prng } from '../helpers/prng.js';
import { goldenLines } from './golden/lines.js';

const config = defaultConfig();

/** Runs `f` with the shortcuts on, then off; returns both results as JSON. */
function bothWays(f: () => unknown): [string, string] {
  shortcuts.on = true;
  const fast = JSON.stringify(f());
  shortcuts.on = false;
  try {
    return [fast, JSON.stringify(f())];
  } finally {
    shortcuts.on = true;
  }
}

/** Places that exercise the location checks' corners: a project at the root, a home at the root or under /tmp, … */
const PLACES: readonly Places[] = [
  { cwd: '/work/project', project: '/work/project', home: '/home/person' },
  { cwd: '/home/person/project/src', project: '/home/person/project', home: '/home/person' },
  { cwd: '/', project: '/', home: '/' },
  { cwd: '/usr/share', project: '/home/p/x', home: '/home/p' },
  { cwd: '/tmp/h/p', project: '/tmp/h/p', home: '/tmp/h' },
  { cwd: '/Users/Ann/Code', project: '/Users/Ann/Code', home: '/Users/Ann' },
  { cwd: '/etc', project: '/opt/app', home: '/root' },
  { cwd: '/work//project/./a/..', project: '/work/project/', home: '/home/person/' },
];

beforeAll(async () => {
  await initParser();
});

afterEach(() => {
  shortcuts.on = true;
});

describe('the shortcuts say what the full way says', () => {
  it('on every golden line: the whole analysis, and each part rated in odd places', { timeout: 300_000 }, () => {
    const differences: string[] = [];
    for (const line of goldenLines()) {
      const [fast, full] = bothWays(() => analyzeLine(line, config, '/work/project', { home: '/home/person' }));
      if (fast !== full) differences.push(`${line}: ${fast} vs ${full}`);
      const parts = parseLine(line).parts;
      const at = PLACES[line.length % PLACES.length]!;
      const rated = bothWays(() => parts.map((p) => classifyPart(p, { rules: [], cwd: at.cwd, home: at.home, project: at.project })));
      if (rated[0] !== rated[1]) differences.push(`${line} in ${JSON.stringify(at)}: ${rated[0]} vs ${rated[1]}`);
      if (differences.length >= 10) break;
    }
    expect(differences).toEqual([]);
  });

  it('on generated path words, in every place, as a literal and as a glob, read or searched', () => {
    const r = prng(74);
    const pieces = [
      '', '.', '..', '~', '~-', 'etc', 'ETC', 'Etc', 'home', 'person', 'project', 'work', 'p', 'x', 'usr', 'local', 'share', 'opt',
      'proc', 'self', 'environ', 'sys', 'dev', 'null', 'tcp', 'tmp', 'h', 'os-release', 'lsb-release', '.ssh', '.config', 'Library',
      'System', 'Volumes', 'Users', 'Ann', 'root', '*', '?', '[a]', '.*', '*.env', '*-release', 's*', '**', 'credentials', '.env',
      'id_rsa', 'snap', 'var', ':', ':(top)', 'src', 'README.md', 'hosts',
    ];
    const words: string[] = ['', '/', '//', '.', '..', '~', '/..', '/../..', 'a/../../..', '/dev/null', '/dev//null', '/proc/cpuinfo'];
    for (let i = 0; i < 4000; i++) {
      const n = 1 + Math.floor(r() * 5);
      let w = r() < 0.4 ? '/' : '';
      for (let k = 0; k < n; k++) w += (k > 0 ? (r() < 0.1 ? '//' : '/') : '') + pieces[Math.floor(r() * pieces.length)]!;
      if (r() < 0.1) w += '/';
      words.push(w);
    }
    const differences: string[] = [];
    for (const word of words) {
      for (const at of PLACES) {
        for (const shape of ['literal', 'glob'] as const) {
          for (const recursive of [false, true]) {
            const [fast, full] = bothWays(() => fileWordReason(word, shape, at, recursive) ?? null);
            if (fast !== full) differences.push(`${word} ${shape} ${recursive} in ${JSON.stringify(at)}: ${fast} vs ${full}`);
          }
        }
      }
      for (const shape of ['literal', 'glob'] as WordShape[]) {
        const [fast, full] = bothWays(() => wordReason(word, shape) ?? null);
        if (fast !== full) differences.push(`wordReason ${word} ${shape}: ${fast} vs ${full}`);
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
  });
});

describe('a glob matched without compiling an expression', () => {
  it('matches exactly the names its expression matches (generated globs and names)', () => {
    const r = prng(7474);
    const globPieces = ['*', '*', '?', 'a', 'b', '.', 'x', '-', '/', 'é', '\ud83d\ude00', 'env', 'id_', '[ab]', '\\*', '**'];
    const namePieces = ['a', 'b', '.', 'x', '-', '/', 'é', '\ud83d\ude00', 'env', 'id_', 'rsa', '*', '?', ''];
    const pick = (xs: readonly string[]): string => xs[Math.floor(r() * xs.length)]!;
    const differences: string[] = [];
    for (let i = 0; i < 3000; i++) {
      let glob = '';
      for (let k = Math.floor(r() * 6); k >= 0; k--) glob += pick(globPieces);
      for (let j = 0; j < 20; j++) {
        let name = '';
        for (let k = Math.floor(r() * 7); k >= 0; k--) name += pick(namePieces);
        const [fast, full] = bothWays(() => globMatcher(glob)(name));
        if (fast !== full) differences.push(`${glob} ~ ${name}: ${fast} vs ${full}`);
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
  });
});

describe('a remembered reading of a command answers only for the same words', () => {
  it('attack: a word list reused as a buffer is read again when its words change', () => {
    const words = ['ls', '-la'];
    expect(resolveCommand(words).executable).toBe('ls');
    words[0] = 'sudo';
    words[1] = 'rm';
    expect(resolveCommand(words).executable).toBe('rm');
    words.push('-rf');
    expect(resolveCommand(words).args).toEqual(['-rf']);
    words.length = 1;
    expect(resolveCommand(words).executable).toBe('sudo');
  });

  it('attack: env -S splices its words into the reading, not into the list it was given', () => {
    const words = ['env', '-S', 'sudo rm -rf /'];
    const first = resolveCommand(words);
    expect(first.executable).toBe('rm');
    expect(words).toEqual(['env', '-S', 'sudo rm -rf /']);
    expect(resolveCommand(words)).toBe(first);
    words[2] = 'ls';
    expect(resolveCommand(words).executable).toBe('ls');
  });

  it('gives the same reading as a fresh list of the same words, for every part of the golden lines', { timeout: 300_000 }, () => {
    const differences: string[] = [];
    for (const line of goldenLines()) {
      for (const p of parseLine(line).parts as Part[]) {
        const remembered = (resolveCommand(p.words), resolveCommand(p.words));
        const fresh = resolveCommand([...p.words]);
        if (JSON.stringify(remembered) !== JSON.stringify(fresh)) differences.push(line);
      }
      if (differences.length >= 10) break;
    }
    expect(differences).toEqual([]);
  });
});
