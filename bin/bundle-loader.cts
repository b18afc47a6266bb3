// Loads dist/wisp.bundle.cjs (build/bundle.mjs) through vm.Script with V8's code cache (ADR 0041). The cache is kept
// beside the bundle (dist/cache/, as trusted as the code next to it) or, when that directory cannot be written, in
// $WISP_HOME/cache; a cache file is used only when it is ours and nobody else can write it. Any failure — no bundle,
// a stale one, an unreadable or rejected cache, a read-only directory — falls back to something slower, never to an
// error: no cache means compiling, no bundle means the ES modules of dist/.
// A CommonJS module, like the entry that loads it (bin/wisp.cts, ADR 0055): no ES-module loader on the start-up path.
import { isAscii } from 'node:buffer';
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

export type Main = (argv: string[]) => Promise<number>;

/** The first line of the bundle: `// wisp-bundle <sha256 of the rest, 16 hex digits>`. */
const HEADER = /^\/\/ wisp-bundle ([0-9a-f]{16})\n/;
/** The second: the function the bundle's code is the body of (build/bundle.mjs writes both). */
const HEADER_LENGTH = '// wisp-bundle 0123456789abcdef\n'.length;
const WRAPPER = '(function (exports, require, module, __filename, __dirname, __wispBundleUrl, __wispImport) {';

/** The commands that run from a bundle of their own (ADR 0086): the two whose start-up has a budget. */
export type Face = 'check' | 'tools' | 'cli';

/**
 * Which bundle and code cache a command uses. V8 writes into a cache only the functions the run that wrote it
 * compiled, so one cache shared by every command held what the first command after an install happened to be (`tools`
 * or `--help`), and every later `wisp check` compiled the gate again: 1.43× `node -e 0` instead of 1.36× (ADR 0041,
 * amended). `check`, the command scripts run before every line, and `tools` run from bundles of their own, each
 * holding only what the command reaches, with its own cache (ADR 0086); the others share one.
 */
export function cacheFace(command: string | undefined): Face {
  return command === 'check' || command === 'tools' ? command : 'cli';
}

/**
 * Whether a run with these arguments, ending with this status, did its command's usual work and so may write the code
 * cache: not help (`-h`, `--help` before `--`, `wisp help …`) and not a failure or usage error (status ≠ 0).
 */
export function cacheWorthy(argv: readonly string[], status: number): boolean {
  if (status !== 0) return false;
  const end = argv.indexOf('--');
  const own = end === -1 ? argv : argv.slice(0, end);
  return own[0] !== 'help' && !own.includes('-h') && !own.includes('--help');
}

/**
 * The bundle's `main`, or undefined when there is no usable bundle (the caller then imports dist/commands/main.js).
 * `entry` is the file of the running bin (dist/bin/wisp.cjs): a bundle older than it is stale. `face` names the bundle
 * and the code cache to use (cacheFace). `representative`, asked at exit with the exit status, says whether this run
 * may write the cache (cacheWorthy).
 */
