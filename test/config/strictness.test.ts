// config/strictness.ts is the one table of which way each key loosens. These tests hold its two readers to it: the
// project-layer merge refuses exactly the loosening `wisp config set` names (and the bounds ADR 0010 keeps silent),
// so the two cannot drift apart again.
import { describe, expect, it } from 'vitest';
import { applyProjectLayer } from '../../src/config/merge.js';
import { setPath } from '../../src/config/key-path.js';
import { ConfigSchema, defaultConfig, type Config } from '../../src/config/schema.js';
import { loosens, STRICTNESS } from '../../src/config/strictness.js';
import { weakenings } from '../../src/config/weaken.js';

/** For every row: a strict value and a looser one (both valid). A new row without an example fails below. */
const EXAMPLES: Record<string, { strict: unknown; loose: unknown }> = {
  'approval.threshold': { strict: 'safe', loose: 'dangerous' },
  'approval.persistDays': { strict: 3, loose: 60 },
  'escalation.channel': { strict: 'terminal', loose: 'auto' },
  'sandbox.enabled': { strict: true, loose: false },
  'sandbox.allowNetwork': { strict: false, loose: true },
  'sandbox.writablePaths': { strict: ['/tmp/a'], loose: ['/tmp/a', '/srv'] },
  'policy.deny': { strict: ['curl', 'wget'], loose: ['curl'] },
  'policy.allow': { strict: ['^ls'], loose: ['^ls', '^rm'] },
  'policy.rules': { strict: [{ match: 'curl', level: 'dangerous' }], loose: [] },
  'tools.disabled': { strict: ['run_command'], loose: [] },
  'audit.keepFiles': { strict: 10, loose: 2 },
  'audit.maxFileBytes': { strict: 10_000_000, loose: 100_000 },
  'escalation.timeoutSeconds': { strict: 60, loose: 0 },
  'escalation.pendingSeconds': { strict: 60, loose: 600 },
  'commands.timeoutSeconds': { strict: 30, loose: 300 },
  'commands.maxOutputBytes': { strict: 1000, loose: 100_000 },
  'tools.maxRounds': { strict: 4, loose: 40 },
  'ollama.timeoutSeconds': { strict: 30, loose: 300 },
  'openai.timeoutSeconds': { strict: 30, loose: 300 },
  'notifications.enabled': { strict: false, loose: true },
};

/** Keys a project may only lower but whose raising `config set` does not call a weakening (ADR 0010). */
const BOUNDS = [
  'escalation.timeoutSeconds',
  'escalation.pendingSeconds',
  'commands.timeoutSeconds',
  'commands.maxOutputBytes',
  'tools.maxRounds',
  'ollama.timeoutSeconds',
  'openai.timeoutSeconds',
  'notifications.enabled',
];

const configWith = (key: string, value: unknown): Config =>
  ConfigSchema.parse(setPath(defaultConfig() as unknown as Record<string, unknown>, key, value));
const layerWith = (key: string, value: unknown): Record<string, unknown> => setPath({}, key, value);
const example = (key: string): { strict: unknown; loose: unknown } => {
  const e = EXAMPLES[key];
  if (e === undefined) throw new Error(`no example for ${key}`);
  return e;
};

describe('the strictness table', () => {
  it('has an example for every row and one row per key', () => {
    const keys = STRICTNESS.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  it('the keys without a phrase are exactly the bounds ADR 0010 names', () => {
    expect(STRICTNESS.filter((r) => r.effect === 'bound').map((r) => r.key).sort()).toEqual([...BOUNDS].sort());
  });

  it.each(STRICTNESS.map((r) => [r.key, r] as const))('%s: the loose example loosens, nothing else does', (key, row) => {
    const { strict, loose } = example(key);
    expect(loosens(row.compare, strict, loose)).toBe(true);
    expect(loosens(row.compare, loose, strict)).toBe(false);
    expect(loosens(row.compare, strict, strict)).toBe(false);
    expect(loosens(row.compare, loose, loose)).toBe(false);
  });
});

describe('the merge and `config set` read the same direction', () => {
  it.each(STRICTNESS.map((r) => [r.key, r] as const))('%s', (key, row) => {
    const { strict, loose } = example(key);
    const said = weakenings(configWith(key, strict), configWith(key, loose));
    // `config set` names a loosening of every key with a phrase, and of no bound.
    if (row.effect === 'gate') {
      expect(said).toHaveLength(1);
      expect(said[0]?.startsWith(key) || said[0]?.startsWith(key.split('.')[0] + ':')).toBe(true);
    } else {
      expect(said).toEqual([]);
    }
    expect(weakenings(configWith(key, loose), configWith(key, strict))).toEqual([]);

    // A project cannot make the change `config set` would warn about (nor loosen a bound).
    const merged = applyProjectLayer(configWith(key, strict), layerWith(key, loose), 'repo/.wisprc.json');
    const after = ConfigSchema.parse(merged.value);
    expect(weakenings(configWith(key, strict), after)).toEqual([]);
    expect(loosens(row.compare, strict, key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], after))).toBe(false);
    if (row.project === 'tighten') expect(merged.warnings.join('\n')).toMatch(/may only tighten the gate/);
    if (row.project === 'user-only') expect(merged.warnings.join('\n')).toMatch(/may not set it/);

    // And every key a project may set at all, it may set the strict way.
    if (row.project !== 'user-only') {
      const tightened = applyProjectLayer(configWith(key, loose), layerWith(key, strict), 'repo/.wisprc.json');
      expect(tightened.warnings).toEqual([]);
      expect(weakenings(configWith(key, loose), ConfigSchema.parse(tightened.value))).toEqual([]);
    }
  });

  it('a key with no row is the user\'s alone', () => {
    const merged = applyProjectLayer(defaultConfig(), { model: 'script:evil.json' }, 'repo/.wisprc.json');
    expect(merged.warnings.join('\n')).toMatch(/ignored model from repo\/\.wisprc\.json: a project config may not set it/);
    expect(STRICTNESS.some((r) => r.key === 'model')).toBe(false);
  });
});
