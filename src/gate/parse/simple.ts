// The simple-line reader (issue #16.3, ADR 0052): a strict hand-written reader for the shell lines agents type most —
// commands of plain words and simple quotes joined by `|`, `&&`, `||` and `;` — that gives the parts tree-sitter's
// walk gives, without tree-sitter (whose parse time grows faster than linearly with pipeline stages). It accepts a
// small, closed subset and returns undefined for anything else, which then takes the tree-sitter path (fail closed):
// no `$` (but for the parameter expansions `$NAME`, `${NAME}`, `$0`…`$9`, `$?` and `$#` in an argument, ADR 0087),
// backticks, backslashes (but for find's `\;` as an argument), parentheses, braces (but for the pair `{}` in an
// argument, ADR 0081, and git's `@{…}` of letters and digits), brackets, `!`, `#`, `&` alone (but at the very end of
// the line), newlines, control or non-ASCII characters; program names of plain characters only, no reserved words or assignments. Redirections only of a closed
// set, after a command's words, where tree-sitter's reading of them is known (ADR 0075). A differential fuzz test
// (test/fuzz/simple-lines.fuzz.test.ts; many more lines in test:stress) keeps it equal to tree-sitter.
import type { WordShape } from '../types.js';
import { NOT_PLAIN_NAME } from './plain.js';
import { BOUNDED_LENGTH } from './runtime.js';

export interface SimpleCommand {
  /**
   * Offsets of the command's text in the source: first word's start to last word's end, or to the end of its own
   * redirections.
   */
  readonly start: number;
  readonly end: number;
  /** Word values after quote removal, and how each was written. */
  readonly words: readonly string[];
  readonly shapes: readonly WordShape[];
  /** The texts of the command's own redirections (`2>&1`, `> out.json`), in order. */
  readonly redirects: readonly string[];
}

export interface SimplePipeline {
  readonly start: number;
  readonly end: number;
  readonly commands: readonly SimpleCommand[];
  /**
   * Redirections tree-sitter gives to the whole `;`-separated statement this pipeline belongs to (those written after
   * its last command when it has more than one: `a | b > out`, `a && b 2>&1`); every part of it inherits them.
   */
  readonly outer: readonly string[];
}

export interface SimpleLine {
  readonly pipelines: readonly SimplePipeline[];
  /** How many `&&`/`||` joined pipelines: tree-sitter makes a list node of each (they count as statements). */
  readonly listOperators: number;
  /** How many statements carry outer redirections: each is a redirected statement of its own (counted too). */
  readonly wrapped: number;
  /**
   * Whether the line uses a construct of ADR 0087 (an expansion, a trailing `&`, `\;`, `@{…}`). Those are proven equal
   * to tree-sitter at the top of a line only: the heredoc-header and substitution-line readers leave such lines to it.
   */
  readonly extended: boolean;
}

/** A command as read; its statement may yet give its redirections to the whole statement (`wordsEnd` is then its end). */
interface ReadCommand {
  readonly start: number;
  end: number;
  readonly words: readonly string[];
  readonly shapes: readonly WordShape[];
  redirects: readonly string[];
  /** The end of its last word. */
  readonly wordsEnd: number;
}

interface ReadPipeline {
  readonly start: number;
  end: number;
  readonly commands: ReadCommand[];
  outer: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

const enum Ch {
  Tab = 0x09,
  Space = 0x20,
  DoubleQuote = 0x22,
  Hash = 0x23,
  Dollar = 0x24,
  Backslash = 0x5c,
  Percent = 0x25,
  Amp = 0x26,
  Quote = 0x27,
  Star = 0x2a,
  Plus = 0x2b,
  Comma = 0x2c,
  Dash = 0x2d,
  Dot = 0x2e,
  Slash = 0x2f,
  Colon = 0x3a,
  Semicolon = 0x3b,
  Equals = 0x3d,
  Less = 0x3c,
  Greater = 0x3e,
  Question = 0x3f,
  At = 0x40,
  Underscore = 0x5f,
  Caret = 0x5e,
  OpenBrace = 0x7b,
  Pipe = 0x7c,
  CloseBrace = 0x7d,
  Tilde = 0x7e,
}

/**
 * Unquoted characters a word may hold: letters, digits and `_./-,:@%+=` (as the plain-word path), the globs `*` and
 * `?`, and `~` (`HEAD~1`, `~/x`: the shapes say literal, as the walk's do) and `^`.
 */
function isWordChar(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) || // a-z
    (c >= 0x41 && c <= 0x5a) || // A-Z
    (c >= 0x30 && c <= 0x39) || // 0-9
    c === Ch.Underscore ||
    c === Ch.Dot ||
    c === Ch.Slash ||
    c === Ch.Dash ||
    c === Ch.Comma ||
    c === Ch.Colon ||
    c === Ch.At ||
    c === Ch.Percent ||
    c === Ch.Plus ||
    c === Ch.Equals ||
    c === Ch.Star ||
    c === Ch.Question ||
    c === Ch.Tilde ||
    c === Ch.Caret
  );
}

