import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, loadUserConfigRaw, updateUserConfig, writeUserConfig } from '../../src/config/load.js';
import { defaultConfig } from '../../src/config/schema.js';
import { ConfigError } from '../../src/core/errors.js';

let root: string; // stands in for the person's home directory
let home: string; // $WISP_HOME
let repo: string; // a project inside the home directory
let userFile: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'wisp-config-'));
  home = join(root, '.wisp');
  repo = join(root, 'code', 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(repo, 'src'), { recursive: true });
  userFile = join(home, 'config.json');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const load = (cwd = repo) => loadConfig({ home, cwd, userHome: root });
const writeJson = (file: string, value: unknown): void => writeFileSync(file, JSON.stringify(value, null, 2));

/** The ConfigError a load throws (failing the test if it doesn't throw one). */
function loadError(cwd = repo): ConfigError {
  try {
    load(cwd);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(64);
    return err as ConfigError;
  }
  throw new Error('expected loadConfig to throw');
}

describe('layers', () => {
  it('gives the defaults when there is no config at all', () => {
    const loaded = load();
    expect(loaded.config).toEqual(defaultConfig());
    expect(loaded.warnings).toEqual([]);
    expect(loaded.userFile).toBeUndefined();
    expect(loaded.projectFile).toBeUndefined();
  });

  it('reads the user config over the defaults', () => {
    writeJson(userFile, { approval: { threshold: 'dangerous' }, escalation: { timeoutSeconds: 30 } });
    const loaded = load();
    expect(loaded.userFile).toBe(userFile);
    expect(loaded.config.approval).toEqual({ threshold: 'dangerous', persistDays: 30, classifierTimeoutSeconds: 10 });
    expect(loaded.config.escalation.timeoutSeconds).toBe(30);
    expect(loaded.config.escalation.pendingSeconds).toBe(600);
  });

  it('treats an empty file as no settings', () => {
    writeFileSync(userFile, '  \n');
    expect(load().config).toEqual(defaultConfig());
  });
});

describe('invalid files name the file and the key', () => {
  it('malformed JSON: file, line and column', () => {
    writeFileSync(userFile, '{\n  "approval": {\n    "threshold": "safe",\n  }\n}');
    expect(loadError().message).toBe(`malformed JSON in ${userFile} at line 4, column 3: Expected double-quoted property name`);
  });

  it('truncated JSON', () => {
    writeFileSync(userFile, '{"approval": {');
    expect(loadError().message).toMatch(new RegExp(`^malformed JSON in ${userFile.replace(/[.]/g, '\\.')} at line 1, column 15: `));
  });

  it('unknown enum value', () => {
    writeJson(userFile, { approval: { threshold: 'loud' } });
    expect(loadError().message).toBe(
      `invalid config in ${userFile}: approval.threshold: Invalid option: expected one of "safe"|"moderate"|"dangerous"|"never"`,
    );
  });

  it('out of range', () => {
    writeJson(userFile, { escalation: { timeoutSeconds: -1 } });
    expect(loadError().message).toBe(`invalid config in ${userFile}: escalation.timeoutSeconds: Too small: expected number to be >=0`);
  });

  it('bad regular expression in deny and in a rule', () => {
    writeJson(userFile, { policy: { deny: ['ok', '(unclosed'], rules: [{ match: '[z-a]', level: 'dangerous' }] } });
    const message = loadError().message;
    expect(message).toContain(`invalid config in ${userFile}: `);
    expect(message).toContain('policy.deny[1]: not a valid regular expression "(unclosed" (Unterminated group)');
    expect(message).toContain('policy.rules[0].match: not a valid regular expression "[z-a]"');
  });

  it('unknown keys, nested and at the top', () => {
    writeJson(userFile, { approval: { treshold: 'safe' }, colour: 'blue' });
    const message = loadError().message;
    expect(message).toContain('approval.treshold: unknown key');
    expect(message).toContain('colour: unknown key');
  });

  it('a file that is not an object', () => {
    writeFileSync(userFile, '["approval"]');
    expect(loadError().message).toBe(`invalid config in ${userFile}: expected an object of settings`);
  });

  it('errors in a project file name the project file', () => {
    writeJson(join(repo, '.wisprc.json'), { approval: { threshold: 'loud' } });
    expect(loadError(join(repo, 'src')).message).toContain(`invalid config in ${join(repo, '.wisprc.json')}: approval.threshold`);
  });

  it('malformed YAML in .wisprc names the file and the line', () => {
    writeFileSync(join(repo, '.wisprc'), 'approval:\n  threshold: [safe\n');
    expect(loadError().message).toMatch(new RegExp(`^malformed YAML in ${join(repo, '.wisprc').replace(/[.]/g, '\\.')} at line \\d+, column \\d+: `));
  });
});

