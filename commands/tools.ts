// `wisp tools [--json|--markdown]`: the tools a model gets inside wisp, with their argument schemas and limits —
// the same catalogue as the MCP resources wisp://tools and wisp://tools.md. The catalogue comes pre-generated from
// src/tools/registry.ts (a test keeps it in step), so the command starts without loading zod or the tools; it is
// loaded on first use, so `wisp --help` (which registers every command) does not read it.
import type { Command } from 'commander';
import { UsageError } from '../src/core/errors.js';
import { writeStdout } from '../src/util/write-out.js';
import { quietOnClosedPipe, renderTable } from './output.js';

export function register(program: Command): void {
  program
    .command('tools')
    .description('List the tools a model gets: a table (tab-separated when piped), --json or --markdown')
    .option('--json', 'the catalogue as JSON: {tools: [{name, description, inputSchema, limits, example}]}')
    .option('--markdown', 'the catalogue as Markdown (as docs/tools and wisp://tools.md)')
    .action(async (flags: { json?: boolean; markdown?: boolean }) => {
      if (flags.json && flags.markdown) throw new UsageError('choose one of --json and --markdown');
      await printTools(flags.json ? 'json' : flags.markdown ? 'markdown' : 'table');
    });
}

async function printTools(format: 'json' | 'markdown' | 'table'): Promise<void> {
  const { CATALOGUE, CATALOGUE_MARKDOWN } = await import('./tools-catalogue.generated.js');
  // Straight to file descriptor 1: process.stdout's first use loads Node's stream modules (ADR 0066), which only a
  // write the descriptor cannot take needs — and then a closed pipe still ends the command quietly.
  if (format === 'json') {
    writeStdout(JSON.stringify(CATALOGUE, null, 2) + '\n', quietOnClosedPipe);
    return;
  }
  if (format === 'markdown') {
    const md = CATALOGUE_MARKDOWN;
    writeStdout(md.endsWith('\n') ? md : md + '\n', quietOnClosedPipe);
    return;
  }
  quietOnClosedPipe();
  const tty = process.stdout.isTTY === true;
  const rows = CATALOGUE.tools.map((t) => {
    const props = Object.keys((t.inputSchema.properties ?? {}) as Record<string, unknown>);
    const required = new Set((t.inputSchema.required ?? []) as string[]);
    const args = props.map((p) => (required.has(p) ? p : `${p}?`)).join(', ');
    return [t.name, args, tty ? firstSentence(t.description) : t.description];
  });
  process.stdout.write(renderTable(['TOOL', 'ARGUMENTS', 'DESCRIPTION'], rows, { tty }));
}

function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^(.{20,}?[.;])\s/.exec(flat);
  const s = m ? (m[1] as string) : flat;
  return s.length > 100 ? `${s.slice(0, 99)}…` : s;
}
