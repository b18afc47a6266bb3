// The subcommands, each a thin module: parse flags, build what it needs (lazily), hand over.
import type { Command } from 'commander';
import { register as approvals } from './approvals.js';
import { register as chat } from './chat.js';
import { register as check } from './check.js';
import { register as config } from './config.js';
import { register as doctor } from './doctor.js';
import { register as inquiries } from './inquiries.js';
import { register as logs } from './logs.js';
import { register as mcp } from './mcp.js';
import { register as respond } from './respond.js';
import { register as tools } from './tools.js';

const registrars: Array<[string, (program: Command) => void]> = [
  ['respond', respond],
  ['chat', chat],
  ['check', check],
  ['approvals', approvals],
  ['inquiries', inquiries],
  ['mcp', mcp],
  ['config', config],
  ['logs', logs],
  ['tools', tools],
  ['doctor', doctor],
];

export const SUBCOMMANDS: readonly string[] = registrars.map(([name]) => name);

export function registerAll(program: Command): void {
  for (const [, register] of registrars) register(program);
}
