// `wisp config` through the built CLI (dist/bin/wisp.js): edits validated and atomic, bad input exit 64 with
// nothing written, weakening notes, `config.change` audited with before/after, the JSON Schema.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { freshHome, wisp } from '../helpers/cli.js';

let dir: string;
let home: string;
const run = (...args: string[]) => wisp(['config', ...args], { cwd: dir, home });
const configFile = () => join(home, 'config.json');
const userConfig = () => JSON.parse(readFileSync(configFile(), 'utf8')) as Record<string, unknown>;
const auditEvents = () =>
  readFileSync(join(home, 'logs', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { kind: string; session: string; details: Record<string, unknown> });

beforeEach(() => {
  ({ dir, home } = freshHome());
});

describe('wisp config set/get/unset', () => {
  it('sets a number, reads it back, writes the file 0600 and audits before/after', () => {
    const set = run('set', 'escalation.timeoutSeconds', '30');
    expect(set.status).toBe(0);
    expect(set.stdout).toContain('escalation.timeoutSeconds: 600 → 30');
    expect(set.stderr).toBe(''); // a shorter timeout weakens nothing
    expect(run('get', 'escalation.timeoutSeconds').stdout).toBe('30\n');
    expect(userConfig()).toEqual({ escalation: { timeoutSeconds: 30 } });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    const [event] = auditEvents().filter((e) => e.kind === 'config.change');
    expect(event?.details).toMatchObject({ action: 'set', key: 'escalation.timeoutSeconds', before: 600, after: 30, weakens: [], file: configFile() });
    expect(event?.session).toMatch(/^cli-/);
  });

  it('reads booleans, enums and JSON arrays by type; get prints strings plain and the rest as JSON', () => {
    expect(run('set', 'sandbox.allowNetwork', 'false').status).toBe(0);
    expect(run('set', 'approval.threshold', 'safe').status).toBe(0);
    expect(run('set', 'policy.allow', '["^ls", "^git status"]').status).toBe(0);
    expect(userConfig()).toEqual({ sandbox: { allowNetwork: false }, approval: { threshold: 'safe' }, policy: { allow: ['^ls', '^git status'] } });
    expect(run('get', 'approval.threshold').stdout).toBe('safe\n');
    expect(run('get', 'approval.threshold', '--json').stdout).toBe('"safe"\n');
    expect(JSON.parse(run('get', 'policy.allow').stdout)).toEqual(['^ls', '^git status']);
    expect(JSON.parse(run('get', 'sandbox').stdout)).toMatchObject({ enabled: true, allowNetwork: false });
  });

  it('unset returns a key to its default and audits it', () => {
    run('set', 'approval.threshold', 'safe');
    const r = run('unset', 'approval.threshold');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('approval.threshold: "safe" → "moderate" (default)');
    expect(existsSync(configFile()) && userConfig()).toEqual({});
    expect(run('get', 'approval.threshold').stdout).toBe('moderate\n');
    const changes = auditEvents().filter((e) => e.kind === 'config.change');
    expect(changes.at(-1)?.details).toMatchObject({ action: 'unset', key: 'approval.threshold', before: 'safe', after: 'moderate' });
  });

  it('an edit that changes nothing writes and audits nothing', () => {
    run('set', 'approval.threshold', 'safe');
    const r = run('set', 'approval.threshold', 'safe');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/already "safe"; nothing changed/);
    expect(auditEvents().filter((e) => e.kind === 'config.change')).toHaveLength(1);
  });

  it.each([
    [['sandbox.enabled', 'false'], /sandbox\.enabled false: commands run unconfined/],
    [['approval.threshold', 'never'], /nothing is asked/],
    [['approval.threshold', 'dangerous'], /approval\.threshold moderate → dangerous/],
    [['sandbox.writablePaths', '["/srv"]'], /write to \/srv/],
    [['escalation.channel', 'auto'], /without asking/],
  ])('prints a one-line weakening note for set %j', (args, note) => {
    const r = run('set', ...args);
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^wisp: note: this weakens the gate: /);
    expect(lines[0]).toMatch(note);
    const [event] = auditEvents().filter((e) => e.kind === 'config.change');
    expect((event?.details.weakens as string[])[0]).toMatch(note);
  });

  it('notes removed operator deny patterns (the built-in deny list cannot be removed)', () => {
    run('set', 'policy.deny', '["frobnicate","curl"]');
    const r = run('set', 'policy.deny', '[]');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/weakens the gate: policy\.deny: 2 deny patterns removed/);
  });

  it('notes a weakening by unset too (a strict value back to the default)', () => {
    run('set', 'sandbox.allowNetwork', 'false');
    const r = run('unset', 'sandbox.allowNetwork');
    expect(r.stderr).toMatch(/weakens the gate: sandbox\.allowNetwork true/);
  });
});

