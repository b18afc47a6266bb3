// `wisp chat` under a pseudo-terminal for tests: a fresh WISP_HOME, a work directory and a script model, the built
// CLI started in it, and every terminal killed after each test (`usePtyChats()` registers the hooks).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { BIN, freshHome } from './cli.js';
import { PtyTerm } from './pty-term.js';

export const READY = 'type a prompt, or /help';

export interface ChatSetup {
  readonly dir: string;
  readonly home: string;
  readonly work: string;
  readonly script: string;
}

export function chatSetup(responses: unknown[], config?: unknown): ChatSetup {
  const { dir, home } = freshHome();
  const work = join(dir, 'work');
  mkdirSync(work);
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ responses }));
  if (config !== undefined) writeFileSync(join(home, 'config.json'), JSON.stringify(config));
  return { dir, home, work, script };
}

export interface ChatStart {
  readonly args?: readonly string[];
  readonly cols?: number;
  readonly rows?: number;
  readonly env?: NodeJS.ProcessEnv;
}

/** Registers the build check and the clean-up; returns the function that starts a chat. */
export function usePtyChats(): (s: ChatSetup, opts?: ChatStart) => PtyTerm {
  let terms: PtyTerm[] = [];
  beforeAll(() => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: build first (npx tsc -p tsconfig.build.json)`);
  });
  afterEach(() => {
    for (const t of terms) t.kill();
    terms = [];
  });
  return (s, opts = {}) => {
    const t = new PtyTerm(process.execPath, [BIN, 'chat', '-m', `script:${s.script}`, ...(opts.args ?? [])], {
      cwd: s.work,
      env: { WISP_HOME: s.home, ...opts.env },
      ...(opts.cols ? { cols: opts.cols } : {}),
      ...(opts.rows ? { rows: opts.rows } : {}),
    });
    terms.push(t);
    return t;
  };
}