/** A program name's characters: letters, digits and `_./-` (what the plain-word path takes). */
function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === Ch.Underscore || c === Ch.Dot || c === Ch.Slash || c === Ch.Dash;
}

/** Printable ASCII: the only characters a quoted stretch may hold (no newline, control or non-ASCII character). */
function isPrintable(c: number): boolean {
  return c >= 0x20 && c < 0x7f;
}

/** A letter or digit. */
function isAlnum(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

/** A letter or `_`: what a parameter name starts with. */
function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === Ch.Underscore;
}

/** A letter, digit or `_`: what a parameter name holds. */
function isNameRest(c: number): boolean {
  return isAlnum(c) || c === Ch.Underscore;
}

/**
 * The length of the parameter expansion starting at the `$` at `at`, when it is one of the closed set the reader takes
 * (ADR 0087): `$NAME`, `${NAME}`, one digit `$0`…`$9`, `$?` and `$#`; else 0 (the line leaves the subset). Everything
 * else after a `$` — `(`, `((`, `'`, `"`, `@`, `*`, `!`, `$`, `-`, a blank, the end, `${` with anything but a name
 * and `}` — is left to tree-sitter. The walk keeps every one of them as written, and makes the word dynamic.
 */
function expansionLength(s: string, at: number): number {
  const c = at + 1 < s.length ? s.charCodeAt(at + 1) : -1;
  if (isNameStart(c)) {
    let e = at + 2;
    while (e < s.length && isNameRest(s.charCodeAt(e))) e++;
    return e - at;
  }
  if ((c >= 0x30 && c <= 0x39) || c === Ch.Question || c === Ch.Hash) return 2;
  if (c === Ch.OpenBrace && at + 2 < s.length && isNameStart(s.charCodeAt(at + 2))) {
    let e = at + 3;
    while (e < s.length && isNameRest(s.charCodeAt(e))) e++;
    return e < s.length && s.charCodeAt(e) === Ch.CloseBrace ? e + 1 - at : 0;
  }
  return 0;
}

/** Thrown inside the reader when the text leaves the subset; readSimple turns it into undefined. */
class NotSimple extends Error {}
const NOT_SIMPLE = new NotSimple();

class Reader {
  i = 0;
  /** The line uses a construct of ADR 0087 (an expansion, a trailing `&`, `\;`, `@{…}`): see readSimple. */
  extended = false;
  /** A command of the current statement has redirections (endStatement settles them). */
  redirected = false;
  constructor(readonly src: string) {}

