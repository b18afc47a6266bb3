// An interactive terminal for tests: a program under a pseudo-terminal (node-pty), its output fed to a headless
// xterm, and helpers to wait for what the screen shows and to type keys. Used by the `wisp chat` tests, which need
// a real TTY (raw mode, cursor movement, a redrawn live area) to be believed.
//
// Ink renders only the last frame when `CI` is set at all, so it is removed from the child's environment.
import * as pty from 'node-pty';
import xterm from '@xterm/headless';

const { Terminal } = xterm;

export interface PtyTermOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  /** @default 120 */
  readonly cols?: number;
  /** @default 40 */
  readonly rows?: number;
}

export class PtyTerm {
  /** Everything the program wrote, raw (escape sequences included). */
  raw = '';
  readonly exited: Promise<{ exitCode: number; signal?: number }>;
  private readonly proc: pty.IPty;
  private readonly term: InstanceType<typeof Terminal>;
  private written: Promise<void> = Promise.resolve();
  private done = false;
  private readonly watchers = new Set<{ needle: string; fn: () => void }>();

  constructor(file: string, args: readonly string[], opts: PtyTermOptions) {
    const cols = opts.cols ?? 120;
    const rows = opts.rows ?? 40;
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, TERM: 'xterm-256color', ...opts.env })) {
      if (typeof v === 'string' && k !== 'CI') env[k] = v;
    }
    this.term = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
    this.proc = pty.spawn(file, [...args], { name: 'xterm-256color', cols, rows, cwd: opts.cwd, env });
    this.proc.onData((d) => {
      this.raw += d;
      for (const w of [...this.watchers]) {
        if (this.raw.includes(w.needle)) {
          this.watchers.delete(w);
          w.fn();
        }
      }
      this.written = this.written.then(() => new Promise<void>((r) => this.term.write(d, r)));
    });
    this.exited = new Promise((resolve) => {
      this.proc.onExit((e) => {
        this.done = true;
        resolve({ exitCode: e.exitCode, ...(e.signal ? { signal: e.signal } : {}) });
      });
    });
  }

  /** The visible screen, one string per row, right-trimmed. */
  async screen(): Promise<string> {
    await this.written;
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < this.term.rows; i++) lines.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** Scrollback and screen together. */
  async text(): Promise<string> {
    await this.written;
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buf.length; i++) lines.push(buf.getLine(i)?.translateToString(true) ?? '');
    return lines.join('\n').replace(/\n+$/, '');
  }

  /** Waits until the screen matches; returns the screen. Throws with the screen when it never does. */
  async waitFor(pattern: RegExp | string, timeoutMs = 20_000): Promise<string> {
    const end = Date.now() + timeoutMs;
    const matches = (s: string) => (typeof pattern === 'string' ? s.includes(pattern) : pattern.test(s));
    for (;;) {
      const screen = await this.screen();
      if (matches(screen)) return screen;
      if (Date.now() > end || this.done) {
        throw new Error(`the screen never showed ${String(pattern)}${this.done ? ' (the program exited)' : ''}; it shows:\n${screen}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits until the raw output (escape sequences and all) holds `needle`. */
  async waitForRaw(needle: string, timeoutMs = 5_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!this.raw.includes(needle)) {
      if (Date.now() > end || this.done) throw new Error(`the program never wrote ${JSON.stringify(needle)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Calls `fn` from the data callback itself as soon as the raw output holds `needle` (no polling delay). */
  onRaw(needle: string, fn: () => void): void {
    if (this.raw.includes(needle)) fn();
    else this.watchers.add({ needle, fn });
  }

  /** Resizes the terminal, as a person dragging the window's edge: the screen reflows, the program gets SIGWINCH. */
  async resize(cols: number, rows: number): Promise<void> {
    await this.written;
    this.term.resize(cols, rows);
    this.proc.resize(cols, rows);
  }

  /** Types keys (as one write, like a paste or a fast typist; use several calls for separate keystrokes). */
  write(data: string): void {
    this.proc.write(data);
  }

  /** Types a line of text, then Enter as its own keystroke. */
  async typeLine(text: string): Promise<void> {
    this.proc.write(text);
    await new Promise((r) => setTimeout(r, 50));
    this.proc.write('\r');
  }

  /**
   * Answers the dialog showing `title` with `key`: pressed after a pause (a dialog counts only keys that follow one,
   * ADR 0023), and again after another pause while the dialog is still on screen — a stalled machine can make a pause
   * look like typing. Never presses once it is gone, so no extra key lands in the input line.
   */
  async answerDialog(key: string, title: string): Promise<void> {
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    for (let i = 0; i < 8; i++) {
      await sleep(700);
      if (!(await this.screen()).includes(title)) return;
      this.write(key);
      // Give the answer time to show before judging that it was not taken.
      for (let w = 0; w < 30 && (await this.screen()).includes(title); w++) await sleep(50);
    }
  }

  kill(): void {
    if (!this.done) this.proc.kill();
    this.term.dispose();
  }
}
