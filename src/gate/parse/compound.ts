// The compound-line reader (issue #16, ADR 0091): the lines only tree-sitter read before — loops, `if`, `case`,
// `{ …; }`, `( … )`, `[ … ]`, `$(…)` and `<(…)` in words, assignments — are the slowest the gate decides. This
// reader builds, for a strict subset of them, the very syntax tree tree-sitter-bash gives (same node types, spans,
// children and the field names the walk reads), so the walk and everything after it are unchanged. It takes a closed
// subset and returns undefined for anything else, which then goes to tree-sitter as before (fail closed). A
// differential fuzz (test/fuzz/compound-lines.fuzz.test.ts; many more lines in test:stress) compares its trees with
// tree-sitter's node by node.
import { NOT_PLAIN_NAME } from './plain.js';
import { BOUNDED_LENGTH } from './runtime.js';
import { SyntaxNode, fieldKind } from './tree.js';

/** A node being built: its end and children are known only once it has been read. */
interface Draft {
  readonly type: string;
  readonly named: boolean;
  start: number;
  end: number;
  readonly kids: Draft[];
  /** Field names of the kids, for the parents whose fields the walk reads (fieldKind); null: none. */
  readonly fields: (string | null)[];
}

/** Thrown when the text leaves the subset; readCompound turns it into undefined. */
class NotCompound extends Error {}
const NOT_COMPOUND = new NotCompound();

function refuse(): never {
  throw NOT_COMPOUND;
}

const enum Ch {
  Space = 0x20,
  Bang = 0x21,
  DoubleQuote = 0x22,
  Hash = 0x23,
  Dollar = 0x24,
  Amp = 0x26,
  Quote = 0x27,
  OpenParen = 0x28,
  CloseParen = 0x29,
  Star = 0x2a,
  Dash = 0x2d,
  Semicolon = 0x3b,
  Less = 0x3c,
  Equals = 0x3d,
  Greater = 0x3e,
  Question = 0x3f,
  At = 0x40,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  Underscore = 0x5f,
  Backtick = 0x60,
  OpenBrace = 0x7b,
  Pipe = 0x7c,
  CloseBrace = 0x7d,
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === Ch.Underscore;
}

