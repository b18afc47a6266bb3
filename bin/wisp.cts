#!/usr/bin/env node
// wisp's entry point, and the package's bin. A CommonJS module (ADR 0055): Node then starts it without its ES-module
// loader, whose asynchronous read and link of even a one-line entry cost a measurable share of a `wisp check`.
// `--version` answers without loading anything else. The other faces run from one bundled file
// (dist/wisp.bundle.cjs, `npm run build`) compiled with V8's code cache, so a start-up reads one file and compiles
// little (ADR 0041); `chat` and `mcp` import Ink or the MCP SDK, stay ES modules, and run from dist/ as built by tsc —
// as does everything when the bundle is missing or older than this file (a `tsc`-only build).
import { cacheFace, cacheWorthy, chatBundle, loadBundle } from './bundle-loader.cjs';

/** The package's version; test/commands/package.test.ts keeps it equal to package.json's and src/core/version.ts's. */
const VERSION = '0.1.0';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(VERSION + '\n');
} else {
  // The chat's keys: from now on the terminal hands them over as typed (raw), without echoing or line editing, so
  // what is typed while wisp starts reaches the input line intact once it is drawn (ADR 0056). Node puts the
  // terminal back as it was when the process exits, whatever the path.
  if (argv[0] === 'chat' && process.stdin.isTTY) {
    (require('./chat-keys.cjs') as typeof import('./chat-keys.cjs')).takeTerminal(process.stdin, process.stdout);
  }
  const bundled =
    argv[0] === 'chat' || argv[0] === 'mcp' ? undefined : loadBundle(__filename, cacheFace(argv[0]), (status) => cacheWorthy(argv, status));
  // The chat runs from its own ES-module bundle when there is a current one (ADR 0057).
  const chat = argv[0] === 'chat' ? chatBundle(__filename) : undefined;
  // A failure here is a crash with its stack and status 1, as an uncaught error in an ES-module entry was.
  void (async () => {
    const main = bundled ?? (chat ? ((await import(chat)) as typeof import('../commands/main.js')) : await import('../commands/main.js')).main;
    process.exitCode = await main(argv);
    // `check` from its bundle ends here, once its answer is out: what is left for the event loop then is V8's
    // scheduled scavenge of the young heap (about a hundred fresh pages and the copying; ADR 0086), which an ending
    // process does not need. Only when no socket-backed stdout or stderr exists (Node's `net` never loaded): their
    // writes may be queued, while fd 1 written directly and file streams are synchronous. 'exit' handlers still run.
    if (bundled !== undefined && argv[0] === 'check' && socketStdioUnused()) process.exit();
  })();
}

/** Node's `net` was never loaded, so no stdout or stderr stream is a socket whose writes could still be queued. */
function socketStdioUnused(): boolean {
  const loaded = (process as { moduleLoadList?: readonly string[] }).moduleLoadList;
  return Array.isArray(loaded) && !loaded.includes('NativeModule net');
}
