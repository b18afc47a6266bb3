// `wisp doctor` through the built CLI: passes on a good setup (script model, a real sandbox probe), and fails with a
// useful line for an unreachable or model-less backend, loose permissions, a bad config or a corrupt store.
// The CLI runs asynchronously so this process can serve the fake model servers on 127.0.0.1.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshHome, wispAsync, type CliResult } from '../helpers/cli.js';

let dir: string;
let home: string;
let servers: Server[] = [];

const doctor = async (args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
  wispAsync(['doctor', ...args], { cwd: dir, home, env }).done;
const line = (out: string, name: string) => out.split('\n').find((l) => new RegExp(`^(ok|warn|FAIL) +${name} `).test(l)) ?? '';
const setConfig = (config: unknown) => writeFileSync(join(home, 'config.json'), JSON.stringify(config), { mode: 0o600 });
const scriptModel = () => {
  const p = join(dir, 'script.json');
  writeFileSync(p, JSON.stringify({ responses: [{ text: 'hi' }] }));
  return `script:${p}`;
};

async function serve(handler: (path: string, headers: Record<string, unknown>) => { status: number; body: unknown }): Promise<string> {
  const server = createServer((req, res) => {
    const { status, body } = handler(req.url ?? '', req.headers);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

beforeEach(() => {
  ({ dir, home } = freshHome());
});
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
  servers = [];
});

describe('wisp doctor', () => {
  it('passes on a good setup: script model, working sandbox, private home', async () => {
    setConfig({ model: scriptModel() });
    mkdirSync(join(home, 'pending'), { mode: 0o700 });
    const r = await doctor();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    for (const name of ['config', 'model', 'sandbox', 'home', 'pending', 'approvals', 'audit log']) {
      expect(line(r.stdout, name), name).toMatch(/^ok /);
    }
    expect(line(r.stdout, 'config')).toContain(join(home, 'config.json'));
    expect(line(r.stdout, 'model')).toMatch(/script .*script\.json \(1 response\)/);
    expect(line(r.stdout, 'sandbox')).toMatch(/trial command ran and could not write to \$WISP_HOME/);
  });

  it('--json reports every check', async () => {
    setConfig({ model: scriptModel() });
    const r = await doctor(['--json']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; checks: Array<{ name: string; status: string }> };
    expect(report.ok).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual(['config', 'model', 'sandbox', 'home', 'pending', 'approvals', 'audit log']);
  });

  it('fails with a useful line when Ollama is not listening', async () => {
    setConfig({ model: 'ollama:qwen3:8b', ollama: { baseURL: `http://127.0.0.1:${await closedPort()}` } });
    const r = await doctor();
    expect(r.status).toBe(1);
    // The next step, not only the fault: how to start Ollama and pull the model, or what to use instead.
    expect(line(r.stdout, 'model')).toMatch(
      /^FAIL +model +ollama:qwen3:8b: Ollama at http:\/\/127\.0\.0\.1:\d+ is unreachable \(ECONNREFUSED\) — start Ollama: `ollama serve` .*then `ollama pull qwen3:8b`; if it runs elsewhere: wisp config set ollama\.baseURL http:\/\/HOST:11434; no Ollama\? .*openai:NAME.*script:PATH/,
    );
    const j = JSON.parse((await doctor(['--json'])).stdout) as { ok: boolean; checks: Array<{ name: string; status: string; fix?: string }> };
    expect(j.ok).toBe(false);
    expect(j.checks.find((c) => c.name === 'model')).toMatchObject({ status: 'FAIL', fix: expect.stringContaining('`ollama pull qwen3:8b`') });
  });

  it('asks Ollama for its models (GET /api/tags): present passes, absent says what to pull', async () => {
    const seen: string[] = [];
    const base = await serve((path) => {
      seen.push(path);
      return { status: 200, body: { models: [{ name: 'qwen3:8b', model: 'qwen3:8b' }, { name: 'llama3.2:latest', model: 'llama3.2:latest' }] } };
    });
    setConfig({ model: 'ollama:qwen3:8b', ollama: { baseURL: base } });
    const ok = await doctor();
    expect(line(ok.stdout, 'model')).toMatch(/^ok +model +ollama:qwen3:8b is available at http:\/\/127\.0\.0\.1:\d+$/);
    expect(seen).toContain('/api/tags');
    expect(line((await doctor(['-m', 'ollama:llama3.2'])).stdout, 'model')).toMatch(/^ok /); // a bare name is :latest
    const missing = await doctor(['-m', 'ollama:qwen3:32b']);
    expect(missing.status).toBe(1);
    expect(line(missing.stdout, 'model')).toMatch(/has no model qwen3:32b \(it has qwen3:8b, llama3\.2:latest\) — pull it: ollama pull qwen3:32b; or pick one it has: wisp config set model ollama:NAME$/);
  });

  it('says how to set up an OpenAI-compatible server when none answers', async () => {
    setConfig({ model: 'openai:local', openai: { baseURL: `http://127.0.0.1:${await closedPort()}/v1` } });
    const r = await doctor();
    expect(r.status).toBe(1);
    expect(line(r.stdout, 'model')).toMatch(/is unreachable \(ECONNREFUSED\) — start the server, e\.g\. `llama-server -m MODEL\.gguf --port 8080`.*wisp config set openai\.baseURL http:\/\/127\.0\.0\.1:8080\/v1.*wisp config set model openai:NAME$/);
  });

  it('asks an OpenAI-compatible server for its models (GET /models), with the key when set', async () => {
    const base = await serve((path, headers) =>
      path === '/v1/models' && headers.authorization === 'Bearer sekrit'
        ? { status: 200, body: { object: 'list', data: [{ id: 'local-model' }] } }
        : { status: 401, body: { error: { message: 'no key' } } },
    );
    setConfig({ model: 'openai:local-model', openai: { baseURL: `${base}/v1` } });
    expect(line((await doctor([], { OPENAI_API_KEY: 'sekrit' })).stdout, 'model')).toMatch(/^ok +model +openai:local-model is served at/);
    const refused = await doctor([], { OPENAI_API_KEY: '' });
    expect(refused.status).toBe(1);
    expect(line(refused.stdout, 'model')).toMatch(/refused the request \(HTTP 401\) — set OPENAI_API_KEY$/);
  });

  it('fails for a pending/ directory others can open, saying how to fix it', async () => {
    setConfig({ model: scriptModel() });
    mkdirSync(join(home, 'pending'), { mode: 0o700 });
    chmodSync(join(home, 'pending'), 0o755);
    const r = await doctor();
    expect(r.status).toBe(1);
    expect(line(r.stdout, 'pending')).toMatch(/^FAIL +pending +.*pending is 0755: others can read or plant requests and answers — chmod 700 /);
    expect(line(r.stdout, 'model')).toMatch(/^ok /); // one failure does not hide the other checks
  });

  it('fails for a $WISP_HOME others can read', async () => {
    setConfig({ model: scriptModel() });
    chmodSync(home, 0o755);
    const r = await doctor();
    expect(r.status).toBe(1);
    expect(line(r.stdout, 'home')).toMatch(/^FAIL +home +.* is 0755: .* — chmod 700 /);
  });

  it('fails (exit 1, not 64) for a config that does not parse, naming the file', async () => {
    writeFileSync(join(home, 'config.json'), '{"approval": {', { mode: 0o600 });
    const r = await doctor(['-m', scriptModel()]);
    expect(r.status).toBe(1);
    expect(line(r.stdout, 'config')).toMatch(/^FAIL +config +malformed JSON in .*config\.json/);
    expect(line(r.stdout, 'model')).toMatch(/^ok /);
  });

  it('names the project layer, and warns about its ignored keys', async () => {
    setConfig({ model: scriptModel() });
    writeFileSync(join(dir, '.wisprc.json'), JSON.stringify({ approval: { threshold: 'never' } }));
    const r = await doctor();
    expect(r.status).toBe(0);
    expect(line(r.stdout, 'config')).toMatch(/^warn +config +valid: user .*; project .*\.wisprc\.json; 1 warning\(s\): ignored approval\.threshold/);
  });

  it('warns (does not fail) when the sandbox is turned off; fails for a corrupt approvals store', async () => {
    setConfig({ model: scriptModel(), sandbox: { enabled: false } });
    writeFileSync(join(home, 'approvals.json'), 'nope', { mode: 0o600 });
    const r = await doctor();
    expect(line(r.stdout, 'sandbox')).toMatch(/^warn +sandbox +disabled .* — wisp config set sandbox\.enabled true$/);
    expect(line(r.stdout, 'approvals')).toMatch(/^FAIL +approvals +.*approvals\.json is not valid JSON — move it aside/);
    expect(r.status).toBe(1);
  });
});
