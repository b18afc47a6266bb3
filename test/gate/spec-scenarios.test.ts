// wisp-spec §8 as table-driven tests: default policy, rules only, threshold moderate, cwd /tmp.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine, decisionFor } from '../../src/gate/analyze.js';
import { BUILTIN_DENY } from '../../src/gate/deny.js';
import { initParser } from '../../src/gate/parse.js';
import { levelRank } from '../../src/core/levels.js';
import { defaultConfig } from '../../src/config/schema.js';
import {
  DEFAULT_ALLOWED,
  DEFAULT_DENIED,
  LEVEL_DANGEROUS,
  LEVEL_MODERATE,
  LEVEL_SAFE,
  LEVEL_SAFE_IN_SPEC_BUT_RUNS_CODE,
  SCENARIOS,
} from './spec-vectors.js';

const config = defaultConfig();
const analyze = (line: string) => analyzeLine(line, config, '/tmp', { home: '/home/person' });

beforeAll(async () => {
  await initParser();
});

describe('§8 scenario table', () => {
  it.each(SCENARIOS.map((s) => [s.line, s] as const))('%s', (_line, row) => {
    const a = analyze(row.line);
    expect(a.parts.map((p) => p.executable)).toEqual(row.executables);
    if (row.asked === 'DENIED') {
      expect(a.policy).toBe('denied');
      expect(decisionFor(a, 'moderate')).toBe('deny');
      return;
    }
    expect(a.policy).toBe('allowed');
    const asked = a.parts.filter((p) => levelRank(p.level) >= levelRank('moderate')).map((p) => p.pattern);
    expect(asked).toEqual(row.asked);
    expect(decisionFor(a, 'moderate')).toBe(row.asked.length > 0 ? 'ask' : 'run');
  });
});

describe('§8 rule levels', () => {
  it.each(LEVEL_SAFE)('safe: %s', (line) => {
    const a = analyze(line);
    expect(a.level).toBe('safe');
    expect(a.parts.every((p) => p.knownSafe)).toBe(true);
  });

  // design.md §3 wins over the spec's list: builds and tests run project code, so they are asked once.
  it.each(LEVEL_SAFE_IN_SPEC_BUT_RUNS_CODE)('moderate (runs project code): %s', (line) => {
    const a = analyze(line);
    expect(a.level).toBe('moderate');
    expect(a.parts[0]!.reasons.join(' ')).toMatch(/runs project code/);
    expect(a.parts[0]!.knownSafe).toBe(false);
  });

  it.each(LEVEL_MODERATE)('moderate: %s', (line) => {
    expect(analyze(line).level).toBe('moderate');
  });

  it.each(LEVEL_DANGEROUS)('dangerous: %s', (line) => {
    expect(analyze(line).level).toBe('dangerous');
  });
});

describe('§8 default deny list', () => {
  it.each(DEFAULT_DENIED)('denied: %s', (line) => {
    const a = analyze(line);
    expect(a.policy).toBe('denied');
    // Built-in entries refuse with their sentence and name (docs/trust.md), never a regex.
    expect(BUILTIN_DENY.map((e) => e.sentence)).toContain(a.policyReason);
    expect(BUILTIN_DENY.map((e) => e.name)).toContain(a.policyRule);
  });

  it.each(DEFAULT_ALLOWED)('allowed by policy: %s', (line) => {
    expect(analyze(line).policy).toBe('allowed');
  });
});

describe('§8 allow list with a deny pattern', () => {
  const custom = { policy: { deny: ['secret'], allow: ['^swift ', '^ls'], rules: [] } };

  it('refuses a part outside the allow list with the exact reason', () => {
    const a = analyzeLine('cat x', custom, '/tmp');
    expect(a.policy).toBe('denied');
    expect(a.policyReason).toBe("matches none of the operator's allow patterns (policy.allow)");
  });

  it('refuses an allowed program when a deny pattern matches, naming the pattern', () => {
    const a = analyzeLine('swift secret', custom, '/tmp');
    expect(a.policy).toBe('denied');
    expect(a.policyReason).toBe("matches the operator's deny pattern policy.deny[0] `secret`");
    expect(a.policyRule).toBe('policy.deny[0]');
  });

  it('allows a line whose every part is covered', () => {
    expect(analyzeLine('swift build && ls -la', custom, '/tmp').policy).toBe('allowed');
  });

  it('checks every part, not only the first', () => {
    expect(analyzeLine('ls; cat x', custom, '/tmp').policyReason).toBe("matches none of the operator's allow patterns (policy.allow)");
  });
});
