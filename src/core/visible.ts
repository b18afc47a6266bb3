// Display safety (design.md §10): untrusted text — a command, a question, anything a model or a file wrote — is
// turned into a form a person can read without being fooled. Nothing is ever stripped: every control, escape,
// bidi, invisible or look-alike-space character is shown as an escape, so what is displayed is the raw string,
// spelled out. (Deno CVE-2024-27936: a display that *stripped* escapes showed one path and granted another.)
//
// Forms used:
//   C0 controls, DEL, C1 controls   \t \n \r \b, otherwise \xHH (ESC is \x1b, so `ESC[2K` shows as `\x1b[2K`)
//   format / invisible / odd spaces  <U+XXXX>   (bidi overrides and isolates, zero-width, tags, variation selectors…)
//   lone surrogates                  <U+D800>
//   a literal backslash              \\ — but only when the text also holds something escaped (see below)
//
// Backslashes: a command such as `printf 'a\n'` is common and should read naturally, so a text with nothing to
// escape is shown exactly as it is. As soon as a text contains anything that is escaped, literal backslashes are
// doubled (and a literal `<U+` becomes `\<U+`), so every escape in that output is unambiguous: `\x1b` then always
// means a real ESC and `\\x1b` the four typed characters. `hasHidden` tells callers when to warn.

export interface VisibleOptions {
  /** Bound on the shown text (escapes included); the rest is replaced by `… [+N chars]`. Default 2000. */
  readonly maxChars?: number;
  /** Keep real line feeds (a carriage return is still shown as `\r`). Default false: `\n` is shown as `\n`. */
  readonly multiline?: boolean;
  /**
   * Show a run of {@link LONG_RUN} or more of one blank character (spaces, tabs, line feeds, invisible characters) as
   * one flagged marker, `⟨990 spaces⟩`, so a run cannot push the rest of a command out of view or past a
   * truncation. A literal `⟨` in the text is then escaped (`<U+27E8>`), so a marker cannot be forged. Default false.
   */
  readonly collapseRuns?: boolean;
}

/** The shortest run of one blank character that `collapseRuns` shows as a marker. */
export const LONG_RUN = 8;

export const DEFAULT_MAX_CHARS = 2000;

const NAMED_C0: Readonly<Record<number, string>> = { 0x08: '\\b', 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r' };

// [from, to] inclusive: characters that render as nothing, as a space, or that reorder or alter nearby text.
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00a0, 0x00a0], // no-break space (looks like a space, is not a word separator to the shell)
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark (bidi)
  [0x115f, 0x1160], // Hangul fillers
  [0x1680, 0x1680], // Ogham space mark
  [0x17b4, 0x17b5], // Khmer invisible vowels
  [0x180b, 0x180f], // Mongolian variation selectors and vowel separator
  [0x2000, 0x200a], // typographic spaces
  [0x200b, 0x200f], // zero-width space / non-joiner / joiner, LRM, RLM
  [0x2028, 0x2029], // line and paragraph separators
  [0x202a, 0x202e], // bidi embeddings and overrides (Trojan Source)
  [0x202f, 0x202f], // narrow no-break space
  [0x205f, 0x205f], // medium mathematical space
  [0x2060, 0x2064], // word joiner, invisible operators
  [0x2065, 0x2065], // unassigned, default-ignorable (renders as nothing)
  [0x2066, 0x2069], // bidi isolates
  [0x206a, 0x206f], // deprecated format characters
  [0x2800, 0x2800], // braille pattern blank (looks like a space, is a letter to the shell)
  [0x3000, 0x3000], // ideographic space
  [0x3164, 0x3164], // Hangul filler
  [0xfdd0, 0xfdef], // noncharacters
  [0xfe00, 0xfe0f], // variation selectors (can smuggle data)
  [0xfeff, 0xfeff], // zero-width no-break space / BOM
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff9, 0xfffb], // interlinear annotation controls
  [0x16fe4, 0x16fe4], // Khitan small script filler
  [0x1bca0, 0x1bca3], // shorthand format controls
  [0x1d159, 0x1d159], // musical symbol null notehead (blank)
  [0x1d173, 0x1d17a], // musical symbol format controls
  [0xe0000, 0xe007f], // tag characters ("ASCII smuggling")
  [0xe0100, 0xe01ef], // variation selectors supplement
];

// Whatever Unicode itself calls invisible or a space, beyond the list above: default-ignorable code points (render
// as nothing), format characters (Cf: bidi marks, prepended number signs…) and every space separator but U+0020.
// The list stays the fast path and documents the usual suspects; this catches the rest of each class.
// Made on first use: creating it resolves its Unicode properties (about 1 ms), and every `wisp check` loads this
// module while most never show a character outside ASCII (ADR 0086).
let blankByProperty: RegExp | undefined;

function isInvisible(cp: number): boolean {
  if ((cp & 0xfffe) === 0xfffe) return true; // U+xFFFE / U+xFFFF noncharacters in every plane
  for (const [from, to] of INVISIBLE_RANGES) {
    if (cp < from) break; // ranges are sorted
    if (cp <= to) return true;
  }
  return cp !== 0x20 && (blankByProperty ??= /^[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]$/u).test(String.fromCodePoint(cp));
}

function hex(cp: number, width: number): string {
  return cp.toString(16).toUpperCase().padStart(width, '0');
}

// The opening mark of a collapsed run; escaped in the text itself whenever runs are collapsed.
const RUN_OPEN = 0x27e8;

