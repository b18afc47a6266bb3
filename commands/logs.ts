// `wisp logs [--session ID] [--thread ID] [--kind K…] [--last N] [--json] [-f]`: the audit log, one readable line
// per event, across rotated files oldest first. The body loads lazily.
import { InvalidArgumentError, type Command } from 'commander';
import { collect } from './options.js';
import type { LogsFlags } from './logs-run.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('expected a whole number');
  return n;
}

export function register(program: Command): void {
  program
    .command('logs')
    .description('Read the audit log: one line per event (time, session, kind, the essentials), oldest first')
    .option('--session <id>', 'only this session')
    .option('--thread <id>', 'only this thread (MCP)')
    .option('--kind <kind>', 'only this kind (repeatable, or comma-separated); a family such as "approval" matches approval.*', collect, [])
    .option('-n, --last <n>', 'only the last N matching events', positiveInt)
    .option('--json', 'print the events as JSON Lines, as they are stored')
    .option('-f, --follow', 'keep printing new events as they are written (survives rotation); Ctrl-C stops')
    .addHelpText(
      'after',
      '\nExamples:\n  wisp logs --last 20\n  wisp logs --kind approval --kind policy.decision\n  wisp logs -f --session 1a2b3c4d\n' +
        '  wisp logs --json | jq -c \'select(.kind == "command.outcome") | .details.command\'',
    )
    .action(async (flags: LogsFlags) => {
      const { runLogs } = await import('./logs-run.js');
      process.exitCode = await runLogs(flags);
    });
}