describe('wisp config: bad input', () => {
  it('an unknown key suggests the nearest keys, exit 64', () => {
    const r = run('set', 'approval.treshold', 'safe');
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(/unknown config key 'approval\.treshold'; did you mean approval\.threshold/);
    expect(existsSync(configFile())).toBe(false);
    const g = run('get', 'sandbox.network');
    expect(g.status).toBe(64);
    expect(g.stderr).toContain('sandbox.allowNetwork');
    expect(run('unset', 'nonsense.key').status).toBe(64);
  });

  it.each([
    [['approval.threshold', 'loud'], /'loud' is not one of safe, moderate, dangerous, never/],
    [['escalation.timeoutSeconds', 'soon'], /'soon' is not a number/],
    [['escalation.timeoutSeconds', '86401'], /out of range \(0–86400\)/],
    [['approval.persistDays', '2.5'], /not a whole number/],
    [['sandbox.enabled', 'perhaps'], /not true or false/],
    [['sandbox.writablePaths', '/srv'], /takes JSON array/],
    [['policy.deny', '["(unclosed"]'], /regular expression/],
    [['ollama.baseURL', 'not a url'], /ollama\.baseURL/],
  ])('set %j is refused with exit 64 and nothing is written', (args, why) => {
    writeFileSync(configFile(), JSON.stringify({ model: 'script:a.json' }), { mode: 0o600 });
    const before = readFileSync(configFile(), 'utf8');
    const r = run('set', ...args);
    expect(r.status).toBe(64);
    expect(r.stderr).toMatch(why);
    expect(readFileSync(configFile(), 'utf8')).toBe(before);
    expect(existsSync(join(home, 'logs', 'audit.jsonl'))).toBe(false);
  });

  it('a config file that does not parse: exit 64 naming the file, for get, set and show; the file is left alone', () => {
    writeFileSync(configFile(), '{"approval": {', { mode: 0o600 });
    for (const args of [['get', 'approval.threshold'], ['set', 'approval.threshold', 'safe'], ['show']]) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(64);
      expect(r.stderr).toContain(configFile());
    }
    expect(readFileSync(configFile(), 'utf8')).toBe('{"approval": {');
  });

  it('a file that parses but breaks the schema can be repaired with unset', () => {
    writeFileSync(configFile(), JSON.stringify({ approval: { threshold: 'loud' } }), { mode: 0o600 });
    expect(run('get', 'model').status).toBe(64);
    const r = run('unset', 'approval.threshold');
    expect(r.status).toBe(0);
    expect(run('get', 'approval.threshold').stdout).toBe('moderate\n');
  });

  it('a missing argument or an unknown subcommand is a usage error', () => {
    expect(run('set', 'approval.threshold').status).toBe(64);
    expect(run('frobnicate').status).toBe(64);
  });
});

describe('wisp config show/path/schema', () => {
  it('show prints the effective config with a project layer that may only tighten; --user the file alone', () => {
    run('set', 'approval.threshold', 'dangerous');
    writeFileSync(join(dir, '.wisprc.json'), JSON.stringify({ approval: { threshold: 'safe' }, sandbox: { enabled: false } }));
    const r = run('show');
    expect(r.status).toBe(0);
    const shown = JSON.parse(r.stdout) as { approval: { threshold: string }; sandbox: { enabled: boolean } };
    expect(shown.approval.threshold).toBe('safe'); // tightened by the project
    expect(shown.sandbox.enabled).toBe(true); // a weakening from the project is ignored…
    expect(r.stderr).toMatch(/sandbox\.enabled/); // …with a warning naming it
    expect(JSON.parse(run('show', '--user').stdout)).toEqual({ approval: { threshold: 'dangerous' } });
    expect(JSON.parse(wisp(['config'], { cwd: dir, home }).stdout)).toMatchObject({ approval: { threshold: 'safe' } });
  });

  it('path prints the user config file; --all names the project layer too', () => {
    expect(run('path').stdout).toBe(`${configFile()}\n`);
    writeFileSync(join(dir, '.wisprc.json'), '{}');
    const all = run('path', '--all').stdout.trim().split('\n');
    expect(all[0]).toBe(`user\t${configFile()}\tabsent`);
    expect(all[1]).toBe(`project\t${join(dir, '.wisprc.json')}\texists`);
  });

  it('schema is a JSON Schema generated from the zod schema, usable via "$schema" in config.json', () => {
    const r = run('schema');
    expect(r.status).toBe(0);
    const schema = JSON.parse(r.stdout) as { type: string; properties: Record<string, { properties?: Record<string, unknown> }> };
    expect(schema.type).toBe('object');
    expect(schema.properties.escalation?.properties?.timeoutSeconds).toMatchObject({ type: 'integer', minimum: 0, maximum: 86400, default: 600 });
    // The documented editor hint is accepted by every command and kept across edits.
    writeFileSync(configFile(), JSON.stringify({ $schema: './config.schema.json' }), { mode: 0o600 });
    expect(run('set', 'approval.threshold', 'safe').status).toBe(0);
    expect(userConfig()).toEqual({ $schema: './config.schema.json', approval: { threshold: 'safe' } });
    expect(wisp(['check', '--json', '--', 'ls'], { cwd: dir, home }).status).toBe(0);
  });
});
