// `npm run build`, second step (ADR 0041): bundles the light faces of the built CLI (dist/commands/main.js and what
// it reaches without Ink, React, the MCP SDK or the model runtime) into one CommonJS file, dist/wisp.bundle.cjs,
// which dist/bin/wisp.js loads through vm.Script with V8's code cache. Modules that statically import a package kept
// out of the bundle ("heavy": the chat, respond, mcp faces) stay separate ES modules; dist/bin/wisp.js runs those
// faces from dist/ directly, so no module is ever loaded twice.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// WISP_BUNDLE_DIST: bundle another copy of dist/ (test/commands/bundle.test.ts works on one).
const DIST = process.env.WISP_BUNDLE_DIST ? resolve(process.env.WISP_BUNDLE_DIST) : join(ROOT, 'dist');
const OUT = join(DIST, 'wisp.bundle.cjs');
const ENTRY = join(DIST, 'commands', 'main.js');
/** Packages put into the bundle: plain JavaScript, CommonJS or ESM without top-level await, no wasm, no workers. */
const INLINE = new Set(['commander', 're2js']);
/**
 * Packages left out but loaded with require() where they are imported (their CommonJS build): zod is half the bundle's
 * size, and the faces that start fastest (`check` of a line without a config file, `tools`) never load it.
 */
const REQUIRED = new Set(['zod']);

const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

// The static import graph of dist/ (tsc output: one `import … from '…'` per line, types already gone).
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
function staticImports(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(IMPORT)) out.push(m[1] ?? m[2]);
  return out;
}
const heavyMemo = new Map();
/** A module is heavy when it, or a module it statically imports, imports a package that is not inlined. */
function heavy(file, trail = new Set()) {
  if (heavyMemo.has(file)) return heavyMemo.get(file);
  if (trail.has(file)) return false;
  trail.add(file);
  let result = false;
  for (const spec of staticImports(file)) {
    if (spec.startsWith('node:')) continue;
    if (spec.startsWith('.')) {
      if (heavy(resolve(dirname(file), spec), trail)) result = true;
    } else if (!INLINE.has(packageOf(spec)) && !REQUIRED.has(packageOf(spec))) result = true;
  }
  heavyMemo.set(file, result);
  return result;
}

if (heavy(ENTRY)) throw new Error('bundle: commands/main.js itself imports a package that is not inlined');
/**
 * The plugin that draws the bundle's boundary; `externals` collects the specifiers of the dynamic imports left in the
 * bundle (packages, node: modules, heavy modules of dist/). With `only`, a bundle for that one subcommand: the other
 * subcommands' modules (imported by commands/index.js on demand) are left out and stand in as modules that fail.
 */
