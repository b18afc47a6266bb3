// `wisp tools [--json|--markdown]`: the tools a model gets inside wisp, with their argument schemas and limits —
// the same catalogue as the MCP resources wisp://tools and wisp://tools.md. The body loads lazily.
import type { Command } from 'commander';
import { UsageError } from '../src/core/errors.js';

export function register(program: Command): void {
  program
    .command('tools')
    .description('List the tools a model gets: a table (tab-separated when piped), --json or --markdown')
    .option('--json', 'the catalogue as JSON: {tools: [{name, description, inputSchema, limits, example}]}')
    .option('--markdown', 'the catalogue as Markdown (as docs/tools and wisp://tools.md)')
    .action(async (flags: { json?: boolean; markdown?: boolean }) => {
      if (flags.json && flags.markdown) throw new UsageError('choose one of --json and --markdown');
      const { printTools } = await import('./tools-run.js');
      printTools(flags.json ? 'json' : flags.markdown ? 'markdown' : 'table');
    });
}
