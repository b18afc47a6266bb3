// `wisp init [--project]`: a starter config to edit. The user config ($WISP_HOME/config.json) is JSON, which has no
// comments, so it points an editor at the schema written next to it; the project config is a commented `.wisprc`.
import type { Command } from 'commander';
import type { InitFlags } from './init-run.js';

export function register(program: Command): void {
  program
    .command('init')
    .description('Write a starter config: the user config (default) or, with --project, a commented .wisprc here')
    .option('--project', 'write ./.wisprc (YAML, every key a project may set, commented out) instead')
    .addHelpText('after', '\nExamples:\n  wisp init\n  wisp init --project')
    .action(async (flags: InitFlags) => {
      const { runInit } = await import('./init-run.js');
      runInit(flags);
    });
}