/** The escape for one code point, or undefined when it is shown as itself. */
function escapeOf(cp: number, multiline: boolean, collapse = false): string | undefined {
  if (collapse && cp === RUN_OPEN) return `<U+${hex(cp, 4)}>`;
  if (cp < 0x20) {
    if (cp === 0x0a && multiline) return undefined;
    return NAMED_C0[cp] ?? `\\x${hex(cp, 2).toLowerCase()}`;
  }
  if (cp < 0x7f) return undefined;
  if (cp <= 0x9f) return `\\x${hex(cp, 2).toLowerCase()}`; // DEL and C1 (U+009B is a one-byte CSI)
  if (cp >= 0xd800 && cp <= 0xdfff) return `<U+${hex(cp, 4)}>`; // only reached for a lone surrogate
  if (isInvisible(cp)) return `<U+${hex(cp, 4)}>`;
  return undefined;
}

// Printable ASCII only: the common case for commands, shown as is with no per-character work.
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return String(value);
  } catch {
    return '[unprintable value]';
  }
}

function truncatedSuffix(remaining: number): string {
  return `… [+${remaining} chars]`;
}

function boundOf(opts: VisibleOptions | undefined): number {
  const max = opts?.maxChars;
  if (typeof max !== 'number' || Number.isNaN(max)) return DEFAULT_MAX_CHARS;
  return max < 0 ? 0 : Math.floor(max);
}

/** Does `text` hold anything `visible()` escapes, besides line feeds? Callers use it to add a warning line. */
export function hasHidden(text: string): boolean {
  try {
    const s = toText(text);
    if (PLAIN_ASCII.test(s)) return false;
    for (let i = 0; i < s.length; i++) {
      const cp = codePointAt(s, i);
      if (cp > 0xffff) i++;
      if (escapeOf(cp, true) !== undefined) return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** Does `text` hold a run that `collapseRuns` would show as a marker? Callers use it to add a warning line. */
export function hasLongRun(text: string): boolean {
  try {
    const s = toText(text);
    for (let i = 0; i < s.length; ) {
      const cp = codePointAt(s, i);
      const n = runLength(s, i, cp);
      if (n >= LONG_RUN && isBlank(cp)) return true;
      i += n * (cp > 0xffff ? 2 : 1);
    }
    return false;
  } catch {
    return true;
  }
}

/** Characters a long run of which hides what follows: spaces, tabs, line breaks and the invisible ones. */
function isBlank(cp: number): boolean {
  return cp === 0x20 || cp === 0x09 || cp === 0x0a || cp === 0x0d || cp === 0x0b || cp === 0x0c || isInvisible(cp);
}

/** How many times `cp` repeats from index `i` on (counted in code points). */
function runLength(s: string, i: number, cp: number): number {
  const width = cp > 0xffff ? 2 : 1;
  let n = 0;
  while (i + n * width < s.length && codePointAt(s, i + n * width) === cp) n++;
  return Math.max(n, 1);
}

function runMarker(cp: number, n: number): string {
  const name = cp === 0x20 ? 'spaces' : cp === 0x09 ? 'tabs' : cp === 0x0a ? 'line feeds' : `× U+${hex(cp, 4)}`;
  return `⟨${n} ${name}⟩`;
}

// Like String#codePointAt, but a lone surrogate comes back as itself (never paired with a stray neighbour).
function codePointAt(s: string, i: number): number {
  const hi = s.charCodeAt(i);
  if (hi >= 0xd800 && hi <= 0xdbff && i + 1 < s.length) {
    const lo = s.charCodeAt(i + 1);
    if (lo >= 0xdc00 && lo <= 0xdfff) return (hi - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
  }
  return hi;
}

/**
 * `text` in a displayable, unambiguous form (see the header). Pure and total: never throws, whatever it is given.
 */
export function visible(text: string, opts?: VisibleOptions): string {
  try {
    return render(toText(text), opts?.multiline === true, boundOf(opts), opts?.collapseRuns === true);
  } catch {
    return '[text could not be displayed]';
  }
}

function render(s: string, multiline: boolean, max: number, collapse: boolean): string {
  if (PLAIN_ASCII.test(s) && !(collapse && s.includes(' '.repeat(LONG_RUN)))) {
    return s.length <= max ? s : s.slice(0, max) + truncatedSuffix(s.length - max);
  }
  // First pass: is anything escaped? If so, backslashes are doubled too (strict form).
  let strict = false;
  for (let i = 0; i < s.length && !strict; i++) {
    const cp = codePointAt(s, i);
    if (cp > 0xffff) i++;
    if (escapeOf(cp, multiline, collapse) !== undefined) strict = true;
  }
  const out: string[] = [];
  let length = 0;
  for (let i = 0; i < s.length; i++) {
    const cp = codePointAt(s, i);
    const width = cp > 0xffff ? 2 : 1;
    if (collapse && isBlank(cp)) {
      const n = runLength(s, i, cp);
      if (n >= LONG_RUN) {
        const marker = runMarker(cp, n);
        if (length + marker.length > max) {
          out.push(truncatedSuffix(countCodePoints(s, i)));
          return out.join('');
        }
        out.push(marker);
        length += marker.length;
        i += n * width - 1;
        continue;
      }
    }
    let piece = escapeOf(cp, multiline, collapse);
    if (piece === undefined) {
      if (strict && cp === 0x5c) piece = '\\\\';
      else if (strict && cp === 0x3c && s.startsWith('U+', i + 1)) piece = '\\<';
      else piece = width === 2 ? s.slice(i, i + 2) : s[i]!;
    }
    if (length + piece.length > max) {
      out.push(truncatedSuffix(countCodePoints(s, i)));
      return out.join('');
    }
    out.push(piece);
    length += piece.length;
    i += width - 1;
  }
  return out.join('');
}

function countCodePoints(s: string, from: number): number {
  let n = 0;
  for (let i = from; i < s.length; i++) {
    if (codePointAt(s, i) > 0xffff) i++;
    n++;
  }
  return n;
}