  blanks(): void {
    const s = this.src;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== Ch.Space && c !== Ch.Tab) break;
      this.i++;
    }
  }

  at(offset = 0): number {
    return this.i + offset < this.src.length ? this.src.charCodeAt(this.i + offset) : -1;
  }

  /**
   * One word: a run of unquoted word characters and quoted stretches, touching each other. An argument may also hold
   * the unquoted pair `{}` (`xargs -I{}`, `find … {} +`): tree-sitter-bash reads it as the words `{` and `}` joined
   * into the word, so its value is `{}` and the word is dynamic (ADR 0081). Any other brace leaves the subset.
   * Parameter expansions of the closed set (expansionLength), unquoted or inside "…", stay as written and make the
   * word dynamic, as the walk's wordValue and wordShape do (ADR 0087).
   */
  word(braces = false): { value: string; shape: WordShape; start: number } {
    const s = this.src;
    const start = this.i;
    let value = '';
    let shape: WordShape = 'literal';
    for (;;) {
      const c = this.at();
      if (c === -1) break;
      if (isWordChar(c)) {
        const from = this.i;
        while (this.i < s.length && isWordChar(s.charCodeAt(this.i))) {
          const w = s.charCodeAt(this.i);
          if ((w === Ch.Star || w === Ch.Question) && shape === 'literal') shape = 'glob';
          this.i++;
        }
        value += s.slice(from, this.i);
      } else if (braces && c === Ch.OpenBrace && this.at(1) === Ch.CloseBrace) {
        value += '{}';
        shape = 'dynamic';
        this.i += 2;
      } else if (braces && c === Ch.OpenBrace && this.i > start && s.charCodeAt(this.i - 1) === Ch.At) {
        // git's `stash@{0}`, `HEAD@{1}`, `@{u}`: the walk keeps the braces as written and makes the word dynamic.
        let e = this.i + 1;
        while (e < s.length && isAlnum(s.charCodeAt(e))) e++;
        if (e === this.i + 1 || e >= s.length || s.charCodeAt(e) !== Ch.CloseBrace) throw NOT_SIMPLE;
        value += s.slice(this.i, e + 1);
        shape = 'dynamic';
        this.extended = true;
        this.i = e + 1;
      } else if (c === Ch.Dollar) {
        const n = expansionLength(s, this.i);
        if (n === 0) throw NOT_SIMPLE;
        value += s.slice(this.i, this.i + n);
        shape = 'dynamic';
        this.extended = true;
        this.i += n;
      } else if (c === Ch.Quote || c === Ch.DoubleQuote) {
        const from = ++this.i;
        for (;;) {
          if (this.i >= s.length) throw NOT_SIMPLE; // unbalanced
          const q = s.charCodeAt(this.i);
          if (q === c) break;
          if (!isPrintable(q)) throw NOT_SIMPLE;
          if (c === Ch.DoubleQuote) {
            // Inside "…", backticks and backslashes mean something (and `!` may, interactively); `$` only as one
            // expansion of the closed set.
            if (q === 0x60 || q === 0x5c || q === 0x21) throw NOT_SIMPLE;
            if (q === Ch.Dollar) {
              const n = expansionLength(s, this.i);
              if (n === 0) throw NOT_SIMPLE;
              shape = 'dynamic';
              this.extended = true;
              this.i += n;
              continue;
            }
          }
          this.i++;
        }
        value += s.slice(from, this.i);
        this.i++;
      } else {
        break;
      }
    }
    if (this.i === start) throw NOT_SIMPLE;
    // tree-sitter-bash quirks (ADR 0040): a word starting with `=`, and `+:` anywhere, are read otherwise.
    const raw = s.slice(start, this.i);
    if (raw.charCodeAt(0) === Ch.Equals || raw.includes('+:')) throw NOT_SIMPLE;
    return { value, shape, start };
  }

  /** A program name: plain name characters only, not a reserved word or declaration. */
  name(): string {
    const s = this.src;
    const start = this.i;
    if (start >= s.length || s.charCodeAt(start) === Ch.Dash) throw NOT_SIMPLE;
    while (this.i < s.length && isNameChar(s.charCodeAt(this.i))) this.i++;
    const name = s.slice(start, this.i);
    if (name === '' || NOT_PLAIN_NAME.has(name)) throw NOT_SIMPLE;
    // The name must end the word: `ls'x'`, `a=b`, `a*` are not plain names.
    const next = this.at();
    if (next !== -1 && next !== Ch.Space && next !== Ch.Tab && next !== Ch.Pipe && next !== Ch.Amp && next !== Ch.Semicolon) throw NOT_SIMPLE;
    return name;
  }

  command(): ReadCommand {
    const start = this.i;
    const words: string[] = [this.name()];
    const shapes: WordShape[] = ['literal'];
    let redirects: string[] | undefined;
    let firstRedirect = -1;
    let end = this.i;
    let lastRaw = '';
    for (;;) {
      this.blanks();
      const c = this.at();
      if (c === -1 || c === Ch.Pipe || c === Ch.Amp || c === Ch.Semicolon) break;
      if (this.i === end) throw NOT_SIMPLE; // words and redirections must be separated by blanks
      if (this.redirectAhead()) {
        // tree-sitter-bash drops a lone `-` word before a redirection with a descriptor (`a - 2>&1` has no `-`).
        if (lastRaw === '-' && c !== Ch.Greater && c !== Ch.Less) throw NOT_SIMPLE;
        const from = this.i;
        this.redirect();
        if (redirects === undefined) {
          redirects = [];
          firstRedirect = from;
        }
        redirects.push(this.src.slice(from, this.i));
        end = this.i;
        continue;
      }
      // A word after a redirection: tree-sitter makes it a second target of the redirection (`> out arg`).
      if (redirects !== undefined) throw NOT_SIMPLE;
      if (c === Ch.Backslash) {
        // find's `\;` as a word of its own: the walk's value is `;`, literal. Any other backslash leaves the subset.
        const next = this.at(2);
        if (this.at(1) !== Ch.Semicolon || (next !== -1 && next !== Ch.Space && next !== Ch.Tab)) throw NOT_SIMPLE;
        words.push(';');
        shapes.push('literal');
        lastRaw = '\\;';
        this.i += 2;
        end = this.i;
        this.extended = true;
        continue;
      }
      const w = this.word(true);
      words.push(w.value);
      shapes.push(w.shape);
      lastRaw = this.src.slice(w.start, this.i);
      end = this.i;
    }
    this.i = end;
    if (redirects === undefined) return { start, end, words, shapes, redirects: NONE, wordsEnd: end };
    this.redirected = true;
    return { start, end, words, shapes, redirects, wordsEnd: this.wordsEndBefore(firstRedirect) };
  }

  /** The end of the last word before `at` (blanks skipped back). */
  private wordsEndBefore(at: number): number {
    let e = at;
    while (e > 0 && (this.src.charCodeAt(e - 1) === Ch.Space || this.src.charCodeAt(e - 1) === Ch.Tab)) e--;
    return e;
  }

  /**
   * Whether a redirection starts here: `>`, `<`, or one digit from 1 to 9 right before `>`. (tree-sitter-bash reads the
   * digit of `0< in`, and the `0` of `0> out`, as an argument word, so those are left to it: the word() that follows
   * fails on `<` or `>`.)
   */
  private redirectAhead(): boolean {
    const c = this.at();
    if (c === Ch.Greater || c === Ch.Less) return true;
    return c >= 0x31 && c <= 0x39 && this.at(1) === Ch.Greater;
  }

  /**
   * One redirection of the closed set: an optional one-digit descriptor, then `>`, `>>` or `<` and a word (blanks
   * between allowed), or `>&` and digits. Anything else (`<<`, `<<<`, `<&`, `<>`, `>|`, `>&-`, `>& file`, `&>`,
   * `>(…)`) leaves the subset.
   */
  private redirect(): void {
    if (this.at() !== Ch.Greater && this.at() !== Ch.Less) this.i++; // the descriptor
    const op = this.at();
    this.i++;
    if (op === Ch.Greater && this.at() === Ch.Amp) {
      this.i++;
      const from = this.i;
      while (this.at() >= 0x30 && this.at() <= 0x39) this.i++;
      const next = this.at();
      if (this.i === from || !(next === -1 || next === Ch.Space || next === Ch.Tab || next === Ch.Pipe || next === Ch.Amp || next === Ch.Semicolon)) {
        throw NOT_SIMPLE;
      }
      return;
    }
    if (op === Ch.Greater && this.at() === Ch.Greater) this.i++;
    else if (op === Ch.Less && (this.at() === Ch.Less || this.at() === Ch.Amp || this.at() === Ch.Greater)) throw NOT_SIMPLE;
    this.blanks();
    this.word(); // the target: a word of the subset (throws on anything else)
  }

  pipeline(): ReadPipeline {
    const commands: ReadCommand[] = [this.command()];
    for (;;) {
      const save = this.i;
      this.blanks();
      if (this.at() === Ch.Pipe && this.at(1) !== Ch.Pipe && this.at(1) !== Ch.Amp) {
        this.i++;
        this.blanks();
        commands.push(this.command());
      } else {
        this.i = save;
        break;
      }
    }
    return { start: commands[0]!.start, end: commands[commands.length - 1]!.end, commands, outer: NONE };
  }

  line(): SimpleLine {
    const pipelines: ReadPipeline[] = [];
    let listOperators = 0;
    let wrapped = 0;
    // Where the current `;`-separated statement's pipelines start.
    let statement = 0;
    this.blanks();
    for (;;) {
      const pl = this.pipeline();
      pipelines.push(pl);
      this.blanks();
      const c = this.at();
      if (c === -1) break;
      if (c === Ch.Semicolon) {
        this.i++;
        this.blanks();
        if (this.endStatement(pipelines, statement)) wrapped++;
        statement = pipelines.length;
        if (this.at() === -1) break; // a trailing `;` ends the line
        continue;
      }
      if (c === Ch.Amp && this.at(1) !== Ch.Amp) {
        // A trailing `&` (`nohup … &`): tree-sitter leaves it out of every node, so the parts are the same. An `&`
        // anywhere else (`a & b`, `&>`) leaves the subset.
        this.i++;
        this.blanks();
        if (this.at() !== -1) throw NOT_SIMPLE;
        this.extended = true;
        break;
      }
      if ((c === Ch.Amp && this.at(1) === Ch.Amp) || (c === Ch.Pipe && this.at(1) === Ch.Pipe)) {
        // tree-sitter-bash reads `a | b | c && d` as `a | (b | c && d)`; the walk's parts follow that reading, so
        // such a line takes the tree-sitter path and keeps them (ADR 0052).
        if (pl.commands.length >= 3) throw NOT_SIMPLE;
        this.i += 2;
        listOperators++;
        this.blanks();
        continue;
      }
      throw NOT_SIMPLE;
    }
    if (this.endStatement(pipelines, statement)) wrapped++;
    return { pipelines, listOperators, wrapped, extended: this.extended };
  }

  /**
   * Settles whose redirections a statement's (pipelines[from…]) are, as tree-sitter-bash reads them (ADR 0075): a
   * redirection after the statement's first command is that command's own (`a 2>&1 | b`, `a > o && b`); one after
   * its last command, when it has more than one, applies to the whole statement (`a | b > o`: both parts get it).
   * Redirections anywhere else, or on both the first and the last command, leave the subset. Returns whether the
   * statement is wrapped.
   */
  private endStatement(pipelines: ReadPipeline[], from: number): boolean {
    if (!this.redirected) return false;
    this.redirected = false;
    const lastPipeline = pipelines[pipelines.length - 1]!;
    const last = lastPipeline.commands[lastPipeline.commands.length - 1]!;
    const first = pipelines[from]!.commands[0]!;
    for (let p = from; p < pipelines.length; p++) {
      for (const cmd of pipelines[p]!.commands) {
        if (cmd.redirects.length > 0 && cmd !== first && (cmd !== last || first.redirects.length > 0)) throw NOT_SIMPLE;
      }
    }
    if (last === first || last.redirects.length === 0) return false; // only the first command's own
    // The last command's redirections go to the whole statement; its own text ends with its words.
    const outer = last.redirects;
    last.redirects = NONE;
    last.end = last.wordsEnd;
    lastPipeline.end = last.end;
    for (let p = from; p < pipelines.length; p++) pipelines[p]!.outer = outer;
    return true;
  }
}

/** The pipelines of `src` when it is a simple line (see above), else undefined. Never throws. */
export function readSimple(src: string): SimpleLine | undefined {
  if (src.length > BOUNDED_LENGTH) return undefined;
  try {
    const reader = new Reader(src);
    const line = reader.line();
    // tree-sitter reads a text of exactly BOUNDED_LENGTH with a newline added, which makes it a bounded parse that
    // comes out unparsed (asked about); the reader took no such line before it took redirections, so a line of that
    // length with a redirection keeps that reading (fail closed) rather than becoming parts that may run unasked.
    // The constructs of ADR 0087 likewise: at that length the line keeps tree-sitter's reading.
    if (src.length >= BOUNDED_LENGTH && line.extended) return undefined;
    if (src.length >= BOUNDED_LENGTH && line.pipelines.some((pl) => pl.outer.length > 0 || pl.commands.some((c) => c.redirects.length > 0))) return undefined;
    return line;
  } catch (err) {
    if (err instanceof NotSimple) return undefined;
    throw err;
  }
}
