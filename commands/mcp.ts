// `wisp mcp`: an MCP server on stdio for coding agents (Claude Code, Codex). Tools `respond` and `close_thread`,
// resources wisp://…; escalations reach a person through MCP elicitation raced with the queue (default), or the
// channel the operator picks with --escalation. The SDK is loaded only when this command runs.
import type { Command } from 'commander';
import { collect } from './options.js';
import type { McpFlags } from './mcp-run.js';

export function register(program: Command): void {
  program
    .command('mcp')
    .description('Serve wisp over MCP on stdio (tools respond and close_thread) until standard input closes')
    .option('-m, --model <spec>', 'model as backend:NAME — ollama:qwen3:8b, openai:NAME, script:PATH')
    .option('-y, --yes', 'approve commands that need approval, once each (same as --escalation auto)')
    .option('--escalation <channel>', 'who is asked: elicitation (default; raced with the queue), result, queue, auto, deny')
    .option('--tool <name>', 'offer only this tool to the model (repeatable): run_command, read_file, edit_file, ask_operator', collect, [])
    .option('--no-tools', 'offer the model no tools')
    .addHelpText(
      'after',
      '\nIn .mcp.json:\n  {"mcpServers": {"wisp": {"command": "npx", "args": ["wisp", "mcp"]}}}\n' +
        'Try it:\n  npx @modelcontextprotocol/inspector --cli node dist/bin/wisp.js mcp --method tools/list',
    )
    .action(async (flags: McpFlags) => {
      const { runMcp } = await import('./mcp-run.js');
      process.exitCode = await runMcp(flags);
    });
}
