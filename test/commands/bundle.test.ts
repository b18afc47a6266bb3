// Issue #16.2, ADR 0041: the bin runs from one bundled file with V8's code cache, and whatever happens to the bundle
// or the cache, it answers as the ES modules of dist/ do. Works on a private copy of dist/ (bundled here), so the
// clone's own dist/ and its cache are never touched.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

let work: string;
let dist: string;
/** The CommonJS bundles (ADRs 0041, 0086). */
const BUNDLES = ['wisp.bundle.cjs', 'wisp.check.cjs', 'wisp.tools.cjs'];
/** The function the build writes around a bundle's code (build/bundle.mjs), which the loader requires. */
const WRAPPER = '(function (exports, require, module, __filename, __dirname, __wispBundleUrl, __wispImport) {';
let bin: string;

function run(args: readonly string[], home: string, extra: { cwd?: string } = {}): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, WISP_HOME: home, NO_COLOR: '1' };
  delete env.CI;
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: extra.cwd ?? work, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function freshHome(name: string): string {
  const home = join(work, name);
  mkdirSync(home, { mode: 0o700 });
  return home;
}

const cacheFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8')) : []);
/** `wisp-<hash>-<face>-<node>-<arch>.v8` → face. */
const faceOf = (file: string): string => /^wisp-[0-9a-f]{16}-([a-z]+)-v\d/.exec(file)?.[1] ?? file;

/** What the bin prints for a few faces that run from the bundle. */
function answers(home: string): string[] {
  const out: string[] = [];
  // The last check prints about 20 KB: `check` ends as soon as its answer is written (ADR 0086), and all of it is there.
  const long = Array.from({ length: 150 }, (_, i) => `ls dir${i}`).join(' && ');
  for (const args of [['check', '--json', '--', 'ls'], ['check', '--json', '--', 'git log --oneline | head -5'], ['check', '--json', '--', 'sudo ls'], ['check', '--json', '--', long], ['tools', '--json'], ['--help'], ['doctr'], ['chat', '--help'], ['chat', '--resume', 'x', '--continue']]) {
    const r = run(args, home);
    out.push(`${args.join(' ')} → ${r.status}\n${r.stdout}\n${r.stderr}`);
  }
  return out;
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'wisp-bundle-'));
  dist = join(work, 'dist');
  cpSync(join(ROOT, 'dist'), dist, { recursive: true, filter: (src) => !src.startsWith(join(ROOT, 'dist', 'cache')) });
  for (const file of BUNDLES) rmSync(join(dist, file), { force: true });
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'));
  execFileSync(process.execPath, [join(ROOT, 'build', 'bundle.mjs')], { env: { ...process.env, WISP_BUNDLE_DIST: dist }, stdio: 'pipe' });
  bin = join(dist, 'bin', 'wisp.cjs');
}, 120_000);

