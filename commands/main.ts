// Builds the commander program from the subcommand modules and runs it; maps errors to design.md §5 exit codes.
import { Command, CommanderError } from 'commander';
import { VERSION } from '../src/core/version.js';
import { WispError } from '../src/core/errors.js';
import { visible } from '../src/core/visible.js';
import { wispHomeProblem } from '../src/core/paths.js';
import { terminate } from './signals.js';
import { SUBCOMMANDS, registerAll } from './index.js';
import { nearestCommand, typoMessage, usageLine } from './usage.js';

export async function main(argv: string[]): Promise<number> {
  const program = new Command('wisp')
    .description('A terminal-first agent harness: a local model gets tools, and every action passes a gate.')
    .version(VERSION, '-V, --version')
    .exitOverride()
    // Help goes out as commander writes it; its error lines are rewritten as wisp's own (usageLine, below).
    .configureOutput({
      writeErr: (s) => process.stderr.write(shownError(s)),
      writeOut: (s) => process.stdout.write(s),
      outputError: () => {},
    });

  // `wisp "PROMPT"` is `wisp respond "PROMPT"`; a bare `wisp` with piped stdin reads the prompt from it.
  const first = argv[0];
  let args = argv;
  const programFlags = ['-h', '--help', '-V', '--version'];
  if (first !== undefined && !SUBCOMMANDS.includes(first) && first !== 'help' && !programFlags.includes(first)) {
    // A mistyped subcommand is not a prompt: `wisp doctr` must not cost a model turn (`wisp -- doctr` still is one).
    const meant = nearestCommand(first, SUBCOMMANDS, argv.length === 1);
    if (meant !== undefined) {
      process.stderr.write(`wisp: ${shownError(typoMessage(argv, meant))}\n`);
      return 64;
    }
    args = ['respond', ...argv];
  } else if (first === undefined && !process.stdin.isTTY) {
    args = ['respond'];
  }
  // A relative WISP_HOME is refused before any command reads or writes a file (ADR 0102); help still answers.
  const home = wispHomeProblem();
  if (home !== undefined && !args.some((a) => a === '-h' || a === '--help') && args[0] !== 'help' && args.length > 0) {
    process.stderr.write(`wisp: ${shownError(home)}\n`);
    return 64;
  }
  // Only the subcommand that runs is loaded (its own --help included); `wisp`, `wisp --help`, `wisp help …` load all.
  await registerAll(program, args[0]);

  // Turn termination signals into an orderly exit, so 'exit' hooks kill the process groups of running commands and
  // end the session, its waiting escalations settled and audited (commands/signals.ts, ADR 0102).
  process.once('SIGTERM', () => terminate('SIGTERM'));
  process.once('SIGHUP', () => terminate('SIGHUP'));
  try {
    await program.parseAsync(args, { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError && isUsageError(err)) {
      const command = args[0] !== undefined && SUBCOMMANDS.includes(args[0]) ? args[0] : undefined;
      const path = commandPath(program, args).join(' ') || undefined;
      const line = usageLine(err.code, err.message, { argv, command, implicitRespond: args !== argv, commands: SUBCOMMANDS, ...(path ? { path } : {}) });
      process.stderr.write(`wisp: ${shownError(line)}\n`);
    }
    return exitCodeFor(err);
  }
}

/** The subcommand words of `args` that name commands (`config set`), for the help hint. */
function commandPath(program: Command, args: readonly string[]): string[] {
  const path: string[] = [];
  let cmd = program;
  for (const word of args) {
    const sub = cmd.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!sub) break;
    path.push(sub.name());
    cmd = sub;
  }
  return path;
}

/** commander's own errors (unknown option, missing argument …), as opposed to help or version output. */
function isUsageError(err: CommanderError): boolean {
  return err.exitCode !== 0 && err.code !== 'commander.help' && err.code !== 'commander.helpDisplayed' && err.code !== 'commander.version';
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
