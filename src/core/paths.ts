// Where wisp keeps its state. `$WISP_HOME` overrides `~/.wisp` (tests always set it).
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from './errors.js';

/**
 * Why `$WISP_HOME` cannot be used, or undefined when it can (unset and empty mean the default). A relative one is
 * refused rather than resolved (ADR 0102): it would name another folder in every directory wisp starts in, so a
 * terminal in one folder would file requests in a queue that a terminal in another never sees.
 */
export function wispHomeProblem(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.WISP_HOME;
  if (fromEnv === undefined || fromEnv.length === 0 || isAbsolute(fromEnv)) return undefined;
  const tilde = fromEnv.startsWith('~') ? ' (a ~ is expanded by a shell only when it is not quoted)' : '';
  return (
    `WISP_HOME must be an absolute path, not ${JSON.stringify(fromEnv)}${tilde}: a relative one would name another ` +
    `folder in every directory wisp starts in. Set it to a full path, e.g. WISP_HOME=${join(homedir(), '.wisp')}, or unset it`
  );
}

export function wispHome(env: NodeJS.ProcessEnv = process.env): string {
  const problem = wispHomeProblem(env);
  if (problem !== undefined) throw new UsageError(problem);
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