describe('the bundled bin (ADR 0041)', () => {
  it('is ASCII and opens with the function the loader calls, so the loader reads it as Latin-1 and compiles it as read', () => {
    for (const file of BUNDLES) {
      const text = readFileSync(join(dist, file), 'latin1');
      expect(/[^\x00-\x7f]/.test(text)).toBe(false);
      expect(text.split('\n')[1]!.startsWith(WRAPPER)).toBe(true);
    }
  });

  it.each([
    ['check', ['check', '--json', '--', 'ls']],
    ['tools', ['tools', '--json']],
  ])('`%s` runs from a bundle of its own (ADR 0086), which holds no other subcommand, and only it does', (face, args) => {
    const own = readFileSync(join(dist, `wisp.${face}.cjs`), 'latin1');
    expect(own).toContain(`dist/commands/${face}.js`);
    for (const other of ['check', 'tools', 'doctor', 'approvals', 'config', 'respond'].filter((c) => c !== face)) {
      expect(own).not.toContain(`dist/commands/${other}.js"()`);
      expect(own).toContain(`wisp: ./${other}.js is not in the ${face} bundle`);
    }
    expect(own.length).toBeLessThan(readFileSync(join(dist, 'wisp.bundle.cjs'), 'latin1').length * 0.7);
    const home = freshHome(`h9-${face}`);
    const file = join(dist, `wisp.${face}.cjs`);
    const saved = join(work, `${face}.saved`);
    cpSync(file, saved);
    try {
      writeFileSync(file, `// wisp-bundle 0123456789abcdef\n${WRAPPER}module.exports = { main: async () => { process.stdout.write("from the ${face} bundle\\n"); return 0; } };\n})`);
      expect(run(args, home).stdout).toBe(`from the ${face} bundle\n`);
      for (const other of [['check', '--', 'ls'], ['tools', '--json'], ['--help'], ['config', 'path']].filter((a) => a[0] !== face)) {
        expect(run(other, home).stdout).not.toContain(`from the ${face} bundle`);
      }
      // Without it, the command answers from the ES modules of dist/, as it does from its bundle.
      rmSync(file);
      const modules = run(args, home);
      cpSync(saved, file);
      expect(modules.stdout).toBe(run(args, home).stdout);
    } finally {
      cpSync(saved, file);
      rmSync(join(dist, 'cache'), { recursive: true, force: true }); // the stand-in's cache
    }
  }, 120_000);

  it('answers exactly as the unbundled modules do, and writes its code cache beside the bundle, readable by its owner only', () => {
    const bundled = answers(freshHome('h1'));
    const files = cacheFiles(join(dist, 'cache'));
    // One cache for `check`, one for `tools` (ADR 0086); the other commands' (ADR 0041, amended) is written by none
    // of these runs: help and usage errors write no cache.
    expect(files.map(faceOf).sort()).toEqual(['check', 'tools']);
    for (const f of files) expect(statSync(join(dist, 'cache', f)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dist, 'cache')).mode & 0o777).toBe(0o700);
    // A second round with the cache in place: the same answers.
    expect(answers(freshHome('h2'))).toEqual(bundled);
    // The ES-module entry (dist/bin/wisp.js) runs the same bin: the same answers.
    const cjs = bin;
    bin = join(dist, 'bin', 'wisp.js');
    try {
      expect(answers(freshHome('h2m'))).toEqual(bundled);
    } finally {
      bin = cjs;
    }
    // Without the bundles the bin imports dist/commands/main.js: the same answers again.
    const saved = join(work, 'bundle.saved');
    cpSync(join(dist, 'wisp.bundle.cjs'), saved);
    rmSync(join(dist, 'wisp.bundle.cjs'));
    for (const face of ['check', 'tools']) {
      cpSync(join(dist, `wisp.${face}.cjs`), join(work, `${face}-bundle.saved`));
      rmSync(join(dist, `wisp.${face}.cjs`));
    }
    const savedChat = join(work, 'chat.saved');
    cpSync(join(dist, 'chat'), savedChat, { recursive: true });
    rmSync(join(dist, 'chat'), { recursive: true });
    try {
      expect(answers(freshHome('h3'))).toEqual(bundled);
    } finally {
      cpSync(saved, join(dist, 'wisp.bundle.cjs'));
      for (const face of ['check', 'tools']) cpSync(join(work, `${face}-bundle.saved`), join(dist, `wisp.${face}.cjs`));
      cpSync(savedChat, join(dist, 'chat'), { recursive: true });
    }
  }, 240_000);

  it('the first command after an install does not choose what `check` finds compiled: it writes a cache of its own', () => {
    rmSync(join(dist, 'cache'), { recursive: true, force: true });
    const home = freshHome('h8');
    // A first run of another command writes the shared cache, with its own functions only…
    expect(run(['config', 'path'], home).status).toBe(0);
    expect(cacheFiles(join(dist, 'cache')).map(faceOf)).toEqual(['cli']);
    // …and `check` does not take it: its first run writes its own, and the shared one is left as it was.
    const shared = join(dist, 'cache', cacheFiles(join(dist, 'cache'))[0]!);
    const past = new Date(Date.now() - 60_000);
    utimesSync(shared, past, past);
    const stamp = statSync(shared).mtimeMs;
    const r = run(['check', '--json', '--', 'ls'], home);
    expect(JSON.parse(r.stdout).decision).toBe('run');
    expect(cacheFiles(join(dist, 'cache')).map(faceOf).sort()).toEqual(['check', 'cli']);
    expect(statSync(shared).mtimeMs).toBe(stamp);
  }, 120_000);

  it('help and usage errors write no cache: the first `check` that decides a line writes it (ADR 0086)', () => {
    rmSync(join(dist, 'cache'), { recursive: true, force: true });
    const home = freshHome('h10');
    expect(run(['check', '--help'], home).status).toBe(0);
    expect(run(['check', '--cwd', join(work, 'nowhere'), '--', 'ls'], home).status).toBe(64);
    expect(run(['help', 'check'], home).status).toBe(0);
    expect(run(['tools', '-h'], home).status).toBe(0);
    expect(cacheFiles(join(dist, 'cache'))).toEqual([]);
    expect(JSON.parse(run(['check', '--json', '--', 'ls'], home).stdout).decision).toBe('run');
    expect(cacheFiles(join(dist, 'cache')).map(faceOf)).toEqual(['check']);
    // A line after `--` may hold the word --help: it is the line, and the run decided it.
    rmSync(join(dist, 'cache'), { recursive: true, force: true });
    expect(JSON.parse(run(['check', '--json', '--', 'ls --help'], home).stdout).decision).toBe('run');
    expect(cacheFiles(join(dist, 'cache')).map(faceOf)).toEqual(['check']);
  }, 120_000);

  it('a cache directory that cannot be written: the cache goes to $WISP_HOME/cache, and without a WISP_HOME nowhere', () => {
    rmSync(join(dist, 'cache'), { recursive: true, force: true });
    writeFileSync(join(dist, 'cache'), 'not a directory'); // mkdir fails even for root
    try {
      const home = freshHome('h4');
      const r = run(['check', '--json', '--', 'ls'], home);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).decision).toBe('run');
      expect(cacheFiles(join(home, 'cache'))).toHaveLength(1);
      expect(statSync(join(home, 'cache')).mode & 0o777).toBe(0o700);
      // Used from there next time (it is not rewritten).
      const file = join(home, 'cache', cacheFiles(join(home, 'cache'))[0]!);
      const past = new Date(Date.now() - 60_000);
      utimesSync(file, past, past);
      const stamp = statSync(file).mtimeMs;
      expect(run(['check', '--json', '--', 'ls'], home).status).toBe(0);
      expect(statSync(file).mtimeMs).toBe(stamp);

      // A WISP_HOME that does not exist is not created for a cache.
      const missing = join(work, 'no-such-home');
      const m = run(['check', '--json', '--', 'ls'], missing);
      expect(m.status).toBe(0);
      expect(existsSync(missing)).toBe(false);
    } finally {
      rmSync(join(dist, 'cache'), { force: true });
    }
  }, 120_000);

  it('attack: a cache file others can write, or a corrupt one, is not used; the answer is unchanged and the file is replaced', () => {
    const home = freshHome('h5');
    expect(run(['check', '--json', '--', 'ls'], home).status).toBe(0);
    const dir = join(dist, 'cache');
    const name = cacheFiles(dir)[0]!;
    const file = join(dir, name);
    // World-writable: anyone could have put code there. Ignored, and replaced by a private one.
    chmodSync(file, 0o666);
    const r = run(['check', '--json', '--', 'sudo ls'], home);
    expect(JSON.parse(r.stdout).decision).toBe('deny');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Garbage of the right name: V8 rejects it; the answer is the same.
    writeFileSync(file, Buffer.alloc(4096, 7), { mode: 0o600 });
    const g = run(['check', '--json', '--', 'sudo ls'], home);
    expect(g.stdout).toBe(r.stdout);
    expect(statSync(file).size).not.toBe(4096);
  }, 120_000);

  it('the chat runs from its ES-module bundle (ADR 0057), and not from a stale one', () => {
    const home = freshHome('h7');
    expect(readdirSync(join(dist, 'chat')).length).toBeGreaterThan(1); // split: the entry and its chunks
    const entry = join(dist, 'chat', 'main.js');
    const saved = join(work, 'chat-main.saved');
    cpSync(entry, saved);
    try {
      // A current chat bundle is what runs `wisp chat`…
      writeFileSync(entry, 'export async function main() { process.stdout.write("from the chat bundle\\n"); return 0; }\n');
      expect(run(['chat', '--help'], home).stdout).toBe('from the chat bundle\n');
      // …and only `wisp chat`.
      expect(run(['tools', '--json'], home).stdout).not.toContain('from the chat bundle');
      // Older than the bin (a tsc-only build since): the modules of dist/ answer.
      const old = new Date(Date.now() - 3600_000);
      utimesSync(entry, old, old);
      const r = run(['chat', '--help'], home);
      expect(r.stdout).not.toContain('from the chat bundle');
      expect(r.stdout).toContain('Usage: wisp chat');
    } finally {
      cpSync(saved, entry);
    }
  }, 120_000);

  it('a stale bundle (older than the bin, as after a tsc-only build) or a broken one is not run', () => {
    const home = freshHome('h6');
    const bundle = join(dist, 'wisp.check.cjs');
    const saved = join(work, 'bundle.saved2');
    cpSync(bundle, saved);
    try {
      // Broken and stale: a bundle that would answer wrongly if it ran.
      writeFileSync(bundle, '// wisp-bundle 0123456789abcdef\nmodule.exports = { main: async () => { process.stdout.write("from a stale bundle\\n"); return 0; } };\n');
      const old = new Date(Date.now() - 3600_000);
      utimesSync(bundle, old, old);
      const r = run(['check', '--json', '--', 'ls'], home);
      expect(r.stdout).not.toContain('stale bundle');
      expect(JSON.parse(r.stdout).decision).toBe('run');
      // Fresh, but without the function line the build writes around the code: not run either.
      writeFileSync(bundle, '// wisp-bundle 0123456789abcdef\nmodule.exports = { main: async () => { process.stdout.write("from a stale bundle\\n"); return 0; } };\n');
      const u = run(['check', '--json', '--', 'ls'], home);
      expect(u.stdout).not.toContain('stale bundle');
      expect(JSON.parse(u.stdout).decision).toBe('run');
      // Broken and fresh: it throws while loading; the modules answer.
      writeFileSync(bundle, `// wisp-bundle 0123456789abcdef\n${WRAPPER}throw new Error("broken bundle");\n})`);
      const b = run(['check', '--json', '--', 'ls'], home);
      expect(b.status).toBe(0);
      expect(JSON.parse(b.stdout).decision).toBe('run');
    } finally {
      cpSync(saved, bundle);
    }
  }, 120_000);
});
