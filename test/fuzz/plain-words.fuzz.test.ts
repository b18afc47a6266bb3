// Issue #16.1, ADR 0040: the plain-word path decides exactly as tree-sitter does. A few thousand generated lines
// here; test/stress/fuzz.stress.test.ts runs hundreds of thousands. Also: the path is taken only by the lines it is
// meant for, and `withoutParser` (what `wisp check` uses) gives the parser-backed answer or loads the parser.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser, isPlainLine, treeSitterOnly } from '../../src/gate/parse.js';
import { prng } from '../helpers/prng.js';
import { lazyAnswers } from './lazy-mode.js';
import { plainishLine, plainPathAgrees } from './plain-words.js';

const LINES = Number(process.env.WISP_PLAIN_LINES ?? '3000');

beforeAll(async () => {
  await initParser();
});

describe('the plain-word path', () => {
  it(`gives the tree-sitter analysis for every plain line of ${LINES} generated ones`, () => {
    const { plain } = plainPathAgrees(LINES, 16001);
    // Most generated lines are plain: the comparison is not vacuous.
    expect(plain).toBeGreaterThan(LINES / 4);
  });

  it('takes the everyday read-only lines and nothing with shell syntax', () => {
    for (const line of ['ls', 'git status', 'git log --oneline -5', 'npm ls', '  ls\t-la  ', 'git log --format=%h', 'node --version']) {
      expect(isPlainLine(line), line).toBe(true);
    }
    for (const line of [
      '', ' ', 'ls | wc', 'ls; rm x', 'ls && x', 'echo $HOME', "echo 'a'", 'echo "a"', 'ls *', 'ls ~', 'a\\ b', 'ls # c', 'ls\nrm x',
      'ls > f', 'FOO=1 ls', 'if true', 'export A', 'declare -n x', 'unset PATH', 'time ls', 'echo =x', 'a%b', 'user@host', 'x:y ls',
      'echo a+:b', '`ls`', '$(ls)', 'ls\r', 'ls\u00a0-la', '{ ls; }', '[ -d x ]', '! ls',
    ]) {
      expect(isPlainLine(line), JSON.stringify(line)).toBe(false);
    }
  });

  it('a plain line whose program runs another body (sh -c, eval, find -exec, watch) still agrees', () => {
    const config = defaultConfig();
    for (const line of ['sh -c ls', 'bash -c if', 'eval rm -rf /', 'find . -exec rm -rf / +', 'watch git status', 'ssh host sudo ls', 'trap ls EXIT', 'sudo ls', 'env sh -c sudo']) {
      const fast = analyzeLine(line, config, '/w');
      const slow = treeSitterOnly(() => analyzeLine(line, config, '/w'));
      expect(fast, line).toStrictEqual(slow);
    }
  });
});

describe('withoutParser (wisp check)', () => {
  it('answers without loading the parser only when the answer needs none, and then as the parser would', async () => {
    const r = prng(16002);
    const lines = ['ls', 'sh -c if', 'ls | wc', 'eval echo'];
    for (let i = 4; i < 600; i++) lines.push(plainishLine(r));
    const { answered, loaded, parserLoaded } = await lazyAnswers(lines, () => true);
    expect(parserLoaded).toBe(false);
    expect(answered).toBeGreaterThan(100);
    expect(loaded).toBeGreaterThan(10);
  });
});