function isNameRest(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

/**
 * Unquoted characters a word may hold (the simple-line reader's set): letters, digits, `_./-,:@%+=`, the globs `*`
 * and `?`, `~` and `^`.
 */
function isWordChar(c: number): boolean {
  return (
    isNameRest(c) ||
    c === 0x2e || // .
    c === 0x2f || // /
    c === Ch.Dash ||
    c === 0x2c || // ,
    c === 0x3a || // :
    c === Ch.At ||
    c === 0x25 || // %
    c === 0x2b || // +
    c === Ch.Equals ||
    c === Ch.Star ||
    c === Ch.Question ||
    c === 0x7e || // ~
    c === 0x5e // ^
  );
}

/** A program name's characters: letters, digits and `_./-`. */
function isNameChar(c: number): boolean {
  return isNameRest(c) || c === 0x2e || c === 0x2f || c === Ch.Dash;
}

/** What may follow a reserved word or a word: a blank, an operator, a closing parenthesis, or the end. */
function isDelimiter(c: number): boolean {
  return c === -1 || c === Ch.Space || c === Ch.Semicolon || c === Ch.Amp || c === Ch.Pipe || c === Ch.CloseParen || c === Ch.Less || c === Ch.Greater;
}

/** tree-sitter-bash's number token (`-5`, `08`, `0x10`): a word that is all of it is a `number` node. */
const NUMBER = /^-?(?:0x[0-9]+|[0-9]+)$/;

/** The first letters of the reserved words and declarations the reader takes at a command's start. */
const KEYWORD_STARTS = 'cdefilrtuw';

/** The operators of `${NAME<op>WORD}` the reader takes, longest first. */
const EXPANSION_OPERATORS = ['%%', '##', ':-', ':=', ':+', '%', '#', '-'];

/** Characters of the word or pattern in `${NAME<op>…}`: letters, digits, `_./-*`. */
function isExpansionWordChar(c: number): boolean {
  return isNameRest(c) || c === 0x2e || c === 0x2f || c === Ch.Dash || c === Ch.Star;
}

/** A case pattern tree-sitter-bash reads as a plain word. */
const CASE_WORD = /^[A-Za-z]+$/;

/** `test`-style operators of a binary `[ … ]` that tree-sitter reads as a named test_operator. */
const TEST_BINARY = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-nt', '-ot', '-ef']);

/** Where a sequence of statements ends: the reserved word (or character) that closes it. */
type Stop = 'done' | 'fi' | 'else-fi' | '}' | ')' | '`' | 'esac-item' | 'top';

function draft(type: string, named: boolean, start: number, end: number): Draft {
  return { type, named, start, end, kids: [], fields: [] };
}

function add(parent: Draft, kid: Draft, field: string | null = null): Draft {
  parent.kids.push(kid);
  parent.fields.push(field);
  return kid;
}

/** A node of several statements that is not a node in tree-sitter's tree: its kids go to the parent. */
interface Statements {
  readonly kids: Draft[];
  readonly fields: (string | null)[];
}

class Reader {
  i = 0;
  /** How many compound commands, substitutions and groups enclose the statement being read. */
  depth = 0;
  /** Inside `…`: no backtick may appear in any quote there (bash ends the substitution at it; tree-sitter may not). */
  inBackticks = false;
  /** The end of the source (the text without its final newline). */
  readonly n: number;
  constructor(
    readonly s: string,
    n: number,
  ) {
    this.n = n;
  }

  /** A delimiter after a word: see isDelimiter; inside `…`, also the closing backtick. */
  delim(c: number): boolean {
    return isDelimiter(c) || (this.inBackticks && c === Ch.Backtick);
  }

  /** What closes an enclosing substitution or subshell: `)`, or inside `…` the backtick. */
  ender(c: number): boolean {
    return c === Ch.CloseParen || (this.inBackticks && c === Ch.Backtick);
  }

  at(offset = 0): number {
    const k = this.i + offset;
    return k < this.n ? this.s.charCodeAt(k) : -1;
  }

  blanks(): void {
    while (this.i < this.n && this.s.charCodeAt(this.i) === Ch.Space) this.i++;
  }

  /** Whether the reserved word `w` is here, as a whole word. */
  reserved(w: string): boolean {
    if (!this.s.startsWith(w, this.i)) return false;
    return this.delim(this.i + w.length < this.n ? this.s.charCodeAt(this.i + w.length) : -1);
  }

  /** Reads the reserved word `w` (already seen by `reserved`) as an anonymous leaf of `parent`. */
  keyword(parent: Draft, w: string, field: string | null = null): void {
    if (!this.reserved(w)) refuse();
    add(parent, draft(w, false, this.i, this.i + w.length), field);
    this.i += w.length;
    this.blanks();
  }

  /** A one- or two-character token as an anonymous leaf. */
  token(parent: Draft, t: string, field: string | null = null): void {
    if (!this.s.startsWith(t, this.i)) refuse();
    add(parent, draft(t, false, this.i, this.i + t.length), field);
    this.i += t.length;
    this.blanks();
  }

  // ---- statements ----

  /**
   * Statements up to `stop`, each ended by `;` or `&` (or, before `)`, by nothing), appended to `out`. Returns when the
   * closing word is next (not read).
   */
  sequence(out: Draft | Statements, stop: Stop): void {
    if (stop !== 'top') this.depth++;
    try {
      this.statements(out, stop);
    } finally {
      if (stop !== 'top') this.depth--;
    }
  }

  statements(out: Draft | Statements, stop: Stop): void {
    let count = 0;
    for (;;) {
      if (this.atStop(stop)) {
        // A case item's statements end at `;;`, never at `; ;;`.
        if (count === 0 || stop === 'esac-item') refuse();
        return;
      }
      const st = this.statement();
      out.kids.push(st);
      out.fields.push(null);
      count++;
      const c = this.at();
      if (c === Ch.Semicolon && this.at(1) !== Ch.Semicolon && this.at(1) !== Ch.Amp) {
        out.kids.push(draft(';', false, this.i, this.i + 1));
        out.fields.push(null);
        this.i++;
        this.blanks();
      } else if (c === Ch.Amp && this.at(1) !== Ch.Amp && this.at(1) !== Ch.Greater) {
        out.kids.push(draft('&', false, this.i, this.i + 1));
        out.fields.push(null);
        this.i++;
        this.blanks();
      } else if (stop === ')' && c === Ch.CloseParen) {
        return;
      } else if (stop === '`' && c === Ch.Backtick) {
        return;
      } else if (stop === 'esac-item' && c === Ch.Semicolon && this.at(1) === Ch.Semicolon) {
        return;
      } else if (stop === 'top' && c === -1) {
        return;
      } else {
        refuse();
      }
    }
  }

  atStop(stop: Stop): boolean {
    switch (stop) {
      case 'top':
        return this.at() === -1;
      case ')':
        return this.at() === Ch.CloseParen;
      case '`':
        return this.at() === Ch.Backtick;
      case '}':
        return this.at() === Ch.CloseBrace && this.reserved('}');
      case 'done':
        return this.reserved('done');
      case 'fi':
        return this.reserved('fi');
      case 'else-fi':
        return this.reserved('elif') || this.reserved('else') || this.reserved('fi');
      case 'esac-item':
        return this.at() === Ch.Semicolon && this.at(1) === Ch.Semicolon;
    }
  }

  /**
   * One statement: pipelines joined by `&&`/`||` (a left-nested `list`). Redirections follow tree-sitter-bash
   * (ADR 0075): those after the first command are its own; those after the last, when there are several, wrap the
   * whole statement; anywhere else the line leaves the subset.
   */
  statement(): Draft {
    const first = this.pipeline();
    let left = first.node;
    let last = first;
    let commands = first.commands;
    let firstRedirected = first.firstRedirected;
    for (;;) {
      const c = this.at();
      const op = c === Ch.Amp && this.at(1) === Ch.Amp ? '&&' : c === Ch.Pipe && this.at(1) === Ch.Pipe ? '||' : undefined;
      if (op === undefined) break;
      // tree-sitter-bash reads `a | b | c && d` as `a | (b | c && d)` (ADR 0052): left to it.
      if (last.commands >= 3) refuse();
      if (last.lastRedirects !== undefined) {
        // Redirections of a command that is not the statement's last: only the statement's first keeps its own.
        if (last !== first || first.commands !== 1) refuse();
        left = last.lastRedirects(left);
        firstRedirected = true;
      }
      const list = draft('list', true, left.start, 0);
      add(list, left);
      this.token(list, op);
      const right = this.pipeline();
      // A later pipeline's first command with redirections of its own is a middle command: left to tree-sitter.
      if (right.firstRedirected && right.commands > 1) refuse();
      add(list, right.node);
      list.end = right.node.end;
      left = list;
      last = right;
      commands += right.commands;
    }
    if (last.lastRedirects === undefined) return left;
    // Redirections after the statement's last command: its own when it is the only one, else the whole statement's —
    // at the top of the line only (inside `( … )` or `$(…)` tree-sitter-bash gives them to the last stages alone).
    if (commands > 1 && (firstRedirected || this.depth > 0)) refuse();
    return last.lastRedirects(left);
  }

  /**
   * Commands joined by `|`. Each command's trailing redirections are its own (a redirected_statement) unless it is
   * the last command read: those are returned as `lastRedirects`, for the statement to place.
   */
  pipeline(): { node: Draft; commands: number; firstRedirected: boolean; lastRedirects: ((body: Draft) => Draft) | undefined } {
    let cmd = this.command();
    const firstRedirected = cmd.redirects !== undefined;
    if (this.at() !== Ch.Pipe || this.at(1) === Ch.Pipe || this.at(1) === Ch.Amp) {
      return { node: cmd.node, commands: 1, firstRedirected, lastRedirects: cmd.redirects };
    }
    const pipe = draft('pipeline', true, cmd.node.start, 0);
    let count = 0;
    for (;;) {
      count++;
      if (cmd.redirects !== undefined) {
        // Only the first command of a pipeline keeps its own; a middle one leaves the subset.
        if (count > 1) refuse();
        add(pipe, cmd.redirects(cmd.node));
      } else {
        add(pipe, cmd.node);
      }
      if (this.at() !== Ch.Pipe || this.at(1) === Ch.Pipe || this.at(1) === Ch.Amp) break;
      this.token(pipe, '|');
      cmd = this.command();
      if (cmd.redirects !== undefined && firstRedirected) refuse();
      // The last command's redirections go to the statement (see statement).
      if (cmd.redirects !== undefined && (this.at() !== Ch.Pipe || this.at(1) === Ch.Pipe || this.at(1) === Ch.Amp)) {
        add(pipe, cmd.node);
        pipe.end = cmd.node.end;
        return { node: pipe, commands: count + 1, firstRedirected, lastRedirects: cmd.redirects };
      }
    }
    pipe.end = pipe.kids[pipe.kids.length - 1]!.end;
    return { node: pipe, commands: count, firstRedirected, lastRedirects: undefined };
  }

  /** One command, compound or simple, with the redirections written after it (not yet placed). */
  command(): { node: Draft; redirects: ((body: Draft) => Draft) | undefined } {
    const c = this.at();
    // Most commands start with no reserved word: one look at the first character settles it.
    const keyword = c >= 0x61 && c <= 0x7a && KEYWORD_STARTS.includes(String.fromCharCode(c));
    if (keyword && (this.reserved('export') || this.reserved('local') || this.reserved('declare') || this.reserved('readonly') || this.reserved('typeset') || this.reserved('unset'))) {
      return { node: this.declaration(), redirects: undefined };
    }
    if (keyword && this.reserved('function')) return { node: this.functionDefinition(), redirects: undefined };
    if (isNameStart(c) || c === Ch.Dash) {
      let e = this.i;
      while (e < this.n && isNameChar(this.s.charCodeAt(e))) e++;
      if (this.s.startsWith('()', e)) return { node: this.functionDefinition(), redirects: undefined };
    }
    if (!(c === Ch.OpenParen || c === Ch.OpenBrace || c === Ch.OpenBracket || c === Ch.Bang || (keyword && (this.reserved('for') || this.reserved('while') || this.reserved('until') || this.reserved('if') || this.reserved('case'))))) {
      return this.simple();
    }
    this.depth++;
    let node: Draft;
    try {
      node = this.compound(c);
    } finally {
      this.depth--;
    }
    return { node, redirects: this.redirects() };
  }

  /** `[function] NAME() { …; }`, `NAME() ( … )`, `function NAME { …; }`. */
  functionDefinition(): Draft {
    const node = draft('function_definition', true, this.i, 0);
    const keyword = this.reserved('function');
    if (keyword) this.keyword(node, 'function');
    const from = this.i;
    if (!isNameStart(this.at())) refuse();
    while (this.i < this.n && isNameChar(this.s.charCodeAt(this.i))) this.i++;
    const name = this.s.slice(from, this.i);
    if (NOT_PLAIN_NAME.has(name)) refuse();
    add(node, draft('word', true, from, this.i), 'name');
    if (this.s.startsWith('()', this.i)) {
      add(node, draft('(', false, this.i, this.i + 1));
      add(node, draft(')', false, this.i + 1, this.i + 2));
      this.i += 2;
    } else if (!keyword) {
      refuse();
    }
    if (this.at() !== Ch.Space) refuse();
    this.blanks();
    const c = this.at();
    this.depth++;
    let body: Draft;
    try {
      if (c === Ch.OpenBrace) body = this.group();
      else if (c === Ch.OpenParen && this.at(1) !== Ch.OpenParen) body = this.subshell();
      else refuse();
    } finally {
      this.depth--;
    }
    add(node, body, 'body');
    node.end = body.end;
    // A redirection after the body is the function's own in bash, and read otherwise by tree-sitter-bash: left to it.
    const d = this.at();
    if (d === Ch.Less || d === Ch.Greater || (d >= 0x30 && d <= 0x39)) refuse();
    return node;
  }

  compound(c: number): Draft {
    if (c === Ch.OpenParen) {
      if (this.at(1) === Ch.OpenParen) return this.arithmeticCommand();
      return this.subshell();
    }
    if (c === Ch.OpenBrace) return this.group();
    if (c === Ch.OpenBracket) return this.test();
    if (c === Ch.Bang) return this.negated();
    if (this.reserved('for')) return this.forLoop();
    if (this.reserved('while') || this.reserved('until')) return this.whileLoop();
    if (this.reserved('if')) return this.ifStatement();
    return this.caseStatement();
  }

  /** Redirections after a compound command, as a function that wraps a body in a redirected_statement. */
  redirects(): ((body: Draft) => Draft) | undefined {
    if (!this.redirectAhead()) return undefined;
    const reds: Draft[] = [];
    while (this.redirectAhead()) reds.push(this.redirect());
    const c = this.at();
    // A word after a redirection becomes a second target in tree-sitter's reading: left to it.
    if (!(c === -1 || c === Ch.Semicolon || c === Ch.Amp || c === Ch.Pipe || this.ender(c))) refuse();
    return (body) => {
      const st = draft('redirected_statement', true, body.start, reds[reds.length - 1]!.end);
      add(st, body, 'body');
      for (const r of reds) add(st, r, 'redirect');
      return st;
    };
  }

  /** `>`, `<`, or one digit 1–9 right before `>` (as the simple-line reader). */
  redirectAhead(): boolean {
    const c = this.at();
    if (c === Ch.Amp) return this.at(1) === Ch.Greater && this.at(2) !== Ch.Greater && this.at(2) !== Ch.Amp && this.at(2) !== Ch.OpenParen;
    if (c === Ch.Greater) return this.at(1) !== Ch.OpenParen;
    if (c === Ch.Less) return this.at(1) !== Ch.OpenParen;
    return c >= 0x31 && c <= 0x39 && this.at(1) === Ch.Greater;
  }

  /** One redirection: `[N]>`, `[N]>>`, `<` and a word, or `[N]>&` digits. */
  redirect(): Draft {
    const start = this.i;
    const r = draft('file_redirect', true, start, 0);
    if (this.at() === Ch.Amp) {
      add(r, draft('&>', false, this.i, this.i + 2));
      this.i += 2;
      this.blanks();
      add(r, this.word(false), 'destination');
      r.end = this.i;
      this.blanks();
      return r;
    }
    if (this.at() !== Ch.Greater && this.at() !== Ch.Less) {
      add(r, draft('file_descriptor', true, this.i, this.i + 1), 'descriptor');
      this.i++;
    }
    const op = this.at();
    if (op === Ch.Greater && this.at(1) === Ch.Amp) {
      add(r, draft('>&', false, this.i, this.i + 2));
      this.i += 2;
      const from = this.i;
      while (isDigit(this.at())) this.i++;
      if (this.i === from || !this.delim(this.at())) refuse();
      add(r, draft('number', true, from, this.i), 'destination');
    } else {
      let t = op === Ch.Greater ? '>' : '<';
      if (op === Ch.Greater && this.at(1) === Ch.Greater) t = '>>';
      else if (op === Ch.Less && (this.at(1) === Ch.Less || this.at(1) === Ch.Amp || this.at(1) === Ch.Greater)) refuse();
      else if (op === Ch.Greater && (this.at(1) === Ch.Pipe || this.at(1) === Ch.Amp)) refuse();
      add(r, draft(t, false, this.i, this.i + t.length));
      this.i += t.length;
      this.blanks();
      add(r, this.word(false), 'destination');
    }
    r.end = this.i;
    this.blanks();
    return r;
  }

  // ---- compound commands ----

  subshell(): Draft {
    const node = draft('subshell', true, this.i, 0);
    this.token(node, '(');
    this.sequence(node, ')');
    node.end = this.i + 1;
    this.token(node, ')');
    this.afterCompound();
    return node;
  }

  group(): Draft {
    if (!this.reserved('{')) refuse();
    const node = draft('compound_statement', true, this.i, 0);
    this.token(node, '{');
    this.sequence(node, '}');
    // `}` closes only after a terminator.
    this.needTerminator(node);
    node.end = this.i + 1;
    this.keyword(node, '}');
    this.afterCompound();
    return node;
  }

  /** After a compound command's closing word: a delimiter, then an operator, a redirection or the end; never a word. */
  afterCompound(): void {
    if (!this.delim(this.at())) refuse();
    this.blanks();
    const c = this.at();
    if (!(c === -1 || c === Ch.Semicolon || c === Ch.Amp || c === Ch.Pipe || this.ender(c) || c === Ch.Less || c === Ch.Greater || (c >= 0x31 && c <= 0x39 && this.at(1) === Ch.Greater))) refuse();
  }

  /** `! command`: a simple command only. */
  negated(): Draft {
    if (this.at(1) !== Ch.Space) refuse();
    const node = draft('negated_command', true, this.i, 0);
    this.token(node, '!');
    const c = this.at();
    if (c === Ch.Bang || c === Ch.OpenParen || c === Ch.OpenBrace || c === Ch.OpenBracket) refuse();
    const cmd = this.simple();
    if (cmd.redirects !== undefined) refuse();
    if (this.at() === Ch.Pipe) refuse();
    add(node, cmd.node);
    node.end = cmd.node.end;
    return node;
  }

  /** `[ -X operand ]` or `[ left OP right ]`. */
  test(): Draft {
    // `[[ … ]]` has the same tree with its own brackets; its `=` takes a pattern, so only a quoted or expanded right
    // side is taken there.
    const double = this.at(1) === Ch.OpenBracket;
    if (this.at(double ? 2 : 1) !== Ch.Space) refuse();
    const node = draft('test_command', true, this.i, 0);
    this.token(node, double ? '[[' : '[');
    if (this.at() === Ch.Dash && this.at(1) >= 0x61 && this.at(1) <= 0x7a && this.at(2) === Ch.Space) {
      const expr = draft('unary_expression', true, this.i, 0);
      add(expr, draft('test_operator', true, this.i, this.i + 2));
      this.i += 2;
      this.blanks();
      const operand = this.testOperand();
      add(expr, operand);
      expr.end = operand.end;
      add(node, expr);
    } else {
      const left = this.testOperand();
      const expr = draft('binary_expression', true, left.start, 0);
      add(expr, left);
      const from = this.i;
      while (this.i < this.n && this.s.charCodeAt(this.i) !== Ch.Space) this.i++;
      const op = this.s.slice(from, this.i);
      // Inside `[[ … ]]` the right side of `=` and `!=` is a regex to tree-sitter-bash for some spellings: left to it.
      if (double && (op === '=' || op === '!=')) refuse();
      if (op === '=' || op === '!=') add(expr, draft(op, false, from, this.i));
      else if (TEST_BINARY.has(op)) add(expr, draft('test_operator', true, from, this.i));
      else refuse();
      this.blanks();
      const right = this.testOperand(op === '!=');
      add(expr, right);
      expr.end = right.end;
      add(node, expr);
    }
    if (this.at() !== Ch.CloseBracket || (double && this.at(1) !== Ch.CloseBracket)) refuse();
    node.end = this.i + (double ? 2 : 1);
    this.token(node, double ? ']]' : ']');
    this.afterCompound();
    return node;
  }

  /**
   * An operand inside `[ … ]`: one quoted string, one expansion or substitution, or a plain word of letters, digits
   * and `_./-@,:` that does not start with `-` (tree-sitter-bash reads `~`, `+`, `^` … at an operand's start as
   * operators).
   */
  testOperand(pattern = false): Draft {
    const c = this.at();
    if (c === Ch.Dash || c === -1) refuse();
    const start = this.i;
    const w = this.word(false);
    if (w.type === 'concatenation') refuse();
    if (w.type === 'word' || w.type === 'number') {
      // `[ -f / ]`: a lone `/` is an arithmetic operator to tree-sitter-bash. An operand needs a letter or digit, and
      // a reserved word or declaration there (`[ declare = x ]`) makes an error tree.
      const text = this.s.slice(start, this.i);
      if (!/[A-Za-z0-9]/.test(text) || NOT_PLAIN_NAME.has(text)) refuse();
      for (let k = start; k < this.i; k++) {
        const q = this.s.charCodeAt(k);
        if (!(isNameRest(q) || q === 0x2e || q === 0x2f || q === Ch.Dash || q === 0x2c || q === 0x3a)) refuse();
      }
    }
    if (this.at() !== Ch.Space) refuse();
    this.blanks();
    // After `!=` tree-sitter-bash reads some plain words as a pattern and some as a word (`b`, `a/b` a pattern; `ab`,
    // `a.b` a word): only a quoted or expanded right side is taken.
    if (pattern && (w.type === 'word' || w.type === 'number')) refuse();
    return w;
  }

  /** `for NAME in WORDS; do …; done`. */
  forLoop(): Draft {
    const node = draft('for_statement', true, this.i, 0);
    this.keyword(node, 'for');
    const from = this.i;
    if (!isNameStart(this.at())) refuse();
    while (isNameRest(this.at())) this.i++;
    if (this.at() !== Ch.Space) refuse();
    add(node, draft('variable_name', true, from, this.i), 'variable');
    this.blanks();
    this.keyword(node, 'in');
    let values = 0;
    while (this.at() !== Ch.Semicolon) {
      const c = this.at();
      if (c === -1 || !(isWordChar(c) || c === Ch.Quote || c === Ch.DoubleQuote || c === Ch.Dollar)) refuse();
      add(node, this.word(false), 'value');
      values++;
      const d = this.at();
      if (d !== Ch.Space && d !== Ch.Semicolon) refuse();
      this.blanks();
    }
    if (values === 0) refuse();
    if (this.at(1) === Ch.Semicolon) refuse();
    this.token(node, ';');
    add(node, this.doGroup(), 'body');
    node.end = node.kids[node.kids.length - 1]!.end;
    this.afterCompound();
    return node;
  }

  /** `while|until CONDITION; do …; done`: one statement as the condition. */
  whileLoop(): Draft {
    const node = draft('while_statement', true, this.i, 0);
    this.keyword(node, this.reserved('while') ? 'while' : 'until');
    add(node, this.statement(), 'condition');
    this.semicolon(node, 'condition');
    add(node, this.doGroup(), 'body');
    node.end = node.kids[node.kids.length - 1]!.end;
    this.afterCompound();
    return node;
  }

  doGroup(): Draft {
    const node = draft('do_group', true, this.i, 0);
    this.keyword(node, 'do');
    this.sequence(node, 'done');
    this.needTerminator(node);
    node.end = this.i + 4;
    add(node, draft('done', false, this.i, this.i + 4));
    this.i += 4;
    // The caller checks what follows; blanks are not skipped here, so afterCompound sees the delimiter.
    return node;
  }

  /** `if C; then …; [elif C; then …;] [else …;] fi`. */
  ifStatement(): Draft {
    const node = draft('if_statement', true, this.i, 0);
    this.keyword(node, 'if');
    this.condition(node);
    this.keyword(node, 'then');
    this.sequence(node, 'else-fi');
    this.needTerminator(node);
    while (this.reserved('elif')) {
      const clause = draft('elif_clause', true, this.i, 0);
      this.keyword(clause, 'elif');
      this.condition(clause);
      this.keyword(clause, 'then');
      this.sequence(clause, 'else-fi');
      this.needTerminator(clause);
      clause.end = clause.kids[clause.kids.length - 1]!.end;
      add(node, clause);
    }
    if (this.reserved('else')) {
      const clause = draft('else_clause', true, this.i, 0);
      this.keyword(clause, 'else');
      this.sequence(clause, 'fi');
      this.needTerminator(clause);
      clause.end = clause.kids[clause.kids.length - 1]!.end;
      add(node, clause);
    }
    if (!this.reserved('fi')) refuse();
    node.end = this.i + 2;
    add(node, draft('fi', false, this.i, this.i + 2));
    this.i += 2;
    this.afterCompound();
    return node;
  }

  /** An `if`/`elif` condition: one statement and its `;`. */
  condition(parent: Draft): void {
    add(parent, this.statement());
    this.semicolon(parent, null);
  }

  /** The `;` that ends a condition (not `;;` or `;&`), as an anonymous leaf of `parent`. */
  semicolon(parent: Draft, field: string | null): void {
    if (this.at() !== Ch.Semicolon || this.at(1) === Ch.Semicolon || this.at(1) === Ch.Amp) refuse();
    this.token(parent, ';', field);
  }

  /** A body must end with `;` or `&` before its closing word. */
  needTerminator(parent: Draft): void {
    const before = parent.kids[parent.kids.length - 1]!;
    if (before.type !== ';' && before.type !== '&') refuse();
  }

  /** `case WORD in PATTERN) …;; … esac`: one pattern per item, each item ended by `;;`. */
  caseStatement(): Draft {
    const node = draft('case_statement', true, this.i, 0);
    this.keyword(node, 'case');
    const c = this.at();
    if (c === -1 || !(isWordChar(c) || c === Ch.Quote || c === Ch.DoubleQuote || c === Ch.Dollar)) refuse();
    const valueFrom = this.i;
    const value = this.word(false);
    if (value.type === 'concatenation' || NOT_PLAIN_NAME.has(this.s.slice(valueFrom, this.i))) refuse();
    add(node, value, 'value');
    if (this.at() !== Ch.Space) refuse();
    this.blanks();
    this.keyword(node, 'in');
    // tree-sitter-bash ends the statement at a word `esac` anywhere inside (`a) curl esac;; esac`): a line with
    // `esac` written more than once after this `in` is left to it.
    const rest = this.s.slice(this.i, this.n);
    const first = rest.indexOf('esac');
    if (first < 0 || rest.indexOf('esac', first + 4) >= 0) refuse();
    const items: Draft[] = [];
    while (!this.reserved('esac')) {
      const item = draft('case_item', true, this.i, 0);
      const from = this.i;
      while (this.i < this.n && (isNameRest(this.at()) || this.at() === 0x2e || this.at() === Ch.Dash || this.at() === Ch.Star)) this.i++;
      const pattern = this.s.slice(from, this.i);
      // tree-sitter-bash reads a pattern with a digit, `_` or `-` (`a1`, `fi1`, `aa-b`) as an extglob_pattern, or a
      // word, by spelling; only `*` and a run of letters are taken.
      if (pattern === '*') add(item, draft('extglob_pattern', true, from, this.i), 'value');
      else if (CASE_WORD.test(pattern)) add(item, draft('word', true, from, this.i), 'value');
      else refuse();
      // A space after `)`: tree-sitter-bash reads `*)sudo` as one pattern.
      if (this.at() !== Ch.CloseParen || this.at(1) !== Ch.Space) refuse();
      this.token(item, ')');
      this.sequence(item, 'esac-item');
      item.end = this.i + 2;
      add(item, draft(';;', false, this.i, this.i + 2), 'termination');
      this.i += 2;
      // `;;&`, `;;;` and a pattern glued to `;;` are left to tree-sitter.
      if (this.at() !== Ch.Space) refuse();
      this.blanks();
      add(node, item);
      items.push(item);
    }
    if (items.length === 0) refuse();
    // tree-sitter-bash gives the last item's `;;` no field name.
    const lastItem = items[items.length - 1]!;
    lastItem.fields[lastItem.fields.length - 1] = null;
    node.end = this.i + 4;
    add(node, draft('esac', false, this.i, this.i + 4));
    this.i += 4;
    this.afterCompound();
    return node;
  }

  /**
   * `export|local|declare|readonly|typeset` with options (`-x`: words), names and `NAME=VALUE`s; `unset` with options
   * and names. At least one name or option.
   */
  declaration(): Draft {
    const unset = this.reserved('unset');
    const from0 = this.i;
    while (isNameRest(this.at())) this.i++;
    const keyword = this.s.slice(from0, this.i);
    this.i = from0;
    const node = draft(unset ? 'unset_command' : 'declaration_command', true, this.i, 0);
    this.keyword(node, keyword);
    let count = 0;
    for (;;) {
      const from = this.i;
      if (this.at() === Ch.Dash && count === 0 || (this.at() === Ch.Dash && node.kids[node.kids.length - 1]!.type === 'word')) {
        // Options first: a dash and letters.
        this.i++;
        while ((this.at() >= 0x61 && this.at() <= 0x7a) || (this.at() >= 0x41 && this.at() <= 0x5a)) this.i++;
        if (this.i === from + 1) refuse();
        add(node, draft('word', true, from, this.i));
      } else if (isNameStart(this.at())) {
        while (isNameRest(this.at())) this.i++;
        if (this.at() === Ch.Equals) {
          // `_=x` is not an assignment to tree-sitter-bash.
          if (unset || this.i === from + 1 && this.s.charCodeAt(from) === Ch.Underscore) refuse();
          add(node, this.assignment(from));
        } else {
          add(node, draft('variable_name', true, from, this.i));
        }
      } else {
        break;
      }
      count++;
      const d = this.at();
      if (!(d === -1 || d === Ch.Space || d === Ch.Semicolon || this.ender(d) || (d === Ch.Amp && this.at(1) === Ch.Amp) || (d === Ch.Pipe && this.at(1) === Ch.Pipe))) refuse();
      this.blanks();
    }
    if (count === 0) refuse();
    node.end = node.kids[node.kids.length - 1]!.end;
    return node;
  }

  /** `NAME=VALUE`, NAME read from `from` to here; VALUE one word of the subset (never empty). */
  assignment(from: number): Draft {
    const node = draft('variable_assignment', true, from, 0);
    add(node, draft('variable_name', true, from, this.i), 'name');
    add(node, draft('=', false, this.i, this.i + 1));
    this.i++;
    const c = this.at();
    if (c === Ch.OpenParen) {
      const value = this.array();
      add(node, value, 'value');
      node.end = value.end;
      return node;
    }
    if (c === -1 || c === Ch.Space || c === Ch.Equals || !(isWordChar(c) || c === Ch.Quote || c === Ch.DoubleQuote || c === Ch.Dollar || c === Ch.Backtick)) refuse();
    const value = this.word(false);
    add(node, value, 'value');
    node.end = value.end;
    return node;
  }

  /** `(WORD …)`: an array value, words of the subset separated by single blanks or more. */
  array(): Draft {
    const node = draft('array', true, this.i, 0);
    add(node, draft('(', false, this.i, this.i + 1));
    this.i++;
    while (this.at() !== Ch.CloseParen) {
      const c = this.at();
      if (c === -1 || c === Ch.Space || !(isWordChar(c) || c === Ch.Quote || c === Ch.DoubleQuote || c === Ch.Dollar)) refuse();
      add(node, this.word(false));
      if (this.at() === Ch.Space) {
        this.blanks();
        if (this.at() === Ch.CloseParen) refuse(); // a blank before `)`: left to tree-sitter
      } else if (this.at() !== Ch.CloseParen) {
        refuse();
      }
    }
    add(node, draft(')', false, this.i, this.i + 1));
    this.i++;
    node.end = this.i;
    if (!this.delim(this.at()) || this.at() === Ch.Less || this.at() === Ch.Greater) refuse();
    return node;
  }

  /**
   * A simple command: assignments, a program name of plain characters (not a reserved word), words; redirections
   * only after the last word. A line of assignments alone is left to tree-sitter, but for one `NAME=VALUE`.
   */
  simple(): { node: Draft; redirects: ((body: Draft) => Draft) | undefined } {
    const start = this.i;
    const assignments: Draft[] = [];
    for (;;) {
      if (!isNameStart(this.at())) break;
      const nameFrom = this.i;
      let e = this.i;
      while (e < this.n && isNameRest(this.s.charCodeAt(e))) e++;
      if (e >= this.n || this.s.charCodeAt(e) !== Ch.Equals) break;
      // `_=x` is a command name to tree-sitter-bash, not an assignment.
      if (e === nameFrom + 1 && this.s.charCodeAt(nameFrom) === Ch.Underscore) refuse();
      this.i = e;
      assignments.push(this.assignment(nameFrom));
      if (this.at() !== Ch.Space) {
        // A lone assignment as the statement.
        if (assignments.length === 1 && this.endsStatement()) return { node: assignments[0]!, redirects: undefined };
        refuse();
      }
      this.blanks();
      if (this.endsStatement()) {
        if (assignments.length === 1) return { node: assignments[0]!, redirects: undefined };
        refuse();
      }
    }
    if (assignments.length === 0 && this.depth === 0 && this.redirectAhead()) {
      // `> app.log`: a statement of redirections alone (no command), at the top of a line, ended there or by `;`.
      const reds = this.redirects();
      const d = this.at();
      if (reds === undefined || !(d === -1 || (d === Ch.Semicolon && this.at(1) !== Ch.Semicolon))) refuse();
      const st = reds(draft('command', true, start, start));
      st.kids.shift();
      st.fields.shift();
      return { node: st, redirects: undefined };
    }
    const cmd = draft('command', true, start, 0);
    for (const a of assignments) add(cmd, a);
    // The program name: plain characters (and `+` after the first: `g++`), `:` alone, or one quoted string.
    const from = this.i;
    const c0 = this.at();
    let name: string;
    if (c0 === Ch.DoubleQuote || c0 === Ch.Quote) {
      const w = this.word(false);
      if (w.type !== 'string' && w.type !== 'raw_string') refuse();
      name = this.s.slice(from, this.i);
      const cn = draft('command_name', true, from, this.i);
      add(cn, w);
      add(cmd, cn, 'name');
    } else {
      if (from >= this.n || c0 === Ch.Dash || isDigit(c0)) refuse();
      if (c0 === 0x3a) this.i++;
      else {
        for (;;) {
          const q = this.i < this.n ? this.s.charCodeAt(this.i) : -1;
          if (isNameChar(q) || (this.i > from && q === 0x2b)) this.i++;
          else if (this.escapedAlnum(this.i)) this.i += 2;
          else break;
        }
      }
      name = this.s.slice(from, this.i);
      // `time` is a plain command name to tree-sitter-bash (`time git status`); the other reserved words are not.
      if (name === '' || (name !== 'time' && NOT_PLAIN_NAME.has(name)) || !this.delim(this.at())) refuse();
      const timed = name === 'time' && this.at() === Ch.Space && this.at(1) === Ch.OpenParen && this.at(2) !== Ch.OpenParen;
      if (name === 'time' && !timed && !(this.at() === Ch.Space && isNameStart(this.at(1)))) refuse();
      const cn = draft('command_name', true, from, this.i);
      add(cn, draft('word', true, from, this.i));
      add(cmd, cn, 'name');
      if (timed) {
        // `time ( … )`: tree-sitter-bash makes the subshell a child of the command `time`, with no field.
        if (assignments.length > 0) refuse();
        this.blanks();
        this.depth++;
        let sub: Draft;
        try {
          sub = this.subshell();
        } finally {
          this.depth--;
        }
        add(cmd, sub);
        cmd.end = sub.end;
        return { node: cmd, redirects: this.redirects() };
      }
    }
    let end = this.i;
    let last = name;
    for (;;) {
      this.blanks();
      const c = this.at();
      if (c === -1 || c === Ch.Pipe || c === Ch.Amp || c === Ch.Semicolon || this.ender(c)) break;
      if (this.i === end) refuse(); // words must be separated by blanks
      if (c === Ch.Less && this.at(1) === Ch.Less && this.at(2) === Ch.Less) {
        // `<<< WORD` last: tree-sitter-bash makes it a child of the command itself.
        const h = draft('herestring_redirect', true, this.i, 0);
        add(h, draft('<<<', false, this.i, this.i + 3));
        this.i += 3;
        this.blanks();
        const w = this.word(false);
        add(h, w);
        h.end = w.end;
        add(cmd, h, 'redirect');
        end = this.i;
        this.blanks();
        const d = this.at();
        if (!(d === -1 || d === Ch.Semicolon || this.ender(d) || (d === Ch.Amp && this.at(1) === Ch.Amp) || (d === Ch.Pipe && this.at(1) === Ch.Pipe))) refuse();
        break;
      }
      if (this.redirectAhead()) {
        // tree-sitter-bash drops a lone `-` word before a redirection with a descriptor.
        if (last === '-' && c !== Ch.Greater && c !== Ch.Less) refuse();
        break;
      }
      const w = this.word(true);
      add(cmd, w, 'argument');
      last = this.s.slice(w.start, w.end);
      end = this.i;
    }
    cmd.end = end;
    return { node: cmd, redirects: this.redirects() };
  }

  endsStatement(): boolean {
    const c = this.at();
    return c === -1 || c === Ch.Semicolon || this.ender(c) || (c === Ch.Amp && this.at(1) === Ch.Amp) || (c === Ch.Pipe && this.at(1) === Ch.Pipe);
  }

  // ---- words ----

  /**
   * One word: pieces touching each other — a run of unquoted word characters, '…', "…", `$NAME`, `${NAME}`, `$(…)`
   * and, as an argument, `<(…)`/`>(…)`. One piece is its own node; several make a `concatenation`.
   */
  word(argument: boolean): Draft {
    const start = this.i;
    const pieces: Draft[] = [];
    for (;;) {
      const c = this.at();
      if (isWordChar(c) || this.escapedAlnum(this.i)) {
        const from = this.i;
        const escaped = this.wordRun();
        // After another piece, tree-sitter-bash splits a backslashed run off as a word of its own (`"a"\\u` is two
        // arguments to it, one to bash): only a first piece may hold a backslash.
        if (escaped && pieces.length > 0) refuse();
        pieces.push(draft('word', true, from, this.i));
      } else if (c === Ch.Dollar && this.at(1) === Ch.Quote && argument) {
        pieces.push(this.ansiC());
      } else if (c === Ch.Quote) {
        const from = this.i;
        const close = this.s.indexOf("'", this.i + 1);
        if (close < 0 || close >= this.n) refuse();
        if (this.inBackticks && this.s.slice(this.i, close).includes('`')) refuse();
        this.i = close + 1;
        pieces.push(draft('raw_string', true, from, this.i));
      } else if (c === Ch.DoubleQuote) {
        pieces.push(this.string());
      } else if (c === Ch.Backtick) {
        if (this.inBackticks) break; // the end of the enclosing substitution
        // Glued to other pieces, tree-sitter-bash splits or joins backticks by context (`a\`ls\`` is one word at the
        // top and two inside a compound; `` `a``b` `` one substitution): only a whole word is taken.
        if (pieces.length > 0) refuse();
        pieces.push(this.backticks(this.i));
        if (!this.delim(this.at())) refuse();
      } else if (c === Ch.Dollar) {
        pieces.push(this.dollar(false));
      } else if (argument && (c === Ch.Less || c === Ch.Greater) && this.at(1) === Ch.OpenParen && this.i === start) {
        const node = draft('process_substitution', true, this.i, 0);
        add(node, draft(c === Ch.Less ? '<(' : '>(', false, this.i, this.i + 2));
        this.i += 2;
        this.blanks();
        this.sequence(node, ')');
        node.end = this.i + 1;
        add(node, draft(')', false, this.i, this.i + 1));
        this.i++;
        pieces.push(node);
        // Nothing may touch it.
        if (!this.delim(this.at()) || this.at() === Ch.Less || this.at() === Ch.Greater) refuse();
        break;
      } else {
        break;
      }
    }
    if (pieces.length === 0) refuse();
    const raw0 = this.s.charCodeAt(start);
    if (raw0 === Ch.Equals) refuse();
    const text = this.s.slice(start, this.i);
    if (text.includes('+:')) refuse();
    const c = this.at();
    if (!this.delim(c)) refuse();
    if (pieces.length === 1) {
      const only = pieces[0]!;
      if (only.type === 'word' && NUMBER.test(text)) return draft('number', true, only.start, only.end);
      if (only.type === 'word' && (isDigit(raw0) || (raw0 === Ch.Dash && isDigit(this.s.charCodeAt(start + 1))))) refuse();
      return only;
    }
    // An unquoted `$NAME` after an expansion or a string, with more after it, ends the word early in tree-sitter-bash's
    // reading (`:$x$x*`, `"a"$x--`): left to it.
    // So is one in the middle after any such piece (`""select$x+`).
    let quotedBefore = false;
    for (let k = 0; k < pieces.length - 1; k++) {
      const p = pieces[k]!;
      if (k > 0 && (p.type === 'simple_expansion' || p.type === 'expansion') && (quotedBefore || pieces[k - 1]!.type !== 'word')) refuse();
      if (p.type !== 'word') quotedBefore = true;
    }
    // In a concatenation, a first piece that is all a number is a `number` (`-5$(a)`); any other piece that starts like
    // one is left to tree-sitter.
    for (let k = 0; k < pieces.length; k++) {
      const p = pieces[k]!;
      if (p.type !== 'word') continue;
      const q = this.s.charCodeAt(p.start);
      const numberLike = isDigit(q) || (q === Ch.Dash && isDigit(this.s.charCodeAt(p.start + 1)));
      if (!numberLike) continue;
      if (k === 0 && NUMBER.test(this.s.slice(p.start, p.end))) pieces[0] = draft('number', true, p.start, p.end);
      else refuse();
    }
    const cat = draft('concatenation', true, start, this.i);
    for (const p of pieces) add(cat, p);
    return cat;
  }

  /** Whether a backslash before a letter or a digit is at `k` (`s\\udo`, `\\rm`): part of a word to tree-sitter-bash. */
  escapedAlnum(k: number): boolean {
    return k + 1 < this.n && this.s.charCodeAt(k) === Ch.Backslash && isNameRest(this.s.charCodeAt(k + 1));
  }

  /** A run of unquoted word characters and backslashed letters or digits; whether it holds a backslash. */
  wordRun(): boolean {
    let escaped = false;
    for (;;) {
      if (this.i < this.n && isWordChar(this.s.charCodeAt(this.i))) this.i++;
      else if (this.escapedAlnum(this.i)) {
        this.i += 2;
        escaped = true;
      } else return escaped;
    }
  }

  /**
   * `$'…'` as an ansi_c_string: printable characters, and a backslash only before a letter, a digit, `'` or `"`. Where
   * bash ends the string, at the first quote no backslash escapes, tree-sitter's token ends too, since no `\\` (an
   * escaped backslash) can make a later quote look escaped to one and not the other.
   */
  ansiC(): Draft {
    const from = this.i;
    let k = this.i + 2;
    for (;;) {
      if (k >= this.n) refuse();
      const c = this.s.charCodeAt(k);
      if (c === Ch.Quote) break;
      if (c === Ch.Backtick && this.inBackticks) refuse();
      if (c === Ch.Backslash) {
        const e = k + 1 < this.n ? this.s.charCodeAt(k + 1) : -1;
        if (!(isNameRest(e) || e === Ch.Quote || e === Ch.DoubleQuote)) refuse();
        k += 2;
        continue;
      }
      k++;
    }
    this.i = k + 1;
    return draft('ansi_c_string', true, from, this.i);
  }

  /** `"…"`: string_content between expansions; a stretch of blanks alone is part of the next token (tree-sitter). */
  string(): Draft {
    const node = draft('string', true, this.i, 0);
    add(node, draft('"', false, this.i, this.i + 1));
    this.i++;
    let stretch = this.i;
    for (;;) {
      if (this.i >= this.n) refuse();
      const c = this.s.charCodeAt(this.i);
      if (c === Ch.DoubleQuote || c === Ch.Dollar || c === Ch.Backtick) {
        const blankOnly = this.blankOnly(stretch, this.i);
        if (this.i > stretch && !blankOnly) add(node, draft('string_content', true, stretch, this.i));
        const tokenStart = blankOnly ? stretch : this.i;
        if (c === Ch.DoubleQuote) {
          add(node, draft('"', false, tokenStart, this.i + 1));
          this.i++;
          break;
        }
        const exp = c === Ch.Backtick ? this.backticks(this.i) : this.dollar(true);
        if (c === Ch.Backtick && this.at() === Ch.Backtick) refuse();
        exp.start = tokenStart;
        if (exp.kids.length > 0) exp.kids[0]!.start = tokenStart;
        add(node, exp);
        stretch = this.i;
        continue;
      }
      // Inside "…", `!` means something: left to tree-sitter. A backslash and the character after it are
      // part of the string's content to tree-sitter-bash (`"%s\n"`, `"\$PATH"`).
      if (c === Ch.Bang) refuse();
      if (c === Ch.Backslash) {
        // Only before a letter, a digit, `$`, `"` or a backslash (tree-sitter-bash drops the content of `"\ "`).
        const e = this.i + 1 < this.n ? this.s.charCodeAt(this.i + 1) : -1;
        if (!(isNameRest(e) || e === Ch.Dollar || e === Ch.DoubleQuote || e === Ch.Backslash)) refuse();
        this.i += 2;
        continue;
      }
      this.i++;
    }
    node.end = this.i;
    return node;
  }

  blankOnly(from: number, to: number): boolean {
    for (let k = from; k < to; k++) if (this.s.charCodeAt(k) !== Ch.Space) return false;
    return true;
  }

  /**
   * `…` as a command_substitution: statements between two backticks, none inside another. One per line: tree-sitter-bash
   * reads `` `a` `b` `` as one substitution (bash runs two), so a line with more backticks is left to it.
   */
  backticks(at: number): Draft {
    if (this.inBackticks) refuse();
    const first = this.s.indexOf('`');
    const second = this.s.indexOf('`', first + 1);
    if (first !== at || this.s.indexOf('`', second + 1) >= 0) refuse();
    const node = draft('command_substitution', true, at, 0);
    add(node, draft('`', false, at, at + 1));
    this.i = at + 1;
    this.blanks();
    this.inBackticks = true;
    try {
      this.sequence(node, '`');
    } finally {
      this.inBackticks = false;
    }
    node.end = this.i + 1;
    add(node, draft('`', false, this.i, this.i + 1));
    this.i++;
    return node;
  }

  /**
   * `${…}`: a name; `#NAME` (its length); a name, then `%`, `%%`, `#` or `##` and a pattern of plain characters (a
   * `regex` node), or `:-`, `:=`, `:+` or `-` and a word of plain characters. Anything else is left to tree-sitter.
   */
  braced(at: number): Draft {
    const node = draft('expansion', true, at, 0);
    add(node, draft('${', false, at, at + 2));
    let e = at + 2;
    if (this.s.charCodeAt(e) === Ch.Hash) {
      add(node, draft('#', false, e, e + 1), 'operator');
      e++;
    }
    const nameFrom = e;
    if (!isNameStart(e < this.n ? this.s.charCodeAt(e) : -1)) refuse();
    while (e < this.n && isNameRest(this.s.charCodeAt(e))) e++;
    if (e < this.n && this.s.charCodeAt(e) === Ch.OpenBracket) {
      // `${NAME[@]}`, `${NAME[*]}`, `${NAME[0]}`, and their `#` lengths: a subscript, and nothing after it. (`_` is a
      // special parameter there to tree-sitter-bash, and its subscript an error.)
      if (e === nameFrom + 1 && this.s.charCodeAt(nameFrom) === Ch.Underscore) refuse();
      const sub = draft('subscript', true, nameFrom, 0);
      add(sub, draft('variable_name', true, nameFrom, e));
      add(sub, draft('[', false, e, e + 1));
      const from = e + 1;
      let k = from;
      const q = k < this.n ? this.s.charCodeAt(k) : -1;
      if (q === Ch.At || q === Ch.Star) k++;
      else while (k < this.n && isDigit(this.s.charCodeAt(k))) k++;
      if (k === from || (isDigit(q) && q === 0x30 && k > from + 1) || k >= this.n || this.s.charCodeAt(k) !== Ch.CloseBracket) refuse();
      add(sub, draft(isDigit(q) ? 'number' : 'word', true, from, k));
      add(sub, draft(']', false, k, k + 1));
      sub.end = k + 1;
      add(node, sub);
      e = k + 1;
      if (e >= this.n || this.s.charCodeAt(e) !== Ch.CloseBrace) refuse();
      add(node, draft('}', false, e, e + 1));
      node.end = e + 1;
      this.i = e + 1;
      return node;
    }
    add(node, draft('variable_name', true, nameFrom, e));
    const c = e < this.n ? this.s.charCodeAt(e) : -1;
    if (c === 0x2f && node.kids.length === 2) return this.replacement(node, e);
    if (c !== Ch.CloseBrace) {
      if (node.kids.length === 3) refuse(); // `${#NAME…}`
      let op: string | undefined;
      for (const o of EXPANSION_OPERATORS) if (this.s.startsWith(o, e)) { op = o; break; }
      if (op === undefined) refuse();
      add(node, draft(op, false, e, e + op.length), 'operator');
      e += op.length;
      const from = e;
      while (e < this.n && isExpansionWordChar(this.s.charCodeAt(e))) e++;
      if (e === from || e >= this.n || this.s.charCodeAt(e) !== Ch.CloseBrace) refuse();
      const pattern = op.startsWith('%') || op.startsWith('#');
      // A default with a `-` in it is left to tree-sitter (`${x:-a-b}` holds a variable_name node there).
      if (!pattern && this.s.slice(from, e).includes('-')) refuse();
      add(node, draft(pattern ? 'regex' : 'word', true, from, e));
    }
    add(node, draft('}', false, e, e + 1));
    node.end = e + 1;
    this.i = e + 1;
    return node;
  }

  /** `(( NAME++ ))`, `(( NAME-- ))`, or `(( … ))` of what `$(( … ))` takes: a compound_statement to tree-sitter-bash. */
  arithmeticCommand(): Draft {
    const node = draft('compound_statement', true, this.i, 0);
    add(node, draft('((', false, this.i, this.i + 2));
    this.i += 2;
    this.blanks();
    const from = this.i;
    if (isNameStart(this.at())) {
      let e = this.i;
      while (e < this.n && isNameRest(this.s.charCodeAt(e))) e++;
      const op = this.s.slice(e, e + 2);
      if (op === '++' || op === '--') {
        const post = draft('postfix_expression', true, from, e + 2);
        add(post, draft('variable_name', true, from, e));
        add(post, draft(op, false, e, e + 2));
        add(node, post);
        this.i = e + 2;
        this.blanks();
        return this.closeArithmetic(node);
      }
    }
    add(node, this.arithmeticBody());
    return this.closeArithmetic(node);
  }

  /** The `))` of an arithmetic command, and what may follow it. */
  closeArithmetic(node: Draft): Draft {
    this.doubleParen(node);
    this.afterCompound();
    return node;
  }

  /** The `))` that closes `$((…))` or `((…))`, ending `node`. */
  doubleParen(node: Draft): void {
    if (this.at() !== Ch.CloseParen || this.at(1) !== Ch.CloseParen) refuse();
    add(node, draft('))', false, this.i, this.i + 2));
    this.i += 2;
    node.end = this.i;
  }

  /**
   * `$(( A ))` or `$(( A OP B ))`: operands a name, a number without a leading zero or `$NAME`, OP one of `+ - *`
   * with a blank on each side (one operator, so no precedence to copy).
   */
  arithmetic(at: number): Draft {
    const node = draft('arithmetic_expansion', true, at, 0);
    add(node, draft('$((', false, at, at + 3));
    this.i = at + 3;
    this.blanks();
    add(node, this.arithmeticBody());
    this.doubleParen(node);
    return node;
  }

  /** The expression inside `$((…))` or `((…))`, and the blanks after it. */
  arithmeticBody(): Draft {
    const left = this.arithmeticOperand();
    let expr = left;
    if (this.at() === Ch.Space) {
      this.blanks();
      const c = this.at();
      if (c !== 0x2b && c !== Ch.Dash && c !== Ch.Star) {
        if (c !== Ch.CloseParen) refuse();
      } else {
        if (this.at(1) !== Ch.Space) refuse();
        expr = draft('binary_expression', true, left.start, 0);
        add(expr, left);
        add(expr, draft(String.fromCharCode(c), false, this.i, this.i + 1));
        this.i++;
        this.blanks();
        const right = this.arithmeticOperand();
        add(expr, right);
        expr.end = right.end;
        this.blanks();
      }
    }
    return expr;
  }

  arithmeticOperand(): Draft {
    const from = this.i;
    const c = this.at();
    if (isNameStart(c)) {
      while (isNameRest(this.at())) this.i++;
      return draft('variable_name', true, from, this.i);
    }
    if (isDigit(c)) {
      while (isDigit(this.at())) this.i++;
      if (c === 0x30 && this.i > from + 1) refuse();
      if (isNameStart(this.at())) refuse();
      return draft('number', true, from, this.i);
    }
    // `$_` alone is a special parameter to tree-sitter-bash (as in dollar()).
    if (c === Ch.Dollar && isNameStart(this.at(1)) && !(this.at(1) === Ch.Underscore && !isNameRest(this.at(2)))) {
      const node = draft('simple_expansion', true, from, 0);
      add(node, draft('$', false, from, from + 1));
      this.i++;
      while (isNameRest(this.at())) this.i++;
      add(node, draft('variable_name', true, from + 1, this.i));
      node.end = this.i;
      return node;
    }
    refuse();
  }

  /**
   * `${NAME/PAT/REP}` or `${NAME//PAT/REP}` (`e` at the first `/`): PAT of plain characters and blanks (a `regex`
   * node), REP of plain characters without `-` (a `word`, as after `:-`). Both must be there.
   */
  replacement(node: Draft, at: number): Draft {
    let e = at;
    const op = this.s.startsWith('//', e) ? '//' : '/';
    add(node, draft(op, false, e, e + op.length), 'operator');
    e += op.length;
    const patFrom = e;
    for (;;) {
      const c = e < this.n ? this.s.charCodeAt(e) : -1;
      if (c === 0x2f || !(isExpansionWordChar(c) || c === Ch.Space)) break;
      e++;
    }
    // A pattern starting with `#`, `%` or `/` anchors it or means something else: those never pass the loop above.
    if (e === patFrom || e >= this.n || this.s.charCodeAt(e) !== 0x2f) refuse();
    add(node, draft('regex', true, patFrom, e));
    add(node, draft('/', false, e, e + 1), 'operator');
    e++;
    const repFrom = e;
    while (e < this.n && isExpansionWordChar(this.s.charCodeAt(e)) && this.s.charCodeAt(e) !== 0x2f) e++;
    if (e === repFrom || e >= this.n || this.s.charCodeAt(e) !== Ch.CloseBrace || this.s.slice(repFrom, e).includes('-')) refuse();
    add(node, draft('word', true, repFrom, e));
    add(node, draft('}', false, e, e + 1));
    node.end = e + 1;
    this.i = e + 1;
    return node;
  }

  /** `$NAME`, `$0`–`$9`, `$?`, `$#`, `$@`, `$*`, `$$`; `${NAME}`; `$(…)`; `$((…))`. */
  dollar(quoted: boolean): Draft {
    const at = this.i;
    const c = this.at(1);
    if (c === Ch.OpenParen) {
      if (this.at(2) === Ch.OpenParen) return this.arithmetic(at);
      const node = draft('command_substitution', true, at, 0);
      add(node, draft('$(', false, at, at + 2));
      this.i += 2;
      this.blanks();
      this.sequence(node, ')');
      node.end = this.i + 1;
      add(node, draft(')', false, this.i, this.i + 1));
      this.i++;
      return node;
    }
    if (c === Ch.OpenBrace) return this.braced(at);
    const node = draft('simple_expansion', true, at, 0);
    add(node, draft('$', false, at, at + 1));
    if (isNameStart(c)) {
      let e = at + 2;
      while (e < this.n && isNameRest(this.s.charCodeAt(e))) e++;
      // `$_` alone is a special parameter in tree-sitter's reading; left to it.
      if (e === at + 2 && c === Ch.Underscore) refuse();
      add(node, draft('variable_name', true, at + 1, e));
      node.end = e;
    } else if (isDigit(c) || c === Ch.Question || c === Ch.Hash || c === Ch.At || c === Ch.Star || c === Ch.Dollar) {
      if (quoted && c === Ch.Hash) refuse();
      // tree-sitter-bash reads on past a one-character parameter (`$1printf`, `$?readonly` are one expansion) and
      // splits it oddly after other pieces (`$file$1`, `tar$$`): only one that stands alone — a whole word, or in
      // "…" before the closing quote or a blank — is taken.
      const next = at + 2 < this.n ? this.s.charCodeAt(at + 2) : -1;
      if (quoted ? next !== Ch.DoubleQuote && next !== Ch.Space : !this.delim(next) || (at > 0 && !isBlankOrStart(this.s.charCodeAt(at - 1)))) refuse();
      add(node, draft(isDigit(c) ? 'variable_name' : 'special_variable_name', true, at + 1, at + 2));
      node.end = at + 2;
    } else {
      refuse();
    }
    this.i = node.end;
    return node;
  }
}

/** What may come before a word: a blank, an operator or an opening parenthesis. */
function isBlankOrStart(c: number): boolean {
  return c === Ch.Space || c === Ch.Semicolon || c === Ch.Amp || c === Ch.Pipe || c === Ch.OpenParen || c === Ch.Less || c === Ch.Greater;
}

/**
 * Characters the reader never takes anywhere: control and non-ASCII characters, and `#` but inside `${…}` (`${#x}`,
 * `${x##*.}`), where it can start no comment. (A backslash only where the readers of words take it, a backtick only
 * as a substitution: they refuse them anywhere else.)
 */
function plainAscii(s: string, n: number): boolean {
  for (let k = 0; k < n; k++) {
    const c = s.charCodeAt(k);
    if (c < 0x20 || c > 0x7e) return false;
    if (c === Ch.Hash && !inBraces(s, k)) return false;
  }
  return true;
}

/** Whether `#` at `k` stands right after `${` and a name (or `${`, or another `#`), with no `}` between. */
function inBraces(s: string, k: number): boolean {
  let j = k - 1;
  while (j >= 0 && (isNameRest(s.charCodeAt(j)) || s.charCodeAt(j) === Ch.Hash)) j--;
  return j >= 1 && s.charCodeAt(j) === Ch.OpenBrace && s.charCodeAt(j - 1) === Ch.Dollar;
}

/** Turns the drafts into SyntaxNodes: parents, exact-size children, and the fields the walk reads. */
function materialize(d: Draft, parent: SyntaxNode | null): SyntaxNode {
  const node = new SyntaxNode(d.type, d.named, d.start, d.end, parent, false, false, false);
  const count = d.kids.length;
  if (count === 0) return node;
  const kids = new Array<SyntaxNode>(count);
  for (let k = 0; k < count; k++) kids[k] = materialize(d.kids[k]!, node);
  node.children = kids;
  const kind = fieldKind(d.type);
  if (kind === 1) node.fields = d.fields.slice();
  else if (kind === 2) node.fields = d.kids.map((k, idx) => (k.named ? undefined : d.fields[idx] ?? null));
  return node;
}

/**
 * The syntax tree of `text` — exactly the text parseSource hands tree-sitter: a source plus one final newline, or a
 * source with a here-string as written — when the source is a compound line of the subset; else undefined. Never
 * throws.
 */
export function readCompound(text: string): SyntaxNode | undefined {
  // parseSource hands tree-sitter a text with `<<` as written, without the newline (endedText): a here-string line.
  const ended = text.charCodeAt(text.length - 1) === 0x0a;
  const n = ended ? text.length - 1 : text.length;
  if (n <= 0 || n >= BOUNDED_LENGTH || (!ended && !text.includes('<<<'))) return undefined;
  if (!plainAscii(text, n) || text.charCodeAt(0) === Ch.Space || text.charCodeAt(n - 1) === Ch.Space) return undefined;
  try {
    const r = new Reader(text, n);
    const program = draft('program', true, 0, text.length);
    r.sequence(program, 'top');
    if (r.i !== n) return undefined;
    return materialize(program, null);
  } catch (err) {
    if (err instanceof NotCompound) return undefined;
    throw err;
  }
}
