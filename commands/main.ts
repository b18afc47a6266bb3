// Builds the commander program from the subcommand modules and runs it; maps errors to design.md §5 exit codes.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../src/version.js';
import { WispError } from '../src/util/errors.js';
import { visible } from '../src/display/visible.js';
import { SUBCOMMANDS, registerAll } from './index.js';

export async function main(argv: string[]): Promise<number> {
  const program = new Command('wisp')
    .description('A terminal-first agent harness: a local model gets tools, and every action passes a gate.')
    .version(VERSION, '-V, --version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(shownError(s)), writeOut: (s) => process.stdout.write(s) }) // an unknown option is echoed
    .showHelpAfterError('(run wisp --help for usage)');

  // `wisp "PROMPT"` is `wisp respond "PROMPT"`; a bare `wisp` with piped stdin reads the prompt from it.
  const first = argv[0];
  let args = argv;
  const programFlags = ['-h', '--help', '-V', '--version'];
  if (first !== undefined && !SUBCOMMANDS.includes(first) && first !== 'help' && !programFlags.includes(first)) {
    args = ['respond', ...argv];
  } else if (first === undefined && !process.stdin.isTTY) {
    args = ['respond'];
  }
  // Only the subcommand that runs is loaded (its own --help included); `wisp`, `wisp --help`, `wisp help …` load all.
  await registerAll(program, args[0]);

  // Turn termination signals into an orderly exit, so 'exit' hooks kill the process groups of running commands.
  process.once('SIGTERM', () => process.exit(143));
  process.once('SIGHUP', () => process.exit(129));
  try {
    await program.parseAsync(args, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    return exitCodeFor(err);
  }
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return 0;
    return 64;
  }
  if (err instanceof WispError) {
    process.stderr.write(`wisp: ${shownError(err.message)}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`wisp: ${shownError(message)}\n`);
  return 1;
}

/**
 * An error message may quote text wisp did not write — a key from a repository's .wisprc.json, a model server's
 * error body — so it is made visible (design.md §10) before it reaches the terminal; its line breaks are kept.
 */
function shownError(message: string): string {
  return visible(message, { multiline: true, maxChars: 8000 });
}
