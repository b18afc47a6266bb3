// run_command: the full gate, then the sandbox. The model reads plain text back, refusals included.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { outputFields } from '../audit/output.js';
import { liveText } from '../exec/live.js';
import { formatRunResult, runCommand } from '../exec/run.js';
import { clearThroughGate } from './clear.js';
import type { ToolContext, ToolOutput, WispTool } from './types.js';
import { withCredentialsHidden } from './hide.js';

const schema = z.strictObject({
  command: z.string().min(1).max(16384).describe('A shell command line (run with bash -c), e.g. "ls -la src"'),
  workingDirectory: z
    .string()
    .max(4096)
    .optional()
    .describe('Directory to run in (default: where wisp was started); relative paths resolve from there'),
});

export const runCommandTool: WispTool<typeof schema> = {
  name: 'run_command',
  description:
    'Run a shell command in a sandbox and get its exit status and the tail of its output. Every command passes a ' +
    'gate: read-only commands run at once; others may need the operator\'s approval or be refused — if refused, ' +
    'do not retry the same command; explain or choose another way.',
  schema,
  limits: ['timeout 60 s (commands.timeoutSeconds)', 'last 4 KiB of stdout and of stderr (commands.maxOutputBytes)', 'writes only inside the launch directory and the temp dir'],
  example: 'How big is each folder in this project? Use run_command with du.',
  async run(args, ctx): Promise<ToolOutput> {
    const cwd = resolve(ctx.launchDir, args.workingDirectory ?? '.');
    if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
      return { content: `error: working directory does not exist: ${cwd}`, isError: true };
    }
    const decision = await clearThroughGate(ctx, { tool: 'run_command', subject: args.command, line: args.command, cwd });
    if (!decision.allowed) {
      return { content: `error: ${decision.reason}`, isError: true };
    }

    const { config } = ctx;
    ctx.audit.write(
      'policy.decision',
      {
        command: args.command,
        workingDirectory: cwd,
        verdict: 'allowed',
        sandbox: config.sandbox.enabled,
        network: decision.unasked ? false : config.sandbox.allowNetwork,
        contained: decision.unasked,
      },
      ctx.ctx,
    );
    const live = ctx.onLive;
    const callId = ctx.toolCallId;
    live?.({ type: 'command-start', callId, command: args.command });
    const result = await runCommand(args.command, {
      cwd,
      launchDir: ctx.launchDir,
      wispHome: ctx.paths.home,
      sandbox: config.sandbox,
      contained: decision.unasked,
      timeoutMs: config.commands.timeoutSeconds * 1000,
      maxOutputBytes: config.commands.maxOutputBytes,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(live ? { onOutput: liveText((stream, text) => live({ type: 'command-output', callId, stream, text })) } : {}),
    }).finally(() => live?.({ type: 'command-end', callId }));
    ctx.audit.write(
      'command.outcome',
      {
        command: args.command,
        workingDirectory: cwd,
        exitStatus: result.exitStatus,
        ...(result.signal ? { signal: result.signal } : {}),
        timedOut: result.timedOut,
        truncated: result.truncated,
        ...outputFields('stdout', result.stdout, config.audit.recordOutput),
        ...outputFields('stderr', result.stderr, config.audit.recordOutput),
        seconds: result.seconds,
        sandbox: result.sandboxed,
        ...(result.sandboxRefusal ? { sandboxRefusal: result.sandboxRefusal } : {}),
        ...(result.restored ? { restored: result.restored } : {}),
        ...(result.error ? { error: result.error } : {}),
      },
      ctx.ctx,
    );
    if (result.sandboxRefusal) {
      ctx.receipt.refusals.push({ command: args.command, reason: result.sandboxRefusal });
      return { content: `error: ${result.sandboxRefusal}`, isError: true };
    }
    if (result.error && result.exitStatus === null && !result.signal) {
      // It never started (a NUL byte in the line, a spawn failure): an error the model reads, not a result.
      return { content: formatRunResult(result), isError: true };
    }
    ctx.receipt.commands.push({
      command: args.command,
      exitStatus: result.exitStatus,
      timedOut: result.timedOut,
      truncated: result.truncated,
      seconds: result.seconds,
    });
    // What ran unasked was given to no one: recognisable credentials in its output are hidden from the model (a
    // token in `git remote -v`, a password in config/database.yml), ADR 0096. The person's own view keeps them.
    const text = decision.unasked ? withCredentialsHidden(formatRunResult(result)) : formatRunResult(result);
    ctx.onEvent?.({ type: 'output', tool: 'run_command', subject: args.command, text: tail(result.stdout || result.stderr, 6) });
    return { content: text };
  },
};

function tail(text: string, lines: number): string {
  const all = text.replace(/\n$/, '').split('\n');
  return all.slice(-lines).join('\n');
}
