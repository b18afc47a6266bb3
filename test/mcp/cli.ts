// The built `wisp` CLI as an MCP server over stdio, for tests that talk to it with the SDK's stdio client; queue
// answers come from `wisp approvals approve|deny ID` run under a pseudo-terminal (they refuse without one).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Dirs, ElicitHandler } from './helpers.js';

export const root = resolve(import.meta.dirname, '..', '..');
export const bin = join(root, 'dist', 'bin', 'wisp.js');

const SOURCES = [
  'src/mcp/server.ts',
  'src/mcp/elicitation.ts',
  'src/mcp/threads.ts',
  'src/mcp/resources.ts',
  'src/mcp/tasks.ts',
  'src/mcp/task-channel.ts',
  'src/session/session.ts',
  'src/config/schema.ts',
  'commands/mcp.ts',
  'commands/mcp-run.ts',
];

/** Builds unless dist is newer than every source file the MCP face depends on. */
export function ensureBuilt(): void {
  const newest = SOURCES.map((f) => statSync(join(root, f)).mtimeMs).reduce((a, b) => Math.max(a, b), 0);
  const built = statSync(join(root, 'dist', 'src', 'mcp', 'server.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (!existsSync(bin) || built < newest) {
    execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  }
}

export interface Spawned {
  readonly client: Client;
  readonly transport: StdioClientTransport;
}

export async function spawnMcp(dirs: Dirs, args: string[], elicit?: ElicitHandler): Promise<Spawned> {
  const client = new Client({ name: 'stdio-test', version: '1' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, elicit);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...args],
    cwd: dirs.work,
    env: { ...(process.env as Record<string, string>), WISP_HOME: dirs.home },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return { client, transport };
}

export async function connect(dirs: Dirs, args: string[], elicit?: ElicitHandler): Promise<Client> {
  return (await spawnMcp(dirs, args, elicit)).client;
}

/** `wisp approvals approve|deny ID` with a pseudo-terminal on stdin, as a person would run it. */
export function answerFromTerminal(dirs: Dirs, verb: 'approve' | 'deny', id: string): { status: number | null; out: string } {
  const r = spawnSync('script', ['-qec', `${process.execPath} ${bin} approvals ${verb} ${id} --yes`, '/dev/null'], {
    cwd: dirs.work,
    env: { ...process.env, WISP_HOME: dirs.home },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

export interface FileEvent {
  readonly kind: string;
  readonly session: string;
  readonly thread?: string;
  readonly details: Record<string, unknown>;
}

/** The audit log the server wrote, parsed. */
export function auditEvents(dirs: Dirs): FileEvent[] {
  const file = join(dirs.home, 'logs', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FileEvent);
}