export function loadBundle(entry: string, face: Face = 'cli', representative: (status: number) => boolean = () => true): Main | undefined {
  try {
    const dist = dirname(dirname(entry));
    const file = join(dist, face === 'cli' ? 'wisp.bundle.cjs' : `wisp.${face}.cjs`);
    // A `tsc`-only build rewrites dist/bin/wisp.js but not the bundle: an older bundle is stale and not used.
    if (statSync(file).mtimeMs < statSync(entry).mtimeMs) return undefined;
    // Read as Latin-1 when it is ASCII (the build makes sure): the same text as UTF-8 decoding gives, made without
    // decoding, which on this path is start-up time; anything else is decoded as UTF-8.
    const bytes = readFileSync(file);
    const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
    const hash = HEADER.exec(source)?.[1];
    // The build writes the function around the code (no second, joined copy of the text here): a file without it is
    // not a bundle this loader can run.
    if (hash === undefined || !source.startsWith(WRAPPER, HEADER_LENGTH)) return undefined;
    const name = `wisp-${hash}-${face}-${process.version}-${process.arch}.v8`;
    const places = cachePlaces(dist);
    const cached = readCache(places.map((dir) => join(dir, name)));
    const script = new Script(source, { filename: file, ...(cached ? { cachedData: cached } : {}) });
    if (cached === undefined || script.cachedDataRejected === true) {
      // Written when the process ends, so the cache holds the functions this run compiled, not only the top level —
      // and only by a run that did its command's work: a cache written by `check --help` or a usage error holds half
      // of what `check -- ls` runs, and, being accepted, would stay so (ADR 0086).
      process.once('exit', (status) => {
        if (representative(status)) writeCache(script, places, name);
      });
    }
    const fn = script.runInThisContext() as (...args: unknown[]) => void;
    const mod: { exports: { main?: Main } } = { exports: {} };
    const url = pathToFileURL(file).href;
    // The bundle's dynamic imports (web-tree-sitter, node-llama-cpp, chat-run.js …), done from this ES module:
    // packages resolve from here as from the bundle (same package), relative paths against the bundle's URL.
    const importer = (spec: string): Promise<unknown> => import(spec.startsWith('.') ? new URL(spec, url).href : spec);
    fn.call(mod.exports, mod.exports, createRequire(file), mod, file, dist, url, importer);
    return typeof mod.exports.main === 'function' ? mod.exports.main : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The ES-module bundle of the chat face (dist/chat/main.js, ADR 0057) as a URL to import, or undefined when it is
 * missing or older than `entry` (a `tsc`-only build): then the chat runs from the modules of dist/.
 */
export function chatBundle(entry: string): string | undefined {
  try {
    const file = join(dirname(dirname(entry)), 'chat', 'main.js');
    return statSync(file).mtimeMs < statSync(entry).mtimeMs ? undefined : pathToFileURL(file).href;
  } catch {
    return undefined;
  }
}

/** Where a cache may live, in order: beside the bundle, then $WISP_HOME/cache (~/.wisp/cache). */
function cachePlaces(dist: string): string[] {
  const fromEnv = process.env.WISP_HOME;
  // A relative WISP_HOME is refused by main (ADR 0102): no cache is read from or written to a folder it names.
  if (fromEnv && fromEnv.length > 0 && !isAbsolute(fromEnv)) return [join(dist, 'cache')];
  const home = fromEnv && fromEnv.length > 0 ? resolve(fromEnv) : join(homedir(), '.wisp');
  return [join(dist, 'cache'), join(home, 'cache')];
}

/** The first cache file that exists, is a regular file owned by this user and writable by nobody else. */
function readCache(files: readonly string[]): Buffer | undefined {
  const uid = process.getuid?.();
  for (const f of files) {
    let fd: number | undefined;
    try {
      fd = openSync(f, 'r');
      const st = fstatSync(fd);
      if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) continue;
      const buf = Buffer.alloc(st.size);
      let off = 0;
      while (off < st.size) {
        const n = readSync(fd, buf, off, st.size - off, off);
        if (n === 0) break;
        off += n;
      }
      return off === st.size ? buf : undefined;
    } catch {
      // missing or unreadable: try the next place
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return undefined;
}

function writeCache(script: Script, places: readonly string[], name: string): void {
  let data: Buffer;
  try {
    data = script.createCachedData();
  } catch {
    return;
  }
  for (const dir of places) {
    try {
      // Only a WISP_HOME that exists already: a cache is no reason to create wisp's state directory.
      if (dir !== places[0]) statSync(dirname(dir));
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // Another wisp may write the same file at the same time: each writes its own name, then renames (atomic).
      const tmp = join(dir, `.${name}.${process.pid}.tmp`);
      writeFileSync(tmp, data, { mode: 0o600 });
      renameSync(tmp, join(dir, name));
      return;
    } catch {
      // read-only or missing: the next place, or no cache at all
    }
  }
}
