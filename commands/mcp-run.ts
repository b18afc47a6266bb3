// The body of `wisp mcp`, loaded only when the command runs: resolve the channel, open the session, serve stdio
// until standard input closes, then end every thread and the session.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../src/config/load.js';
import { createWispMcp } from '../src/mcp/server.js';
import { wispHome } from '../src/core/paths.js';
import { openSession } from '../src/session/session.js';
import { resolveChannel } from './options.js';
import { onTermination } from './signals.js';

export interface McpFlags {
  model?: string;
  yes?: boolean;
  escalation?: string;
  tool?: string[];
  tools?: boolean;
}

export async function runMcp(flags: McpFlags): Promise<number> {
  const cwd = process.cwd();
  const home = wispHome();
  const warn = (m: string) => process.stderr.write(`wisp: ${m}\n`);
  const loaded = loadConfig({ home, cwd });
  loaded.warnings.forEach(warn);
  const { channel, notice, notUsed } = resolveChannel({
    ...(flags.yes ? { yes: true } : {}),
    ...(flags.escalation !== undefined ? { flag: flags.escalation } : {}),
    ...(loaded.config.escalation.channel ? { configured: loaded.config.escalation.channel } : {}),
    face: 'wisp mcp',
  });
  if (notice) warn(notice);
  const server = await createWispMcp({
    config: loaded.config,
    channel,
    notice: warn,
    openSession: (faceChannel, wrapChannel) =>
      openSession({
        entryPoint: 'mcp',
        cwd,
        home,
        config: loaded.config,
        channel,
        ...(notUsed ? { channelNotUsed: notUsed } : {}),
        client: 'mcp',
        warn,
        ...(faceChannel ? { faceChannel } : {}),
        ...(wrapChannel ? { wrapChannel } : {}),
        ...(flags.model ? { modelSpec: flags.model } : {}),
        ...(flags.tool && flags.tool.length ? { toolNames: flags.tool } : {}),
        ...(flags.tools === false ? { noTools: true } : {}),
      }),
  });

  const transport = new StdioServerTransport();
  const done = new Promise<string>((resolve) => {
    transport.onclose = () => resolve('disconnected');
    process.stdin.once('end', () => resolve('done'));
    process.stdin.once('close', () => resolve('done'));
    // SIGTERM and SIGHUP reach main first (commands/signals.ts): it hands them here, so the threads end in order.
    onTermination((signal) => resolve(signal === 'SIGTERM' ? 'terminated' : 'hangup'));
    process.once('SIGINT', () => resolve('interrupted'));
  });
  await server.connect(transport);
  const reason = await done;
  await server.close(reason);
  return 0;
}
