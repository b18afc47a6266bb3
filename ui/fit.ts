// Fitting wisp's own lines to the terminal's width: shorten in the middle (a model spec keeps its kind and its
// tail: `openai:qwen2.5-c…instruct-q4_K_M`), and lay the status line out in as few rows as fit, breaking only
// between its parts, never inside one. Works on text already made visible (no escapes left in it).

/** Columns a string takes: one per character, two for East Asian wide ones and most emoji. */
export function columns(text: string): number {
  let n = 0;
  for (const ch of text) n += wide(ch.codePointAt(0)!) ? 2 : 1;
  return n;
}

function wide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/** `text` in at most `max` columns, its middle replaced by `…` when it is longer. */
export function shortenMiddle(text: string, max: number): string {
  if (columns(text) <= max) return text;
  if (max <= 1) return max === 1 ? '…' : '';
  const chars = [...text];
  const budget = max - 1;
  const headCols = Math.ceil(budget / 2);
  let head = '';
  let used = 0;
  for (const ch of chars) {
    const w = columns(ch);
    if (used + w > headCols) break;
    head += ch;
    used += w;
  }
  let tail = '';
  let tailUsed = 0;
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = columns(chars[i]!);
    if (used + tailUsed + w > budget) break;
    tail = chars[i]! + tail;
    tailUsed += w;
  }
  return `${head}…${tail}`;
}

/** `text` in at most `max` columns, cut at its end with `…`. */
export function shortenEnd(text: string, max: number): string {
  if (columns(text) <= max) return text;
  if (max <= 1) return max === 1 ? '…' : '';
  let out = '';
  let used = 0;
  for (const ch of text) {
    const w = columns(ch);
    if (used + w > max - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

export type Tone = 'plain' | 'warn' | 'bad';

/** One part of the status line; `short` is what it becomes when space is tight, `cut` how it is shortened. */
export interface Part {
  readonly text: string;
  readonly tone: Tone;
  readonly short?: string;
  readonly cut: 'middle' | 'end';
  /** It is not shortened below this many columns while the line could still wrap instead. */
  readonly min: number;
}

export const SEPARATOR = ' · ';

/**
 * The status line's parts in rows of at most `width` columns: first each part in full on one row; else short forms
 * and the parts shortened toward their minimum; else rows broken between parts, each part shortened to fit a row.
 */
export function layoutParts(parts: readonly Part[], width: number): Array<Array<{ text: string; tone: Tone }>> {
  const w = Math.max(8, width);
  const rowWidth = (row: readonly { text: string }[]) =>
    row.reduce((n, p) => n + columns(p.text), 0) + SEPARATOR.length * Math.max(0, row.length - 1);
  const full = parts.map((p) => ({ text: p.text, tone: p.tone }));
  if (rowWidth(full) <= w) return [full];

  // One row, shortened: short forms first, then the shortenable parts down to their minimum, widest first.
  const squeezed = parts.map((p) => ({ ...p, text: p.short ?? p.text }));
  let over = rowWidth(squeezed) - w;
  for (const i of squeezed.map((_, i) => i).sort((a, b) => columns(squeezed[b]!.text) - columns(squeezed[a]!.text))) {
    if (over <= 0) break;
    const p = squeezed[i]!;
    const room = columns(p.text) - p.min;
    if (room <= 0) continue;
    const target = columns(p.text) - Math.min(room, over);
    squeezed[i] = { ...p, text: cut(p, target) };
    over = rowWidth(squeezed) - w;
  }
  if (over <= 0) return [squeezed.map((p) => ({ text: p.text, tone: p.tone }))];

  // Rows: parts in order, a new row when the next part does not fit; a part wider than a row is shortened to it.
  const rows: Array<Array<{ text: string; tone: Tone }>> = [];
  let row: Array<{ text: string; tone: Tone }> = [];
  for (const p of parts) {
    const text = cut({ ...p, text: p.short ?? p.text }, w);
    const next = [...row, { text, tone: p.tone }];
    if (row.length > 0 && rowWidth(next) > w) {
      rows.push(row);
      row = [{ text, tone: p.tone }];
    } else row = next;
  }
  if (row.length > 0) rows.push(row);
  return rows;
}

function cut(p: Part, max: number): string {
  return p.cut === 'middle' ? shortenMiddle(p.text, max) : shortenEnd(p.text, max);
}
