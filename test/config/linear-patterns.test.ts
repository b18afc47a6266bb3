// Operator patterns must run in linear time (issue #12.4, ADR 0017): what the engine cannot run is refused at config
// load, naming the key; earlier versions' built-in regexes found in a config file are dropped (ADR 0018).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { LEGACY_DEFAULT_DENY } from '../../src/core/deny-defaults.js';
import { ConfigError } from '../../src/core/errors.js';

let root: string;
let home: string;
let userFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'wisp-linear-'));
  home = join(root, '.wisp');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  userFile = join(home, 'config.json');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const load = () => loadConfig({ home, cwd: root, userHome: root });
function loadError(): ConfigError {
  try {
    load();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('operator patterns the linear-time engine cannot run', () => {
  it('refuses lookahead in policy.deny, naming the key and the construct', () => {
    writeFileSync(userFile, JSON.stringify({ policy: { deny: ['ok', 'rm(?! -i)'] } }));
    const e = loadError();
    expect(e.exitCode).toBe(64);
    expect(e.message).toContain('policy.deny[1]: pattern "rm(?! -i)" cannot be used: lookahead');
  });

  it('refuses a backreference in policy.allow and lookbehind in policy.rules[].match', () => {
    writeFileSync(userFile, JSON.stringify({ policy: { allow: ['^(ls)\\1'], rules: [{ match: '(?<=x)y', level: 'dangerous' }] } }));
    const e = loadError();
    expect(e.message).toContain('policy.allow[0]: pattern "^(ls)\\\\1" cannot be used: backreference');
    expect(e.message).toContain('policy.rules[0].match: pattern "(?<=x)y" cannot be used: lookbehind');
  });

  it('accepts the classic catastrophic shapes: they run in linear time here', () => {
    writeFileSync(userFile, JSON.stringify({ policy: { deny: ['(a+)+$', '^(\\w+\\s?)+$'] } }));
    expect(load().config.policy.deny).toEqual(['(a+)+$', '^(\\w+\\s?)+$']);
  });

  it("drops earlier versions' built-in regexes written into a config file, keeping the operator's own", () => {
    writeFileSync(userFile, JSON.stringify({ policy: { deny: [...LEGACY_DEFAULT_DENY, 'frobnicate'] } }));
    expect(load().config.policy.deny).toEqual(['frobnicate']);
  });
});
