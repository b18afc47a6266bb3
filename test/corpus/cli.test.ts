// Corpus: bad command lines (test/corpus/cli.json). Every case runs through the CLI's own entry (commands/main.ts
// `main`, the function dist/bin/wisp.js calls) in this process — fast — and the cases marked `spawn`, plus those
// that read standard input, also as real processes on the built CLI, so the exit code is the process's own.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../commands/main.js';
import { wisp } from '../helpers/cli.js';
import { loadCorpus, title } from './load.js';

interface CliCase {
  readonly name: string;
  readonly args: string[];
  readonly exit: number;
  readonly stderr: string;
  readonly stdin?: string;
  readonly spawn?: boolean;
}

const { cases } = loadCorpus<{ cases: CliCase[] }>('cli.json');
let root: string;
let home: string;
let work: string;
let script: string;
const cwd0 = process.cwd();
const env0 = { WISP_HOME: process.env.WISP_HOME, HOME: process.env.HOME };

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'wisp-corpus-cli-'));
  home = join(root, 'home');
  work = join(root, 'work');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(work);
  script = join(root, 'script.json');
  writeFileSync(script, JSON.stringify({ responses: [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch marker' } }] }, { text: 'done' }] }));
  writeFileSync(join(root, 'garbage.json'), '{"responses": [');
  process.env.WISP_HOME = home;
  process.env.HOME = root;
  process.chdir(work);
});
afterAll(() => {
  process.chdir(cwd0);
  for (const [k, v] of Object.entries(env0)) if (v === undefined) delete process.env[k];
  else process.env[k] = v;
  rmSync(root, { recursive: true, force: true });
});

const argv = (c: CliCase) => c.args.map((a) => a.replace('{script}', script).replace('{dir}', root));

function nothingHappened(): void {
  expect(existsSync(join(work, 'marker')), 'the script’s command must not have run').toBe(false);
  const pending = join(home, 'pending');
  expect(existsSync(pending) ? readdirSync(pending) : [], 'no request was filed').toEqual([]);
}

/** Runs `main(args)` with stdout and stderr captured. */
async function inProcess(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stderr = '';
  let stdout = '';
  const errWrite = process.stderr.write.bind(process.stderr);
  const outWrite = process.stdout.write.bind(process.stdout);
  process.stderr.write = ((s: string | Uint8Array) => ((stderr += String(s)), true)) as typeof process.stderr.write;
  process.stdout.write = ((s: string | Uint8Array) => ((stdout += String(s)), true)) as typeof process.stdout.write;
  try {
    const code = await main(args);
    return { code, stderr, stdout };
  } finally {
    process.stderr.write = errWrite;
    process.stdout.write = outWrite;
    process.exitCode = undefined;
  }
}

describe('command-line corpus', () => {
  it('has the cases the issue asks for', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases.filter((c) => c.stdin === undefined).map((c) => [title(c.name), c] as const))('%s', async (_n, c) => {
    const r = await inProcess(argv(c));
    expect(r.code, r.stderr).toBe(c.exit);
    expect(r.stderr + r.stdout).toMatch(new RegExp(c.stderr));
    nothingHappened();
  });
});

describe('command-line corpus as real processes', () => {
  const spawned = cases.filter((c) => c.spawn || c.stdin !== undefined);
  it.each(spawned.map((c) => [title(c.name), c] as const))('%s', (_n, c) => {
    const r = wisp(argv(c), { cwd: work, home, input: c.stdin ?? '', env: { HOME: root }, timeoutMs: 60_000 });
    expect(r.status, r.stderr).toBe(c.exit);
    expect(r.stderr).toMatch(new RegExp(c.stderr));
    nothingHappened();
  });
});
