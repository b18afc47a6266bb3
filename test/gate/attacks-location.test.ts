// The location allow-list (ADR 0063): a read-only part runs unasked only when every word that names a file lies in
// the project or in a system location that holds no user secrets. Each attack is named after what it reads and how;
// ordinary reads of the project and of system files still run.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser } from '../../src/gate/parse.js';
import { LOCATION_ATTACKS, ORDINARY_LOCATIONS, OUTSIDE_CWD_ATTACKS } from './attacks.js';

const PROJECT = '/home/person/project';
const HOME = '/home/person';
const config = defaultConfig();
const analyse = (line: string, cwd = PROJECT, project = PROJECT) => analyzeLine(line, config, cwd, { home: HOME, project });
const explain = (a: ReturnType<typeof analyse>) => a.parts.map((p) => `${p.text}: ${p.reasons.join('; ')}`).join(' | ');

beforeAll(async () => {
  await initParser();
});

describe('reads outside the project or of secrets are asked about', () => {
  it.each(LOCATION_ATTACKS.map((a) => [a.name, a.line] as const))('%s: %s', (_name, line) => {
    const a = analyse(line);
    expect(decisionFor(a, 'moderate'), explain(a)).not.toBe('run');
  });
});

describe('a command run outside the project (workingDirectory) reads outside it', () => {
  it.each(OUTSIDE_CWD_ATTACKS.map((a) => [a.name, a.line] as const))('%s: %s', (_name, line) => {
    const a = analyse(line, HOME);
    expect(decisionFor(a, 'moderate'), explain(a)).not.toBe('run');
  });

  it('the same lines run in the project', () => {
    for (const line of ['cat notes.txt', 'grep -r needle src', 'ls -la']) expect(decisionFor(analyse(line), 'moderate'), line).toBe('run');
  });

  it('a command run in a system folder reads it', () => {
    expect(decisionFor(analyse('ls -la', '/usr/share'), 'moderate')).toBe('run');
    expect(decisionFor(analyse('grep -r x', '/etc'), 'moderate')).not.toBe('run');
  });
});

describe('reads of the project and of system files still run', () => {
  it.each(ORDINARY_LOCATIONS)('%s', (line) => {
    const a = analyse(line);
    expect(decisionFor(a, 'moderate'), explain(a)).toBe('run');
  });
});

describe('the project may lie anywhere, and its own secrets and hidden home folders stay out of reach', () => {
  it('a project that is the home folder: its hidden folders are not the project', () => {
    const inHome = (line: string) => decisionFor(analyzeLine(line, config, HOME, { home: HOME, project: HOME }), 'moderate');
    expect(inHome('cat notes.txt')).toBe('run');
    for (const line of ['cat .m2/settings.xml', 'grep -r x .', 'cat .bash_history', 'cd .config && cat gh/hosts.yml', 'ls snap/firefox']) {
      expect(inHome(line), line).not.toBe('run');
    }
  });

  it('a project inside a hidden home folder (~/.config/nvim) is still the project', () => {
    const project = `${HOME}/.config/nvim`;
    const decide = (line: string) => decisionFor(analyzeLine(line, config, project, { home: HOME, project }), 'moderate');
    expect(decide('cat init.lua')).toBe('run');
    expect(decide('grep -r map lua')).toBe('run');
    expect(decide('cat ../gh2/hosts.yml')).not.toBe('run');
  });

  it('a project under /tmp reads itself, not the rest of /tmp', () => {
    const project = '/tmp/w1';
    const decide = (line: string) => decisionFor(analyzeLine(line, config, project, { home: HOME, project }), 'moderate');
    expect(decide('cat a.txt')).toBe('run');
    expect(decide('cat /tmp/w1/a.txt')).toBe('run');
    expect(decide('cat /tmp/other/a.txt')).not.toBe('run');
  });

  it('a project at the root reaches no home, /proc or /etc secret', () => {
    const decide = (line: string) => decisionFor(analyzeLine(line, config, '/', { home: HOME, project: '/' }), 'moderate');
    expect(decide('cat usr/share/dict/words')).toBe('run');
    for (const line of ['cat home/person/notes', 'cat proc/self/cmdline', 'cat etc/shadow', 'grep -r x .', 'grep -r x etc']) {
      expect(decide(line), line).not.toBe('run');
    }
  });
});
