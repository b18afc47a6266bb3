// `wisp respond [PROMPT]` (also `wisp "PROMPT"`, or the prompt piped on stdin): one turn, reply on stdout,
// gate lines and progress on stderr, `--json` for scripts. A refused command is not a failure: exit 0.
import type { Command } from 'commander';
import { collect } from './options.js';
import type { RespondFlags } from './respond-run.js';

export function register(program: Command): void {
  program
    .command('respond')
    .description('Answer one prompt with the model and its tools, then exit (the default: wisp "PROMPT")')
    .argument('[prompt...]', 'the prompt; read from standard input when omitted and stdin is piped')
    .option('-m, --model <spec>', 'model as backend:NAME — ollama:qwen3:8b, openai:NAME, script:PATH')
    .option('-y, --yes', 'approve commands that need approval, once each (never policy-denied ones)')
    .option('--escalation <channel>', 'who is asked when approval is needed: deny (default), auto, queue')
    .option('--tool <name>', 'offer only this tool (repeatable): run_command, read_file, edit_file, ask_operator', collect, [])
    .option('--no-tools', 'offer no tools: the model answers from what it knows')
    .option('-i, --instructions <text>', 'extra instructions for the model')
    .option('--json', 'print {text, refusals, receipt} as JSON instead of the streamed reply')
    .addHelpText(
      'after',
      '\nExamples:\n  wisp "what is in this directory?"\n  git diff | wisp respond -m ollama:qwen3:8b "review this"\n  wisp respond --yes --json -m script:examples/safe.json "list files"',
    )
    .action(async (words: string[], flags: RespondFlags) => {
      const { runRespond } = await import('./respond-run.js');
      process.exitCode = await runRespond(words, flags);
    });
}

