// Running a program under a pseudo-terminal (node-pty), and reading what a terminal would show (@xterm/headless).
// Used where behaviour depends on a real TTY: `wisp approvals approve` answers only when stdin is a terminal, and a
// display is only safe if a terminal emulator cannot be made to hide or rewrite part of it.
import { createRequire } from 'node:module';
import * as pty from 'node-pty';

export interface PtyRun {
  readonly exitCode: number;
  readonly signal?: number;
  /** Everything the program wrote to the terminal, raw (escape sequences and \r\n included). */
  readonly output: string;
}

export interface PtyOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly cols?: number;
  readonly rows?: number;
  /** Kill the program after this long (default 30 s) and reject. */
  readonly timeoutMs?: number;
  /** Written to the terminal once the program starts (keys a person would type). */
  readonly input?: string;
}

export function runInPty(file: string, args: readonly string[], opts: PtyOptions = {}): Promise<PtyRun> {
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(Object.entries(opts.env ?? process.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const term = pty.spawn(file, [...args], {
      name: 'xterm-256color',
      cols: opts.cols ?? 120,
      rows: opts.rows ?? 40,
      cwd: opts.cwd ?? process.cwd(),
      env,
    });
    let output = '';
    term.onData((d) => (output += d));
    const timer = setTimeout(() => {
      term.kill();
      reject(new Error(`timed out after ${opts.timeoutMs ?? 30_000} ms; output so far:\n${output}`));
    }, opts.timeoutMs ?? 30_000);
    term.onExit(({ exitCode, signal }) => {
      clearTimeout(timer);
      // node-pty can report exit before the last data event; let pending output drain.
      setTimeout(() => resolve({ exitCode, ...(signal ? { signal } : {}), output }), 50);
    });
    if (opts.input !== undefined) term.write(opts.input);
  });
}

interface HeadlessTerminal {
  write(data: string, callback?: () => void): void;
  buffer: { active: { length: number; getLine(y: number): { translateToString(trimRight?: boolean): string } | undefined } };
  dispose(): void;
}

/** The text a terminal of this size would show after receiving `output` (escape sequences interpreted). */
export async function screenText(output: string, cols = 120, rows = 40): Promise<string> {
  const require = createRequire(import.meta.url);
  const { Terminal } = require('@xterm/headless') as { Terminal: new (o: object) => HeadlessTerminal };
  const term = new Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true });
  await new Promise<void>((r) => term.write(output, r));
  const lines: string[] = [];
  const buf = term.buffer.active;
  for (let y = 0; y < buf.length; y++) lines.push(buf.getLine(y)?.translateToString(true) ?? '');
  term.dispose();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}
