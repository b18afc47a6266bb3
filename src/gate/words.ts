// Pure string helpers for shell words: quote removal, ANSI-C decoding, requoting, and a rough tokenizer used only
// when the real parser could not read a piece of text (so rules still see something; the part stays ≥ moderate).

/** Removes backslash escapes from an unquoted word: `s\udo` → `sudo`, `a\ b` → `a b`, `\<newline>` → nothing. */
export function unescapeUnquoted(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const next = text[i + 1]!;
      i++;
      if (next !== '\n') out += next;
    } else if (c !== '\\') {
      out += c;
    }
  }
  return out;
}

/** Inside double quotes a backslash only escapes `$`, backtick, `"`, `\` and newline; elsewhere it stays. */
export function unescapeDoubleQuoted(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      i++;
      if (next !== '\n') out += next;
    } else {
      out += c;
    }
  }
  return out;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * Decodes the body of `$'…'` (without the `$'` and `'`), the way bash does. An escape that makes a NUL (`\0`, `\x00`,
 * `\u0000`, `\c@`, `\400`) ends the text there: bash keeps the string as a C string, so `$'sudo\x00x'` is `sudo`.
 */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const k = body[++i]!;
    const simple = SIMPLE_ESCAPES[k];
    if (simple !== undefined) {
      out += simple;
    } else if (k === 'x' || k === 'u' || k === 'U') {
      const max = k === 'x' ? 2 : k === 'u' ? 4 : 8;
      const m = /^[0-9a-fA-F]+/.exec(body.slice(i + 1, i + 1 + max));
      if (!m) {
        out += '\\' + k;
      } else {
        const code = parseInt(m[0], 16);
        if (code === 0) return out;
        out += safeCodePoint(code);
        i += m[0].length;
      }
    } else if (k >= '0' && k <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i))!;
      const code = parseInt(m[0], 8) & 0xff;
      if (code === 0) return out;
      out += String.fromCharCode(code);
      i += m[0].length - 1;
    } else if (k === 'c' && i + 1 < body.length) {
      const code = body.charCodeAt(++i) & 0x1f;
      if (code === 0) return out;
      out += String.fromCharCode(code);
    } else {
      out += '\\' + k;
    }
  }
  return out;
}

function safeCodePoint(n: number): string {
  try {
    return String.fromCodePoint(n);
  } catch {
    return '\ufffd';
  }
}

/** The last path component: `/usr/bin/sudo` → `sudo`. A trailing slash is ignored. */
export function basename(word: string): string {
  // By character code from the end: `lastIndexOf` is a call into the engine's runtime, several times the cost of this
  // loop on a program name (ADR 0085). The same component: after the last `/` once trailing slashes are dropped.
  let end = word.length;
  while (end > 0 && word.charCodeAt(end - 1) === 47) end--;
  let i = end - 1;
  while (i >= 0 && word.charCodeAt(i) !== 47) i--;
  return i < 0 && end === word.length ? word : word.slice(i + 1, end);
}

/** `a///` → `a`. A loop, not `/\/+$/`: that regex retries at every slash of a long run (quadratic, ADR 0038). */
export function trimTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 47) end--;
  return end === text.length ? text : text.slice(0, end);
}

/**
 * Removes every `open … close` span (the first `close` after `open`), as `/\$\{[^}]*\}/g` would, in linear time:
 * the position of the next `close` is remembered, so many openers without a closer are not each scanned to the end.
 */
export function removeSpans(text: string, open: string, close: string): string {
  if (!text.includes(open)) return text;
  let out = '';
  let i = 0;
  let nextClose = -2; // unknown
  while (i < text.length) {
    if (text.startsWith(open, i)) {
      const from = i + open.length;
      if (nextClose !== -1 && nextClose < from) nextClose = text.indexOf(close, from);
      if (nextClose >= 0) {
        i = nextClose + close.length;
        continue;
      }
    }
    out += text[i]!;
    i++;
  }
  return out;
}

/** A word with its expansions dropped, as if every variable were unset: `s${x}udo` → `sudo`, `"$D"/` → `""/`. */
export function dropExpansions(word: string): string {
  return removeSpans(removeSpans(removeSpans(word, '${', '}'), '$(', ')'), '`', '`').replace(/\$[A-Za-z_][A-Za-z0-9_]*|\$[@*#?$!0-9-]/g, '');
}

/** `'x'` or `"x"` → `x` when the whole word is one quoted string. */
export function stripEnclosingQuotes(word: string): string {
  if (word.length >= 2 && (word[0] === "'" || word[0] === '"') && word[word.length - 1] === word[0]) return word.slice(1, -1);
  return word;
}

/** `NAME=value`, `NAME+=value`, `a[1]=x` — the shell's assignment-word form. */
export const ASSIGNMENT_RE = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

export function isAssignment(word: string): boolean {
  // The expression needs a name's first character and an `=`: most words have neither, and are answered without it.
  const c = word.charCodeAt(0);
  if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95) || !word.includes('=')) return false;
  return ASSIGNMENT_RE.test(word);
}