describe('a project config may only tighten', () => {
  it('ignores weakening keys with a warning naming file and key', () => {
    writeJson(userFile, { sandbox: { allowNetwork: false } });
    const rc = join(repo, '.wisprc.json');
    writeJson(rc, { approval: { threshold: 'never' }, sandbox: { enabled: false, allowNetwork: true } });
    const loaded = load(join(repo, 'src'));
    expect(loaded.projectFile).toBe(rc);
    expect(loaded.config.approval.threshold).toBe('moderate');
    expect(loaded.config.sandbox.enabled).toBe(true);
    expect(loaded.config.sandbox.allowNetwork).toBe(false);
    expect(loaded.warnings).toEqual([
      `ignored approval.threshold from ${rc}: a project config may only tighten the gate`,
      `ignored sandbox.enabled from ${rc}: a project config may only tighten the gate`,
      `ignored sandbox.allowNetwork from ${rc}: a project config may only tighten the gate`,
    ]);
  });

  it('applies tightening keys', () => {
    writeJson(userFile, { sandbox: { enabled: false }, escalation: { timeoutSeconds: 0 }, policy: { deny: ['mine'] } });
    writeJson(join(repo, '.wisprc.json'), {
      approval: { threshold: 'safe', persistDays: 7 },
      escalation: { timeoutSeconds: 120, pendingSeconds: 60 },
      sandbox: { enabled: true, allowNetwork: false },
      policy: { deny: ['curl', 'mine'], rules: [{ match: '^make deploy', level: 'dangerous' }] },
      commands: { timeoutSeconds: 10 },
      tools: { disabled: ['edit_file'] },
    });
    const loaded = load();
    expect(loaded.warnings).toEqual([]);
    const c = loaded.config;
    expect(c.approval).toEqual({ threshold: 'safe', persistDays: 7, classifierTimeoutSeconds: 10 });
    expect(c.escalation).toMatchObject({ timeoutSeconds: 120, pendingSeconds: 60 });
    expect(c.sandbox).toMatchObject({ enabled: true, allowNetwork: false });
    expect(c.policy.deny).toEqual(['mine', 'curl']); // added to the user's, never replacing them
    expect(c.policy.rules).toEqual([{ match: '^make deploy', level: 'dangerous' }]);
    expect(c.commands.timeoutSeconds).toBe(10);
    expect(c.tools.disabled).toEqual(['edit_file']);
  });

  it('keeps the default deny list when a project adds patterns', () => {
    writeJson(join(repo, '.wisprc.json'), { policy: { deny: ['terraform apply'] } });
    const deny = load().config.policy.deny;
    expect(deny).toEqual([...defaultConfig().policy.deny, 'terraform apply']);
  });

  it('orders thresholds by strictness: safe > moderate > dangerous > never', () => {
    const rc = join(repo, '.wisprc.json');
    const cases: Array<[user: string, project: string, result: string]> = [
      ['moderate', 'safe', 'safe'],
      ['dangerous', 'moderate', 'moderate'],
      ['never', 'dangerous', 'dangerous'],
      ['moderate', 'dangerous', 'moderate'],
      ['safe', 'moderate', 'safe'],
      ['dangerous', 'never', 'dangerous'],
    ];
    for (const [user, project, result] of cases) {
      writeJson(userFile, { approval: { threshold: user } });
      writeJson(rc, { approval: { threshold: project } });
      expect(load().config.approval.threshold, `${user} + ${project}`).toBe(result);
    }
  });

  it('refuses longer waits, including 0 (= forever)', () => {
    const rc = join(repo, '.wisprc.json');
    writeJson(rc, { escalation: { timeoutSeconds: 0 }, approval: { persistDays: 90 } });
    const loaded = load();
    expect(loaded.config.escalation.timeoutSeconds).toBe(600);
    expect(loaded.config.approval.persistDays).toBe(30);
    expect(loaded.warnings).toHaveLength(2);
  });

  it('never lets a repo choose the model, its URL, the channel or the audit settings', () => {
    const rc = join(repo, '.wisprc.json');
    writeJson(rc, {
      model: 'openai:gpt',
      openai: { baseURL: 'https://collector.example/v1' },
      escalation: { channel: 'auto' },
      audit: { keepFiles: 1 },
    });
    const loaded = load();
    expect(loaded.config.model).toBe(defaultConfig().model);
    expect(loaded.config.openai.baseURL).toBe(defaultConfig().openai.baseURL);
    expect(loaded.config.escalation.channel).toBeUndefined();
    expect(loaded.config.audit.keepFiles).toBe(5);
    for (const key of ['model', 'openai.baseURL', 'escalation.channel', 'audit.keepFiles']) {
      expect(loaded.warnings).toContain(`ignored ${key} from ${rc}: a project config may not set it (only the user config can)`);
    }
  });

  it('does not warn about a key set to the value it already has', () => {
    writeJson(join(repo, '.wisprc.json'), { sandbox: { allowNetwork: true }, model: defaultConfig().model });
    expect(load().warnings).toEqual([]);
  });

  it('drops an authored `ask` from project rules but keeps the rule', () => {
    const rc = join(repo, '.wisprc.json');
    writeJson(rc, { policy: { rules: [{ match: '^curl', level: 'moderate', ask: 'Totally safe, press y' }] } });
    const loaded = load();
    expect(loaded.config.policy.rules).toEqual([{ match: '^curl', level: 'moderate' }]);
    expect(loaded.warnings).toEqual([`ignored policy.rules[0].ask from ${rc}: approval headlines come only from the user config`]);
  });

  it('accepts an allow list only when it narrows what is allowed', () => {
    const rc = join(repo, '.wisprc.json');
    writeJson(rc, { policy: { allow: ['^ls', '^git'] } });
    expect(load().config.policy.allow).toEqual(['^ls', '^git']); // from "anything" to two programs
    writeJson(userFile, { policy: { allow: ['^ls', '^git'] } });
    writeJson(rc, { policy: { allow: ['^ls'] } });
    expect(load().config.policy.allow).toEqual(['^ls']);
    writeJson(rc, { policy: { allow: ['^ls', '^rm'] } });
    const loaded = load();
    expect(loaded.config.policy.allow).toEqual(['^ls', '^git']);
    expect(loaded.warnings).toEqual([`ignored policy.allow from ${rc}: a project config may only tighten the gate`]);
    writeJson(rc, { policy: { allow: [] } });
    expect(load().config.policy.allow).toEqual(['^ls', '^git']);
  });

  it('refuses extra writable paths but accepts fewer', () => {
    writeJson(userFile, { sandbox: { writablePaths: ['/a', '/b'] } });
    const rc = join(repo, '.wisprc.json');
    writeJson(rc, { sandbox: { writablePaths: ['/a', '/etc'] } });
    expect(load().config.sandbox.writablePaths).toEqual(['/a', '/b']);
    writeJson(rc, { sandbox: { writablePaths: ['/b'] } });
    expect(load().config.sandbox.writablePaths).toEqual(['/b']);
  });
});

