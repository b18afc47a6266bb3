import { describe, expect, it } from 'vitest';
import { compileLinear, linearOrNull, linearRegexProblem } from '../../src/util/linear-regex.js';

describe('linear-time regular expressions', () => {
  it('matches like RegExp#test for ordinary JavaScript patterns', () => {
    const cases: Array<[string, string, boolean]> = [
      ['secret', 'cat secret.txt', true],
      ['^ls\\b', 'ls -la', true],
      ['^ls\\b', 'lsof', false],
      ['rm\\s+-rf\\s+/$', 'rm -rf /', true],
      ['\\u00e9', 'café', true],
      ['[^]', 'x', true],
      ['(?<name>ab)+c', 'ababc', true],
      ['\\x60', 'a`b', true],
      ['a{2,3}', 'caab', true],
      ['a{2,3}', 'cab', false],
    ];
    for (const [source, text, expected] of cases) {
      expect(compileLinear(source).test(text), `${source} on ${text}`).toBe(expected);
      expect(new RegExp(source).test(text)).toBe(expected);
    }
  });

  it('ignores case when asked', () => {
    expect(compileLinear('SUDO', { ignoreCase: true }).test('sudo ls')).toBe(true);
    expect(compileLinear('SUDO').test('sudo ls')).toBe(false);
  });

  it('refuses what cannot run in linear time, saying why', () => {
    expect(linearRegexProblem('(?=a)b')).toMatch(/lookahead/);
    expect(linearRegexProblem('(?!a)b')).toMatch(/lookahead/);
    expect(linearRegexProblem('(?<=a)b')).toMatch(/lookbehind/);
    expect(linearRegexProblem('(?<!a)b')).toMatch(/lookbehind/);
    expect(linearRegexProblem('(a)\\1')).toMatch(/backreference/);
    expect(linearRegexProblem('(?<n>a)\\k<n>')).toMatch(/backreference/);
    expect(linearRegexProblem('[\\b]')).toMatch(/linear-time engine/);
    expect(linearRegexProblem('(')).toBeDefined();
    expect(linearOrNull('(?=a)')).toBeNull();
  });

  it('does not mistake an escaped backslash before a digit for a backreference', () => {
    expect(linearRegexProblem('\\\\1')).toBeUndefined();
    expect(compileLinear('\\\\1').test('a\\1')).toBe(true);
    expect(linearRegexProblem('[\\1]')).not.toMatch(/backreference/);
  });

  it('catastrophic-backtracking shapes stay fast (the ReDoS classics on 16 KiB)', () => {
    // Explicit issue requirement (#12.4): a bound per decision, generous to stay robust under load.
    const shapes: Array<[string, string]> = [
      ['(a+)+$', 'a'.repeat(16384) + 'b'],
      ['^(a|aa)+$', 'a'.repeat(16384) + 'b'],
      ['(x+x+)+y', 'x'.repeat(16384)],
      ['(\\w+\\s?)+$', 'sa '.repeat(5461) + '!'],
      ['^(["\']?[^"\']*["\']?)*z$', '"\''.repeat(8192)],
    ];
    for (const [source, text] of shapes) {
      const re = compileLinear(source);
      const t = performance.now();
      expect(re.test(text)).toBe(false);
      expect(performance.now() - t, source).toBeLessThan(1000);
    }
  });
});
