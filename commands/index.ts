// The subcommands, each a thin module: parse flags, build what it needs (lazily), hand over.
import type { Command } from 'commander';

type Register = (program: Command) => void;

// Loaded on demand: a run registers only the subcommand it runs (start-up, docs/performance.md); help lists all.
const registrars: Array<[string, () => Promise<Register>]> = [
  ['respond', async () => (await import('./respond.js')).register],
  ['chat', async () => (await import('./chat.js')).register],
  ['check', async () => (await import('./check.js')).register],
  ['approvals', async () => (await import('./approvals.js')).register],
  ['inquiries', async () => (await import('./inquiries.js')).register],
  ['mcp', async () => (await import('./mcp.js')).register],
  ['config', async () => (await import('./config.js')).register],
  ['logs', async () => (await import('./logs.js')).register],
  ['tools', async () => (await import('./tools.js')).register],
  ['doctor', async () => (await import('./doctor.js')).register],
  ['init', async () => (await import('./init.js')).register],
  ['models', async () => (await import('./models.js')).register],
];

export const SUBCOMMANDS: readonly string[] = registrars.map(([name]) => name);

/** Registers every subcommand, in order, or only `only` (the one about to run) when it names one. */
export async function registerAll(program: Command, only?: string): Promise<void> {
  const chosen = registrars.filter(([name]) => only === undefined || !SUBCOMMANDS.includes(only) || name === only);
  const registers = await Promise.all(chosen.map(([, load]) => load()));
  for (const register of registers) register(program);
}
