// A resize that narrows the terminal while a dialog is open left two frames on screen: the terminal re-wraps the
// rows already drawn (a dialog's border 100 columns wide becomes two rows at 60), and Ink then erases only as many
// rows as its frame had before, so the top half of the old frame stays above the new one. This stream stands
// between Ink and the terminal: it keeps the width of the last rows written (what Ink writes, and nothing else:
// whole lines, line erases, cursor up) and, on the erase Ink writes right after a narrowing, erases the rows those
// lines take *now*. Nothing else it passes is changed. ADR 0046.
import { EventEmitter } from 'node:events';
import { columns } from './fit.js';

const ERASE_LINE = '\x1b[2K';
const UP = '\x1b[1A';
const LEFT = '\x1b[G';
/** Rows remembered: more than any live area. */
const KEEP = 400;

/** Ink's own erase: `eraseLines(n)` from ansi-escapes. */
export function eraseLines(n: number): string {
  if (n <= 0) return '';
  return (ERASE_LINE + UP).repeat(n - 1) + ERASE_LINE + LEFT;
}

/** The lines written so far (their visible text only) and the line the cursor is on. */
export class ScreenTail {
  private lines: string[] = [''];
  private cur = 0;

  write(data: string): void {
    const token = /\x1b\[([0-9;?]*)([A-Za-z])|\x1b[^[]|\n|\r|[^\x1b\n\r]+/g;
    for (const m of data.matchAll(token)) {
      const t = m[0];
      if (m[2] !== undefined) {
        const n = Number.parseInt(m[1] || '1', 10) || 1;
        if (m[2] === 'A') this.cur = Math.max(0, this.cur - n);
        else if (m[2] === 'B') this.cur = Math.min(this.lines.length - 1, this.cur + n);
        else if (m[2] === 'K' && m[1] === '2') this.lines[this.cur] = '';
        // SGR colours, cursor column, show/hide: no change to what a row holds.
      } else if (t === '\n') {
        this.cur++;
        if (this.cur === this.lines.length) this.lines.push('');
        if (this.lines.length > KEEP) {
          const drop = this.lines.length - KEEP;
          this.lines.splice(0, drop);
          this.cur -= drop;
        }
      } else if (t !== '\r' && !t.startsWith('\x1b')) {
        this.lines[this.cur] += t;
      }
    }
  }

  /**
   * Rows that `n` lines ending at the cursor's line take at `cols` columns: the terminal re-wraps each line that is
   * wider than the window (trailing blanks do not wrap).
   */
  rows(n: number, cols: number): number {
    let rows = 0;
    for (let i = this.cur; i > this.cur - n && i >= 0; i--) {
      rows += Math.max(1, Math.ceil(columns(this.lines[i]!.trimEnd()) / Math.max(1, cols)));
    }
    // Lines above the ones remembered: one row each (no better guess).
    return rows + Math.max(0, n - (this.cur + 1));
  }
}

/** `data` is an erase of whole lines and nothing after it (Ink's `log.clear()`): the prefix before it and the count. */
export function parseClear(data: string): { prefix: string; count: number } | undefined {
  const at = data.indexOf(ERASE_LINE);
  if (at < 0) return undefined;
  const prefix = data.slice(0, at);
  if (prefix.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '') !== '') return undefined;
  const rest = data.slice(at);
  const m = /^(?:\x1b\[2K\x1b\[1A)*\x1b\[2K\x1b\[G$/.exec(rest);
  if (!m) return undefined;
  return { prefix, count: rest.split(ERASE_LINE).length - 1 };
}

type Out = NodeJS.WriteStream;

/** The stdout Ink is given: the real one, with the erase after a narrowing widened to the rows really used. */
export class ReflowSafeStdout extends EventEmitter {
  private readonly tail = new ScreenTail();
  private lastCols: number;
  private narrowedTo: number | undefined;

  constructor(private readonly out: Out) {
    super();
    this.lastCols = out.columns || 80;
    out.on('resize', this.onResize);
  }

  private readonly onResize = (): void => {
    const cols = this.out.columns || 80;
    // Ink clears on a narrowing only; a widening re-wraps nothing Ink drew (its lines end in hard line breaks).
    this.narrowedTo = cols < this.lastCols ? cols : undefined;
    this.lastCols = cols;
    this.emit('resize');
    this.narrowedTo = undefined; // Ink erases synchronously from its resize listener, or not at all
  };

  get columns(): number {
    return this.out.columns;
  }
  get rows(): number {
    return this.out.rows;
  }
  get isTTY(): boolean {
    return this.out.isTTY === true;
  }
  get destroyed(): boolean {
    return this.out.destroyed;
  }
  get writable(): boolean {
    return this.out.writable;
  }
  get writableEnded(): boolean {
    return this.out.writableEnded;
  }
  get writableLength(): number {
    return this.out.writableLength;
  }

  write(data: string | Uint8Array, ...rest: unknown[]): boolean {
    const original = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    let text = original;
    if (this.narrowedTo !== undefined) {
      const clear = parseClear(text);
      if (clear) {
        text = clear.prefix + eraseLines(this.tail.rows(clear.count, this.narrowedTo));
        this.narrowedTo = undefined;
      }
    }
    // The model follows Ink's lines, not the terminal's rows: the erase as Ink meant it.
    this.tail.write(original);
    return (this.out.write as (d: string, ...r: unknown[]) => boolean)(text, ...rest);
  }

  /** Stops listening to the real stream. */
  dispose(): void {
    this.out.off('resize', this.onResize);
  }
}
