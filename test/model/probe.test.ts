// Every model backend has its probe (src/model/probe.ts), which `wisp doctor` runs; a probe reports, changes nothing.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/schema.js';
import { BACKENDS } from '../../src/model/index.js';
import { PROBES, probeModel } from '../../src/model/probe.js';

const where = { home: mkdtempSync(join(tmpdir(), 'wisp-probe-')), cwd: process.cwd() };

describe('model probes', () => {
  it('one probe per backend', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...BACKENDS].sort());
  });

  it('a script: ok with its size; a missing one fails with the next step', async () => {
    const file = join(where.home, 's.json');
    writeFileSync(file, JSON.stringify({ responses: [{ text: 'a' }, { text: 'b' }] }));
    const good = await probeModel(`script:${file}`, defaultConfig(), where, 'fix -m');
    expect(good).toMatchObject({ ok: true, detail: expect.stringContaining('(2 responses)') });
    const missing = await probeModel(`script:${join(where.home, 'none.json')}`, defaultConfig(), where, 'fix -m');
    expect(missing.ok).toBe(false);
    expect(missing.fix).toMatch(/script file/);
  });

  it('a spec that does not parse is reported with the fix the caller gives', async () => {
    const bad = await probeModel('openai:', defaultConfig(), where, 'correct -m');
    expect(bad).toMatchObject({ ok: false, fix: 'correct -m' });
  });

  it('an unreachable Ollama: says so and how to start it', async () => {
    const config = defaultConfig();
    config.ollama.baseURL = 'http://127.0.0.1:9';
    const got = await probeModel('ollama:qwen3:8b', config, where, 'x');
    expect(got.ok).toBe(false);
    expect(got.detail).toMatch(/unreachable/);
    expect(got.fix).toMatch(/ollama serve/);
  });
});
