#!/usr/bin/env node
// wisp's entry point. Kept tiny: `--version` answers without loading anything else. The other faces run from one
// bundled file (dist/wisp.bundle.cjs, `npm run build`) compiled with V8's code cache, so a start-up reads one file and
// compiles little (ADR 0041); `chat` and `mcp` import Ink or the MCP SDK, stay ES modules, and run from dist/ as
// built by tsc — as does everything when the bundle is missing or older than this file (a `tsc`-only build).
import { VERSION } from '../src/version.js';
import { loadBundle } from './bundle-loader.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(VERSION + '\n');
} else {
  const bundled = argv[0] === 'chat' || argv[0] === 'mcp' ? undefined : loadBundle(import.meta.url);
  const main = bundled ?? (await import('../commands/main.js')).main;
  process.exitCode = await main(argv);
}
