// `wisp chat`: the terminal face a person lives in — a transcript, an input line, and dialogs when the gate or the
// model needs them (design.md §2 `terminal`, §5). Ink and React load only when the command runs.
import type { Command } from 'commander';
import { UsageError } from '../src/core/errors.js';
import { channelFromFlags, collect } from './options.js';
import type { ChatFlags } from './chat-flags.js';

export function register(program: Command): void {
  program
    .command('chat')
    .description('Talk with the model in this terminal; approvals and questions come up as dialogs here')
    .option('-m, --model <spec>', 'model as backend:NAME — ollama:qwen3:8b, openai:NAME, script:PATH')
    .option('--escalation <channel>', 'who is asked when approval is needed: terminal (default, a dialog here), queue, auto, deny')
    .option('-y, --yes', 'approve commands that need approval, once each, without a dialog (never policy-denied ones)')
    .option('--tool <name>', 'offer only this tool (repeatable): run_command, read_file, edit_file, ask_operator', collect, [])
    .option('--no-tools', 'offer no tools: the model answers from what it knows')
    .option('--resume [id]', 'go on with a saved conversation: pick one from a list, or name its id')
    .option('-c, --continue', 'go on with the last conversation saved in this directory')
    .addHelpText(
      'after',
      '\nIn the chat: /help lists the slash commands. Approval dialog keys: y once, s session, p project, a always,\n' +
        'n no (Enter alone is no). Requests from other wisp processes (the queue) show up here too.\n' +
        'Input: Enter sends, Alt+Enter or \\ then Enter begins a new line, ↑/↓ and Ctrl+R recall earlier prompts\n' +
        '(kept in $WISP_HOME/history; a prompt that starts with a space is not kept), Ctrl+L redraws, /clear starts afresh.\n' +
        'Conversations are saved in $WISP_HOME/sessions/ (0600); --resume and --continue bring back the transcript and\n' +
        "the model's context, never approvals: commands approved for a session ask again.\n\n" +
        'Examples:\n  wisp chat\n  wisp chat --continue\n  wisp chat -m openai:local --tool run_command',
    )
    .action(async (flags: ChatFlags) => {
      if (flags.resume !== undefined && flags.continue) throw new UsageError('--resume and --continue cannot be used together');
      // The flags first: a channel the chat cannot use is the error to fix, whether or not this is a terminal.
      channelFromFlags({ ...(flags.yes ? { yes: true } : {}), ...(flags.escalation !== undefined ? { flag: flags.escalation } : {}), face: 'wisp chat' });
      if (!process.stdin.isTTY) {
        throw new UsageError(
          'wisp chat needs a terminal: standard input is not a TTY. For a piped or scripted prompt use wisp respond ' +
            '(echo "PROMPT" | wisp respond), or wisp mcp for another program',
        );
      }
      const { loadWithColourDecided } = await import('./chat-colour.js');
      const { runChat } = await loadWithColourDecided(process.env, async () => await import('./chat-run.js'));
      process.exitCode = await runChat(flags);
    });
}