function facesPlugin(externals, only) {
  return {
  name: 'wisp-faces',
  setup(b) {
    if (only !== undefined) {
      b.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
        args.kind === 'dynamic-import' && args.importer === join(DIST, 'commands', 'index.js') && args.path !== `./${only}.js`
          ? { path: args.path, namespace: 'wisp-left-out' }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: 'wisp-left-out' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`wisp: ${args.path} is not in the ${only} bundle`)});`,
        loader: 'js',
      }));
    }
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.path.startsWith('node:')) {
        if (args.kind === 'dynamic-import') externals.add(args.path);
        return undefined;
      }
      if (args.path.startsWith('.')) {
        if (!args.importer.startsWith(DIST + '/')) return undefined; // inside an inlined package
        const target = resolve(args.resolveDir, args.path);
        if (!heavy(target)) return undefined;
        if (args.kind !== 'dynamic-import') throw new Error(`bundle: ${relative(DIST, args.importer)} statically imports heavy ${args.path}`);
        externals.add('./' + relative(DIST, target));
        return { path: './' + relative(DIST, target), external: true };
      }
      if (INLINE.has(packageOf(args.path)) || !args.importer.startsWith(DIST + '/')) return undefined;
      if (REQUIRED.has(packageOf(args.path)) && args.kind === 'import-statement') return { path: args.path, external: true };
      if (args.kind !== 'dynamic-import' && args.kind !== 'require-call') {
        throw new Error(`bundle: ${relative(DIST, args.importer)} statically imports ${args.path}, which is not inlined`);
      }
      if (args.kind === 'dynamic-import') externals.add(args.path);
      return { path: args.path, external: true };
    });
  },
  };
}

// commander requires node:child_process at load time, which loads net, streams and more (≈ a fifth of `check`'s
// start in a CPU profile), for executable subcommands wisp never uses: it gets the module on first use instead.
const COMMANDER_CHILD = "const childProcess = require('node:child_process');";
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (text.split(COMMANDER_CHILD).length !== 2 || /childProcess\.(?!spawn\()/.test(text)) {
        throw new Error('bundle: commander changed how it uses node:child_process; review the lazy-load patch');
      }
      const lazy = "let childProcessModule; const childProcess = { spawn: (...a) => (childProcessModule ??= require('node:child_process')).spawn(...a) };";
      return { contents: text.replace(COMMANDER_CHILD, lazy), loader: 'js' };
    });
  },
};

/**
 * Output options every bundle shares. Less to read and scan at every start: no comments or indentation, and the file
 * stays ASCII (one byte a character; ADR 0086). The metafile lists the inputs and outputs.
 */
const LEAN = { minifyWhitespace: true, minifySyntax: true, charset: 'ascii', legalComments: 'none', metafile: true };

/**
 * Bundles ENTRY into `out` (CommonJS; see the file's head), for every CommonJS face or, with `only`, for one
 * subcommand, and returns the dynamic imports left in it.
 */
async function bundleCjs(out, only) {
  const externals = new Set();
  const result = await build({
    entryPoints: [ENTRY],
    outfile: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // createRequire(import.meta.url) resolves packages: any file inside the package does, the bundle's own URL too.
    define: { 'import.meta.url': '__wispBundleUrl' },
    plugins: [facesPlugin(externals, only), lazyChildProcess],
    logLevel: 'warning',
    ...LEAN,
  });
  if (result.errors.length) process.exit(1);
  if (process.env.WISP_BUNDLE_SIZES) {
    const inputs = Object.values(result.metafile.outputs)[0].inputs;
    const byPackage = new Map();
    for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
      const key = path.includes('node_modules/') ? packageOf(path.split('node_modules/').pop()) : path.split('/').slice(0, 4).join('/');
      byPackage.set(key, (byPackage.get(key) ?? 0) + bytesInOutput);
    }
    for (const [k, v] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 25)) process.stderr.write(`${(v / 1024).toFixed(0).padStart(6)} KiB  ${k}\n`);
  }
  // `import()` inside code compiled by vm.Script needs a callback that V8's code cache does not keep (a cached run
  // fails with "A dynamic import callback was not specified"): every dynamic import left in the bundle calls the
  // loader's `__wispImport` instead, which imports from the ES module side.
  let dynamic = 0;
  const rewritten = readFileSync(out, 'utf8').replace(/\bimport\((["'])([^"']+)\1\)/g, (whole, _q, spec) => {
    if (!externals.has(spec)) return whole;
    dynamic++;
    return `__wispImport(${JSON.stringify(spec)})`;
  });
  if (dynamic < externals.size) throw new Error(`bundle: expected ${externals.size} dynamic imports to rewrite, found ${dynamic}`);

  // The first line names the content: the code cache is keyed by it (V8 itself only checks the source's length). The
  // second opens the function the loader calls (bin/bundle-loader.cts, WRAPPER): written here, the loader compiles
  // the file's text as read, instead of joining it into a new string (a second copy of the text at every start).
  // The file must be ASCII: the loader then reads it as Latin-1, one byte a character, with no UTF-8 decoding and
  // no two-byte string (one non-ASCII character made V8 keep all of it in two bytes a character).
  const nonAscii = /[^\x00-\x7f]/.exec(rewritten);
  if (nonAscii) throw new Error(`bundle: non-ASCII text at ${nonAscii.index}: ${JSON.stringify(rewritten.slice(nonAscii.index - 60, nonAscii.index + 20))}`);
  const hash = createHash('sha256').update(rewritten).digest('hex').slice(0, 16);
  const WRAPPER = '(function (exports, require, module, __filename, __dirname, __wispBundleUrl, __wispImport) {';
  writeFileSync(out, `// wisp-bundle ${hash}\n${WRAPPER}${rewritten}\n})`);
  process.stderr.write(`bundle: ${relative(ROOT, out)} ${(statSync(out).size / 1024).toFixed(0)} KiB; dynamic imports left: ${[...externals].sort().join(', ')}\n`);
  return externals;
}

rmSync(join(DIST, 'cache'), { recursive: true, force: true });
await bundleCjs(OUT);
// `wisp check`, the command scripts run before every line, and `wisp tools` get bundles of their own (ADR 0086;
// bin/bundle-loader.cts, cacheFace): each holds only what its command reaches, and every byte of a bundle is read,
// copied into a string and kept at every start.
for (const face of ['check', 'tools']) await bundleCjs(join(DIST, `wisp.${face}.cjs`), face);

// The ES-module faces (ADR 0057): `wisp chat` imports Ink, React and, behind its first frame, the session, the MCP
// SDK and the model runtime. Loaded as a few hundred ES modules, Node spends most of the chat's start reading and
// linking files; as one ES-module bundle with a chunk per dynamic import, the input line needs a handful of files and
// the rest loads behind it. ES modules, not the CommonJS bundle above: yoga (Ink's layout) awaits its wasm at the
// top level. The chat runs wholly from here (commander and main.js included), so no module of ours is loaded twice.
const CHAT = join(DIST, 'chat');
/** Left out: native code, wasm found beside the package, and packages loaded through createRequire on purpose. */
const CHAT_EXTERNAL = ['web-tree-sitter', 'tree-sitter-bash', 'node-llama-cpp', '@node-llama-cpp/*', 'cosmiconfig', 'react-devtools-core'];
rmSync(CHAT, { recursive: true, force: true });
const chat = await build({
  entryPoints: { main: ENTRY },
  outdir: CHAT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: CHAT_EXTERNAL,
  // CommonJS packages inside (React, …) may call require() for Node's built-ins at run time.
  banner: { js: "import { createRequire as __wispCreateRequire } from 'node:module'; const require = __wispCreateRequire(import.meta.url);" },
  // React's production build: the development one is several times larger and checks what only a React developer needs.
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
  ...LEAN,
});
if (chat.errors.length) process.exit(1);
const chatFiles = Object.values(chat.metafile.outputs);
process.stderr.write(`bundle: ${relative(ROOT, CHAT)}/ ${chatFiles.length} files, ${(chatFiles.reduce((n, o) => n + o.bytes, 0) / 1024).toFixed(0)} KiB\n`);
