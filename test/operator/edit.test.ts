// src/config/edit.ts and its pieces (keys.ts, value.ts, key-path.ts, weaken.ts): key lookup and suggestions, type-directed parsing, the weakening analysis, and editConfig's
// promise that nothing is written unless the whole result validates.
import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configJsonSchema, configKeys, leafKeys, requireKey, suggestKeys } from '../../src/config/keys.js';
import { editConfig } from '../../src/config/edit.js';
import { editDistance } from '../../src/util/edit-distance.js';
import { parseValue } from '../../src/config/value.js';
import { setPath, unsetPath } from '../../src/config/key-path.js';
import { weakenings } from '../../src/config/weaken.js';
import { ConfigSchema, defaultConfig } from '../../src/config/schema.js';
import { ConfigError } from '../../src/core/errors.js';

const tmpFile = (content?: string): string => {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-edit-'));
  const file = join(dir, 'config.json');
  if (content !== undefined) writeFileSync(file, content, { mode: 0o600 });
  return file;
};

describe('config keys', () => {
  it('lists every section and leaf of the schema, with types and defaults', () => {
    const keys = configKeys().map((k) => k.key);
    expect(keys).toContain('approval');
    expect(keys).toContain('approval.threshold');
    expect(keys).toContain('sandbox.writablePaths');
    const threshold = requireKey('approval.threshold');
    expect(threshold).toMatchObject({ type: 'enum', options: ['safe', 'moderate', 'dangerous', 'never'], default: 'moderate' });
    expect(requireKey('escalation.timeoutSeconds')).toMatchObject({ type: 'integer', minimum: 0, maximum: 86400, default: 600 });
    expect(requireKey('escalation.channel').default).toBeUndefined();
    expect(leafKeys().every((k) => !k.section)).toBe(true);
  });

  it('every leaf key resolves in a parsed default config (except optional ones without a default)', () => {
    const config = defaultConfig() as unknown as Record<string, unknown>;
    for (const k of leafKeys()) {
      // Keys nest to any depth (models.download.name).
      const v = k.key.split('.').reduce<unknown>((o, part) => (o as Record<string, unknown> | undefined)?.[part], config);
      if (k.default !== undefined) expect(v, k.key).toEqual(k.default);
    }
  });

  it('suggests the nearest keys for a typo, a missing section or a partial name', () => {
    expect(suggestKeys('approval.treshold')[0]).toBe('approval.threshold');
    expect(suggestKeys('threshold')).toContain('approval.threshold');
    expect(suggestKeys('escalation.timeout')).toContain('escalation.timeoutSeconds');
    expect(suggestKeys('sandbox.network')).toContain('sandbox.allowNetwork');
    expect(suggestKeys('zzzzzzzzzz')).toEqual([]);
  });

  it('an unknown key is a ConfigError (exit 64) naming suggestions', () => {
    try {
      requireKey('aproval.threshold');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).exitCode).toBe(64);
      expect((err as Error).message).toMatch(/unknown config key 'aproval.threshold'; did you mean approval.threshold/);
    }
  });

  it('edit distance counts a transposition as one edit', () => {
    expect(editDistance('timeout', 'tiemout')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('parseValue', () => {
  it('reads each type', () => {
    expect(parseValue(requireKey('escalation.timeoutSeconds'), '30')).toBe(30);
    expect(parseValue(requireKey('sandbox.enabled'), 'false')).toBe(false);
    expect(parseValue(requireKey('sandbox.enabled'), 'on')).toBe(true);
    expect(parseValue(requireKey('approval.threshold'), 'safe')).toBe('safe');
    expect(parseValue(requireKey('model'), 'script:./a.json')).toBe('script:./a.json');
    expect(parseValue(requireKey('model'), '"ollama:x"')).toBe('ollama:x');
    expect(parseValue(requireKey('sandbox.writablePaths'), '["/a", "~/b"]')).toEqual(['/a', '~/b']);
    expect(parseValue(requireKey('approval'), '{"threshold":"safe"}')).toEqual({ threshold: 'safe' });
  });

  it.each([
    ['approval.threshold', 'loud', /'loud' is not one of safe, moderate, dangerous, never/],
    ['escalation.timeoutSeconds', 'abc', /'abc' is not a number \(0–86400\)/],
    ['escalation.timeoutSeconds', '1.5', /not a whole number/],
    ['escalation.timeoutSeconds', '999999', /out of range \(0–86400\)/],
    ['approval.persistDays', '0', /out of range \(1–365\)/],
    ['sandbox.enabled', 'maybe', /not true or false/],
    ['sandbox.writablePaths', '/tmp/x', /takes JSON array/],
    ['sandbox.writablePaths', '{"a":1}', /expected a JSON array/],
  ])('%s %s is refused', (key, value, why) => {
    expect(() => parseValue(requireKey(key), value)).toThrow(why);
  });
});

describe('paths', () => {
  it('setPath creates sections and leaves the input alone', () => {
    const a = { approval: { threshold: 'safe' } };
    const b = setPath(a, 'sandbox.enabled', false);
    expect(b).toEqual({ approval: { threshold: 'safe' }, sandbox: { enabled: false } });
    expect(a).toEqual({ approval: { threshold: 'safe' } });
  });
  it('unsetPath removes a key and a section it leaves empty', () => {
    expect(unsetPath({ approval: { threshold: 'safe' }, model: 'x' }, 'approval.threshold')).toEqual({ model: 'x' });
    expect(unsetPath({ approval: { threshold: 'safe', persistDays: 3 } }, 'approval.threshold')).toEqual({ approval: { persistDays: 3 } });
    expect(unsetPath({ model: 'x' }, 'approval.threshold')).toEqual({ model: 'x' });
  });
});

describe('weakenings', () => {
  const base = defaultConfig();
  const with_ = (patch: Record<string, unknown>) => ConfigSchema.parse(patch);
  it('names each way a change loosens the gate', () => {
    expect(weakenings(base, with_({ approval: { threshold: 'dangerous' } }))[0]).toMatch(/approval.threshold moderate → dangerous/);
    expect(weakenings(base, with_({ approval: { threshold: 'never' } }))[0]).toMatch(/nothing is asked/);
    expect(weakenings(base, with_({ approval: { persistDays: 90 } }))[0]).toMatch(/persistDays 30 → 90/);
    expect(weakenings(base, with_({ sandbox: { enabled: false } }))[0]).toMatch(/unconfined/);
    expect(weakenings(with_({ sandbox: { allowNetwork: false } }), base)[0]).toMatch(/network/);
    expect(weakenings(base, with_({ sandbox: { writablePaths: ['/srv'] } }))[0]).toMatch(/write to \/srv/);
    expect(weakenings(with_({ policy: { deny: ['curl'] } }), base)[0]).toMatch(/deny patterns? removed/);
    expect(weakenings(with_({ policy: { allow: ['^ls'] } }), base)[0]).toMatch(/allow emptied/);
    expect(weakenings(with_({ policy: { allow: ['^ls'] } }), with_({ policy: { allow: ['^ls', '^git'] } }))[0]).toMatch(/more commands pass/);
    expect(weakenings(with_({ policy: { rules: [{ match: 'curl', level: 'dangerous' }] } }), base)[0]).toMatch(/1 rule removed/);
    expect(weakenings(base, with_({ escalation: { channel: 'auto' } }))[0]).toMatch(/without asking/);
    expect(weakenings(with_({ tools: { disabled: ['run_command'] } }), base)[0]).toMatch(/gets run_command again/);
  });
  it('says nothing for a change that tightens or is neutral, including longer timeouts', () => {
    expect(weakenings(base, with_({ approval: { threshold: 'safe' } }))).toEqual([]);
    expect(weakenings(base, with_({ sandbox: { allowNetwork: false } }))).toEqual([]);
    expect(weakenings(base, with_({ escalation: { timeoutSeconds: 3600 } }))).toEqual([]);
    expect(weakenings(base, with_({ commands: { timeoutSeconds: 600 } }))).toEqual([]);
    expect(weakenings(base, with_({ policy: { deny: [...base.policy.deny, 'curl'] } }))).toEqual([]);
    expect(weakenings(base, with_({ model: 'script:x.json' }))).toEqual([]);
  });
});

describe('editConfig', () => {
  it('sets a value, writes 0600 and reports before/after', () => {
    const file = tmpFile();
    const seen: unknown[] = [];
    const change = editConfig({ file, key: 'escalation.timeoutSeconds', value: '30', action: 'set', beforeWrite: (c) => seen.push(c.after) });
    expect(change).toMatchObject({ before: 600, after: 30, changed: true, weakens: [] });
    expect(seen).toEqual([30]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ escalation: { timeoutSeconds: 30 } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps the rest of the file and unsets back to the default', () => {
    const file = tmpFile(JSON.stringify({ model: 'script:a.json', approval: { threshold: 'safe' } }));
    const change = editConfig({ file, key: 'approval.threshold', action: 'unset' });
    expect(change).toMatchObject({ before: 'safe', after: 'moderate', fileBefore: 'safe', changed: true });
    expect(change.weakens[0]).toMatch(/safe → moderate/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'script:a.json' });
  });

  it('writes nothing when the value is invalid, the key unknown, or the file malformed', () => {
    const file = tmpFile();
    expect(() => editConfig({ file, key: 'approval.threshold', value: 'loud', action: 'set' })).toThrow(ConfigError);
    expect(() => editConfig({ file, key: 'approval.treshold', value: 'safe', action: 'set' })).toThrow(/did you mean approval.threshold/);
    expect(() => editConfig({ file, key: 'policy.deny', value: '["("]', action: 'set' })).toThrow(/invalid value for policy.deny: .*regular expression/);
    expect(existsSync(file)).toBe(false);
    const broken = tmpFile('{"approval": {');
    expect(() => editConfig({ file: broken, key: 'approval.threshold', value: 'safe', action: 'set' })).toThrow(/malformed JSON in .*config.json/);
    expect(readFileSync(broken, 'utf8')).toBe('{"approval": {');
  });

  it('an audit failure before the write leaves the file untouched', () => {
    const file = tmpFile(JSON.stringify({ approval: { threshold: 'safe' } }));
    expect(() =>
      editConfig({ file, key: 'approval.threshold', value: 'never', action: 'set', beforeWrite: () => { throw new Error('audit down'); } }),
    ).toThrow('audit down');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ approval: { threshold: 'safe' } });
  });

  it('an edit that changes nothing writes and audits nothing', () => {
    const file = tmpFile(JSON.stringify({ approval: { threshold: 'safe' } }));
    let called = false;
    const change = editConfig({ file, key: 'approval.threshold', value: 'safe', action: 'set', beforeWrite: () => { called = true; } });
    expect(change.changed).toBe(false);
    expect(called).toBe(false);
  });

  it('keeps a "$schema" editor hint through an edit', () => {
    const file = tmpFile(JSON.stringify({ $schema: './config.schema.json', model: 'script:a.json' }));
    editConfig({ file, key: 'approval.threshold', value: 'safe', action: 'set' });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ $schema: './config.schema.json', model: 'script:a.json', approval: { threshold: 'safe' } });
  });

  it('can repair a file that fails the schema by unsetting the bad key', () => {
    const file = tmpFile(JSON.stringify({ approval: { threshold: 'loud' }, model: 'script:a.json' }));
    const change = editConfig({ file, key: 'approval.threshold', action: 'unset' });
    expect(change.wasInvalid).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'script:a.json' });
  });
});

describe('configJsonSchema', () => {
  it('is the zod schema as JSON Schema, with $schema allowed for editors', () => {
    const s = configJsonSchema() as { properties: Record<string, { properties?: Record<string, unknown> }>; additionalProperties?: unknown };
    expect(s.properties.approval?.properties?.threshold).toMatchObject({ enum: ['safe', 'moderate', 'dangerous', 'never'], default: 'moderate' });
    expect(s.properties.$schema).toMatchObject({ type: 'string' });
    expect(s.additionalProperties).toBe(false);
  });
});