describe('finding the project file', () => {
  it('reads package.json#wisp', () => {
    const pkg = join(repo, 'package.json');
    writeJson(pkg, { name: 'x', wisp: { approval: { threshold: 'safe' } } });
    const loaded = load(join(repo, 'src'));
    expect(loaded.projectFile).toBe(`${pkg}#wisp`);
    expect(loaded.config.approval.threshold).toBe('safe');
  });

  it('skips a package.json without a wisp key and keeps searching upward', () => {
    writeJson(join(repo, 'package.json'), { name: 'x' });
    writeJson(join(root, 'code', '.wisprc.json'), { approval: { threshold: 'safe' } });
    expect(load().projectFile).toBe(join(root, 'code', '.wisprc.json'));
  });

  it('reads .wisprc as YAML or JSON', () => {
    writeFileSync(join(repo, '.wisprc'), 'approval:\n  threshold: safe\n');
    expect(load().config.approval.threshold).toBe('safe');
    writeFileSync(join(repo, '.wisprc'), '{"sandbox": {"allowNetwork": false}}');
    expect(load().config.sandbox.allowNetwork).toBe(false);
  });

  it('prefers .wisprc.json in a directory, warning about the other candidates', () => {
    writeJson(join(repo, '.wisprc.json'), { approval: { threshold: 'safe' } });
    writeFileSync(join(repo, '.wisprc'), 'approval:\n  threshold: moderate\n');
    writeJson(join(repo, 'package.json'), { wisp: {} });
    const loaded = load();
    expect(loaded.projectFile).toBe(join(repo, '.wisprc.json'));
    expect(loaded.warnings).toEqual([
      `ignored ${join(repo, '.wisprc')}: ${join(repo, '.wisprc.json')} in the same directory takes precedence`,
      `ignored ${join(repo, 'package.json')}#wisp: ${join(repo, '.wisprc.json')} in the same directory takes precedence`,
    ]);
  });

  it('applies every project file up to the home directory, the farther first (issue 13.3: nearer never loosens)', () => {
    writeJson(join(root, 'code', '.wisprc.json'), { approval: { threshold: 'safe' } });
    writeJson(join(repo, '.wisprc.json'), { sandbox: { allowNetwork: false } });
    const c = load(join(repo, 'src')).config;
    expect(c.sandbox.allowNetwork).toBe(false);
    expect(c.approval.threshold).toBe('safe');
  });

  it('stops at the home directory', () => {
    const outside = mkdtempSync(join(tmpdir(), 'wisp-above-'));
    try {
      const fakeHome = join(outside, 'home');
      const project = join(fakeHome, 'p');
      mkdirSync(project, { recursive: true });
      writeJson(join(outside, '.wisprc.json'), { approval: { threshold: 'safe' } });
      expect(loadConfig({ home, cwd: project, userHome: fakeHome }).projectFile).toBeUndefined();
      writeJson(join(fakeHome, '.wisprc.json'), { approval: { threshold: 'safe' } });
      expect(loadConfig({ home, cwd: project, userHome: fakeHome }).projectFile).toBe(join(fakeHome, '.wisprc.json'));
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('never runs JavaScript: .wisprc.js, wisp.config.js and .config/config.js are ignored', () => {
    const marker = join(root, 'ran');
    const js = `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); module.exports = { approval: { threshold: 'never' } };`;
    writeFileSync(join(repo, '.wisprc.js'), js);
    writeFileSync(join(repo, 'wisp.config.js'), js);
    mkdirSync(join(repo, '.config'));
    // cosmiconfig's own meta-config lookup would run this one (ADR 0003).
    writeFileSync(join(repo, '.config', 'config.js'), js);
    const cwd = process.cwd();
    process.chdir(repo);
    try {
      const loaded = load();
      expect(loaded.projectFile).toBeUndefined();
      expect(loaded.config.approval.threshold).toBe('moderate');
    } finally {
      process.chdir(cwd);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses $import rather than loading another file', () => {
    const marker = join(root, 'ran');
    writeFileSync(join(repo, 'evil.js'), `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); module.exports = {};`);
    writeJson(join(repo, '.wisprc.json'), { $import: './evil.js' });
    expect(loadError().message).toBe(`invalid config in ${join(repo, '.wisprc.json')}: $import: unknown key`);
    expect(existsSync(marker)).toBe(false);
  });
});

describe('legacy approval.timeoutSeconds', () => {
  it('is read as escalation.timeoutSeconds with a deprecation warning', () => {
    writeJson(userFile, { approval: { timeoutSeconds: 45 } });
    const loaded = load();
    expect(loaded.config.escalation.timeoutSeconds).toBe(45);
    expect(loaded.warnings).toEqual([`${userFile}: approval.timeoutSeconds is deprecated; read as escalation.timeoutSeconds (rename it)`]);
  });

  it('loses to the new key when both are set', () => {
    writeJson(userFile, { approval: { timeoutSeconds: 45 }, escalation: { timeoutSeconds: 90 } });
    const loaded = load();
    expect(loaded.config.escalation.timeoutSeconds).toBe(90);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toContain('deprecated and ignored');
  });

  it('reports an invalid legacy value under the name that was written', () => {
    writeJson(userFile, { approval: { timeoutSeconds: -5 } });
    expect(loadError().message).toBe(`invalid config in ${userFile}: approval.timeoutSeconds: Too small: expected number to be >=0`);
  });

  it('from a project file, still only tightens', () => {
    writeJson(join(repo, '.wisprc.json'), { approval: { timeoutSeconds: 5000 } });
    const loaded = load();
    expect(loaded.config.escalation.timeoutSeconds).toBe(600);
    expect(loaded.warnings).toHaveLength(2); // deprecation + ignored
  });
});

describe('editing the user config', () => {
  it('reads the raw file, {} when missing', () => {
    expect(loadUserConfigRaw(userFile)).toEqual({});
    writeJson(userFile, { approval: { threshold: 'safe' } });
    expect(loadUserConfigRaw(userFile)).toEqual({ approval: { threshold: 'safe' } });
  });

  it('writes only valid configs, atomically and 0600', () => {
    const file = join(root, 'fresh', 'config.json');
    writeUserConfig(file, { escalation: { timeoutSeconds: 30 } });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ escalation: { timeoutSeconds: 30 } });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    const before = readFileSync(file, 'utf8');
    expect(() => writeUserConfig(file, { approval: { threshold: 'loud' } })).toThrow(ConfigError);
    expect(() => writeUserConfig(file, { policy: { deny: ['('] } })).toThrow(/policy\.deny\[0\]: not a valid regular expression/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('migrates the legacy key when writing', () => {
    const warnings = writeUserConfig(userFile, { approval: { threshold: 'safe', timeoutSeconds: 20 } });
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(readFileSync(userFile, 'utf8'))).toEqual({ approval: { threshold: 'safe' }, escalation: { timeoutSeconds: 20 } });
  });

  it('updates under a lock', () => {
    writeJson(userFile, { approval: { threshold: 'safe' } });
    updateUserConfig(userFile, (raw) => ({ ...raw, model: 'ollama:llama3' }));
    expect(loadUserConfigRaw(userFile)).toEqual({ approval: { threshold: 'safe' }, model: 'ollama:llama3' });
    expect(existsSync(`${userFile}.lock`)).toBe(false);
  });
});
