#!/usr/bin/env node
// wisp's entry point. Kept tiny: `--version` answers without loading anything, and each subcommand loads only
// what it uses (Ink, React, the MCP SDK and model clients are imported inside the faces that need them).
import { VERSION } from '../src/version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(VERSION + '\n');
} else {
  const { main } = await import('../commands/main.js');
  process.exitCode = await main(argv);
}
