// Where wisp keeps its state. `$WISP_HOME` overrides `~/.wisp` (tests always set it).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function wispHome(env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env.WISP_HOME;
  return fromEnv && fromEnv.length > 0 ? resolve(fromEnv) : join(homedir(), '.wisp');
}

export interface WispPaths {
  readonly home: string;
  readonly config: string;
  readonly approvals: string;
  readonly pending: string;
  readonly logs: string;
  readonly audit: string;
}

export function wispPaths(home: string = wispHome()): WispPaths {
  return {
    home,
    config: join(home, 'config.json'),
    approvals: join(home, 'approvals.json'),
    pending: join(home, 'pending'),
    logs: join(home, 'logs'),
    audit: join(home, 'logs', 'audit.jsonl'),
  };
}
