// analyzeLine and decisionFor: policy first, parts classified, the line's level, and the decision per threshold.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { initParser } from '../../src/gate/parse.js';
import { defaultConfig } from '../../src/config/schema.js';
import type { Threshold } from '../../src/core/levels.js';

const config = defaultConfig();

beforeAll(async () => {
  await initParser();
});

describe('analyzeLine', () => {
  it.each(['', '   ', '\n\t'])('refuses an empty line %j with a clear reason, without parsing', (line) => {
    const a = analyzeLine(line, config, '/tmp');
    expect(a).toEqual({ command: line, policy: 'denied', policyReason: 'empty command', parts: [], level: 'safe' });
    expect(decisionFor(a, 'moderate')).toBe('deny');
  });

  it('takes the highest part level as the line level', () => {
    const a = analyzeLine('ls; touch a; git status', config, '/tmp');
    expect(a.parts.map((p) => p.level)).toEqual(['safe', 'moderate', 'safe']);
    expect(a.level).toBe('moderate');
    expect(a.policy).toBe('allowed');
    expect(a.policyReason).toBeUndefined();
  });

  it('still lists the parts of a line the policy denied', () => {
    const a = analyzeLine('ls && sudo rm -rf /', config, '/tmp');
    expect(a.policy).toBe('denied');
    expect(a.policyReason).toMatch(/root/);
    expect(a.policyRule).toBe('privilege');
    expect(a.parts.map((p) => p.executable)).toEqual(['ls', 'rm']);
  });

  it('a comment-only line has no parts and would run', () => {
    const a = analyzeLine('# just a note', config, '/tmp');
    expect(a.parts).toEqual([]);
    expect(decisionFor(a, 'moderate')).toBe('run');
  });

  it('applies operator rules from the config', () => {
    const withRule = { policy: { ...config.policy, rules: [{ match: '^ls', level: 'dangerous' as const, ask: 'List?' }] } };
    const a = analyzeLine('ls', withRule, '/tmp');
    expect(a.level).toBe('dangerous');
    expect(a.parts[0]!.ask).toBe('List?');
  });

  it('applies a rule written against the whole line to its parts', () => {
    const withRule = { policy: { ...config.policy, rules: [{ match: 'cat .* \\| wc', level: 'moderate' as const }] } };
    expect(analyzeLine('cat a | wc -l', withRule, '/tmp').level).toBe('moderate');
  });
});

describe('decisionFor', () => {
  const at = (line: string, threshold: Threshold) => decisionFor(analyzeLine(line, config, '/tmp'), threshold);

  it.each([
    ['ls', 'safe', 'ask'],
    ['ls', 'moderate', 'run'],
    ['touch a', 'moderate', 'ask'],
    ['touch a', 'dangerous', 'run'],
    ['git push --force', 'dangerous', 'ask'],
    ['git push --force', 'never', 'run'],
    ['sudo ls', 'never', 'deny'],
  ] as const)('%s at %s → %s', (line, threshold, expected) => {
    expect(at(line, threshold)).toBe(expected);
  });
});