export function assignmentName(word: string): string {
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word);
  return m ? m[0] : '';
}

/**
 * Requotes a word for a normalised form: words that hold spaces or shell punctuation are wrapped in single quotes so
 * that `echo "wisp chat"` does not read like the command `wisp chat` to a deny pattern.
 */
export function requote(word: string): string {
  if (word === '') return "''";
  if (!/[\s'"`;&|()<>\\]/.test(word)) return word;
  return "'" + word.replace(/'/g, `'\\''`) + "'";
}

/** What roughSegments' loop reads as more than a word character or a space/tab break. */
const ROUGH_SPECIAL = /[\\'"$;&|()`]|[^\S \t]/;
const BLANKS = /[ \t]+/;

/**
 * A forgiving tokenizer for text the parser rejected: honours quotes and backslashes as far as they go, splits at
 * `; & | ( ) newline backtick` and `$(`, and never throws. Returns one word list per rough command.
 */
export function roughSegments(text: string): string[][] {
  // Most texts hold none of the characters the loop below treats specially (quotes, backslashes, `$`, operators,
  // blanks other than space and tab): then each character is either a word break or part of a word, and one split gives
  // the same single segment (ADR 0073).
  if (!ROUGH_SPECIAL.test(text)) {
    const words = text.split(BLANKS).filter((w) => w !== '');
    return words.length > 0 ? [words] : [];
  }
  return roughSegmentsByLoop(text);
}

/** Whether roughSegments reads `text` as words split at spaces and tabs only (no quote, operator, other blank …). */
export function roughlyPlain(text: string): boolean {
  return !ROUGH_SPECIAL.test(text);
}

/**
 * For a text `roughlyPlain` accepts: whether `roughSegments(text)` is exactly the one list `words`, found without
 * building it; false when unsure (no words, an empty word, a word with a blank in it). Used for the deny scan's
 * rough reading of a line that is one parsed command (ADR 0082).
 */
export function roughlyOneList(text: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  let at = 0;
  const n = text.length;
  for (const w of words) {
    while (at < n && isSpaceOrTab(text.charCodeAt(at))) at++;
    if (w === '' || !text.startsWith(w, at)) return false;
    for (let k = 0; k < w.length; k++) if (isSpaceOrTab(w.charCodeAt(k))) return false;
    at += w.length;
    if (at < n && !isSpaceOrTab(text.charCodeAt(at))) return false;
  }
  while (at < n && isSpaceOrTab(text.charCodeAt(at))) at++;
  return at === n;
}

function isSpaceOrTab(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** roughSegments' general reading, character by character (exported for the test that compares both). */
export function roughSegmentsByLoop(text: string): string[][] {
  const segments: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = (): void => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endSegment = (): void => {
    endWord();
    if (words.length > 0) segments.push(words);
    words = [];
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) {
      // `\x` is `x`; `\` newline is nothing; a final `\` is dropped.
      if (i + 1 < n && text.charCodeAt(i + 1) !== 0x0a) {
        word += text[i + 1];
        inWord = true;
      }
      i += 2;
    } else if (c === 0x27) {
      const end = text.indexOf("'", i + 1);
      word += end < 0 ? text.slice(i + 1) : text.slice(i + 1, end);
      inWord = true;
      i = end < 0 ? n : end + 1;
    } else if (c === 0x22) {
      // Inside double quotes a backslash takes the next character whatever it is (rough, generous).
      let j = i + 1;
      let from = j;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 0x22) break;
        if (d === 0x5c && j + 1 < n) {
          word += text.slice(from, j) + text[j + 1];
          j += 2;
          from = j;
        } else j++;
      }
      word += text.slice(from, j);
      inWord = true;
      i = j + 1;
    } else if (c === 0x24 && text.charCodeAt(i + 1) === 0x28) {
      endSegment();
      i += 2;
    } else if (isOperatorCode(c)) {
      endSegment();
      i++;
    } else if (isBlankAt(text, i, c)) {
      endWord();
      i++;
    } else {
      // A run of ordinary characters joins the word at once.
      let j = i + 1;
      while (j < n && isOrdinaryAt(text, j)) j++;
      word += text.slice(i, j);
      inWord = true;
      i = j;
    }
  }
  endSegment();
  return segments;
}

/** `; & | ( )` newline and backtick: where a rough command ends. */
function isOperatorCode(c: number): boolean {
  return c === 0x3b || c === 0x26 || c === 0x7c || c === 0x28 || c === 0x29 || c === 0x0a || c === 0x60;
}

/** What `/\s/` matches, for the character at `i` (its code `c`). */
function isBlankAt(text: string, i: number, c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return /\s/.test(text[i]!);
}

/** A character the loop adds to the word as it is: not a quote, backslash, `$`, operator or blank. */
function isOrdinaryAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 0x5c || c === 0x27 || c === 0x22 || c === 0x24 || isOperatorCode(c)) return false;
  return !isBlankAt(text, i, c);
}
