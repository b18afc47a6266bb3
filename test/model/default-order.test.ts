// The model used when none is configured: Ollama if it answers, else the first GGUF in $WISP_HOME/models, else
// `wisp respond` says what to do and `wisp chat` (in a terminal) offers the default download. Local servers only.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/config/schema.js';
import { chooseModel, firstGguf, noModelChoices } from '../../src/model/default-order.js';
import { BIN, freshHome, wisp } from '../helpers/cli.js';
import { closedPortURL } from '../helpers/fake-llm.js';
import { PtyTerm } from '../helpers/pty-term.js';

/** A local server: `/api/tags` as Ollama answers it, and `/model.gguf` as a download (a small file that starts GGUF). */
const MODEL_BYTES = Buffer.concat([Buffer.from('GGUF'), randomBytes(300_000)]);
const MODEL_SHA = createHash('sha256').update(MODEL_BYTES).digest('hex');
let server: Server;
let base = '';
let closed = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/api/tags') return void res.end(JSON.stringify({ models: [] }));
    if (req.url === '/model.gguf') {
      res.writeHead(200, { 'content-length': String(MODEL_BYTES.length) });
      return void res.end(MODEL_BYTES);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closed = await closedPortURL();
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const config = (over: Record<string, unknown> = {}) => ConfigSchema.parse({ ollama: { baseURL: closed }, ...over });

describe('the default order', () => {
  it('a model given with -m or set in the config is used as it is; nothing is probed', async () => {
    const { home } = freshHome();
    expect(await chooseModel('script:x.json', config(), home)).toEqual({ spec: 'script:x.json', source: 'configured' });
    expect(await chooseModel(undefined, config({ model: 'openai:local' }), home)).toEqual({ spec: 'openai:local', source: 'configured' });
  });

  it('Ollama first, when it answers', async () => {
    const { home } = freshHome();
    writeFileSync(join(home, 'x.gguf'), 'GGUF');
    expect(await chooseModel(undefined, config({ ollama: { baseURL: base } }), home)).toEqual({ spec: 'ollama:qwen3:8b', source: 'ollama' });
  });

  it('else the first .gguf file in $WISP_HOME/models by name: not an unfinished download, not a directory', async () => {
    const { home } = freshHome();
    const models = join(home, 'models');
    mkdirSync(join(models, 'a.gguf'), { recursive: true }); // a directory
    writeFileSync(join(models, 'b.gguf.part'), 'GGUF');
    writeFileSync(join(models, 'd.gguf'), 'GGUF');
    writeFileSync(join(models, 'c.gguf'), 'GGUF');
    expect(firstGguf(models)).toBe(join(models, 'c.gguf'));
    expect(await chooseModel(undefined, config(), home)).toEqual({ spec: `llama:${join(models, 'c.gguf')}`, source: 'file' });
  });

  it('else nothing, and the words say every way out: pull (name, size, where), Ollama, a server, a file', async () => {
    const { home } = freshHome();
    expect(await chooseModel(undefined, config(), home)).toEqual({ spec: undefined, source: 'none' });
    const text = noModelChoices(config(), home);
    expect(text).toContain(`Ollama does not answer at ${closed}`);
    expect(text).toMatch(/wisp models pull +download qwen2\.5-1\.5b-instruct-q4_k_m \(about 1\.\d+ GiB\) to .*\/models\/qwen2\.5-1\.5b-instruct-q4_k_m\.gguf/);
    expect(text).toContain('ollama serve');
    expect(text).toContain('-m openai:NAME');
    expect(text).toContain('-m llama:PATH.gguf');
  });

  it('wisp respond with no model anywhere: exit 1 and exactly what to do', () => {
    const { dir, home } = freshHome();
    writeFileSync(join(home, 'config.json'), JSON.stringify({ ollama: { baseURL: closed } }));
    const r = wisp(['respond', 'hello'], { cwd: dir, home });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('No model to use');
    expect(r.stderr).toContain('wisp models pull');
    expect(r.stderr).toContain('ollama serve');
  });
});

describe('wisp chat offers the download in a terminal', () => {
  function start(): { t: PtyTerm; home: string; dest: string } {
    const { dir, home } = freshHome();
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(
      join(home, 'config.json'),
      JSON.stringify({ ollama: { baseURL: closed }, models: { download: { name: 'small', url: `${base}/model.gguf`, sha256: MODEL_SHA } } }),
    );
    const t = new PtyTerm(process.execPath, [BIN, 'chat'], { cwd: work, env: { WISP_HOME: home } });
    return { t, home, dest: join(home, 'models', 'small.gguf') };
  }

  it('names the model, its size and where it goes; Enter downloads it (checksum verified) and the chat starts on it', async () => {
    const { t, dest } = start();
    try {
      const offer = await t.waitFor('Enter: download', 30_000);
      expect(offer).toContain('Download small');
      expect(offer).toContain(`to   ${dest}`);
      expect(offer).toContain('from 127.0.0.1');
      // Enter counts after a pause (an Enter typed before the question was read is not consent): press it after
      // one, again while nothing has started (a stalled machine can make the pause look short).
      for (let i = 0; i < 8 && !/\d+%/.test(await t.text()); i++) {
        await new Promise((r) => setTimeout(r, 700));
        t.write('\r');
        for (let w = 0; w < 30 && !/\d+%/.test(await t.text()); w++) await new Promise((r) => setTimeout(r, 50));
      }
      await t.waitFor('type a prompt, or /help', 60_000);
      expect(await t.text()).toMatch(/100%/);
      expect(readFileSync(dest)).toEqual(MODEL_BYTES);
      expect(await t.text()).toContain(`llama:${dest}`);
      t.write('/quit\r');
      await expect(t.exited).resolves.toMatchObject({ exitCode: 0 });
    } finally {
      t.kill();
    }
  }, 120_000);

  it('attack: an Enter typed while wisp starts is not consent to the download', async () => {
    const { t, dest } = start();
    try {
      t.write('\r');
      await t.waitFor('Enter: download', 30_000);
      t.write('\r'); // at once, before anyone could have read the question
      await new Promise((r) => setTimeout(r, 1500));
      expect(await t.text()).not.toMatch(/\d+%/);
      expect(existsSync(dest)).toBe(false);
      t.write('\x1b');
      await expect(t.exited).resolves.toMatchObject({ exitCode: 0 });
      expect(existsSync(dest)).toBe(false);
    } finally {
      t.kill();
    }
  }, 120_000);

  it('Esc quits, listing the other choices; nothing is downloaded', async () => {
    const { t, dest } = start();
    try {
      await t.waitFor('Enter: download', 30_000);
      t.write('\x1b');
      await expect(t.exited).resolves.toMatchObject({ exitCode: 0 });
      const text = await t.text();
      expect(text).toContain('ollama serve');
      expect(text).toContain('-m openai:NAME');
      expect(existsSync(dest)).toBe(false);
    } finally {
      t.kill();
    }
  }, 120_000);
});
