// Heredoc headers without a body (ADR 0084): `python3 - <<'PY'`, `cat > config.json <<EOF`, `cat <<'EOF' > out.sh`.
// A line that opens a heredoc and ends before its body is an error for tree-sitter-bash, and its error recovery made
// these the costliest parses of the corpus (≈ 3× an ordinary line's). What it reads is regular: the command before
// the operator, as the simple-line reader reads it (a lone `-` word just before the operator is dropped), then one
// ERROR node from the operator to the end of the line, which the walk keeps as one unparsed part (at least moderate:
// asked about). This reader gives those two parts for a closed set of such lines without tree-sitter, and returns
// undefined for anything else (fail closed: the tree-sitter path). A differential fuzz keeps it equal to tree-sitter
// (test/fuzz/heredoc-headers.fuzz.test.ts).
import { type SimpleLine, readSimple } from './simple.js';
import { BOUNDED_LENGTH } from './runtime.js';
import { NOT_PLAIN_NAME } from './plain.js';

export interface HeredocHeader {
  /** The command before the operator: a simple line of one command. */
  readonly command: SimpleLine;
  /** Where the command's text ends (exclusive): the reader read `source.slice(0, commandEnd)`. */
  readonly commandEnd: number;
  /** Where the heredoc operator starts: the unparsed part runs from here to the end of the line. */
  readonly operator: number;
}

const enum Ch {
  Tab = 0x09,
  Space = 0x20,
  DoubleQuote = 0x22,
  Quote = 0x27,
  Dash = 0x2d,
  Gt = 0x3e,
}

/** A delimiter's characters: letters, digits, `_`. */
function isDelimiterChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** A character of the target's name after the first: letters, digits and `_ . / -`. */
function isTargetChar(c: number): boolean {
  return isDelimiterChar(c) || c === 0x2e || c === 0x2f || c === Ch.Dash;
}

/**
 * `source` read as a heredoc header of the closed set, or undefined. The set: a simple line of one command, one space,
 * `<<` or `<<-`, a delimiter of letters, digits and `_` (bare, or in single or double quotes; not a reserved word or
 * a declaration, NOT_PLAIN_NAME), then nothing or one redirection to a file (` > name`, ` >> name`). No other blank,
 * quote, `;`, `&` or newline; shorter than BOUNDED_LENGTH. The command's last word may be a lone `-` after one space
 * (tree-sitter drops it).
 */
export function readHeredocHeader(source: string): HeredocHeader | undefined {
  if (source.length >= BOUNDED_LENGTH) return undefined;
  const operator = source.indexOf('<<');
  if (operator < 2 || source.charCodeAt(operator - 1) !== Ch.Space) return undefined;
  let i = operator + 2;
  if (source.charCodeAt(i) === Ch.Dash) i++;
  // The delimiter.
  const quote = source.charCodeAt(i);
  if (quote === Ch.Quote || quote === Ch.DoubleQuote) i++;
  const from = i;
  while (i < source.length && isDelimiterChar(source.charCodeAt(i))) i++;
  if (i === from || NOT_PLAIN_NAME.has(source.slice(from, i))) return undefined;
  if (quote === Ch.Quote || quote === Ch.DoubleQuote) {
    if (source.charCodeAt(i) !== quote) return undefined;
    i++;
  }
  // The tail: nothing, or one redirection to a file: ` > name` or ` >> name`.
  if (i < source.length && !fileRedirection(source, i)) return undefined;
  // The command: a lone `-` after one space just before the operator is dropped, as tree-sitter-bash drops it.
  let commandEnd = operator - 1;
  if (source.charCodeAt(commandEnd - 1) === Ch.Dash && isBlank(source.charCodeAt(commandEnd - 2))) {
    if (source.charCodeAt(commandEnd - 2) !== Ch.Space) return undefined;
    commandEnd -= 2;
  }
  if (commandEnd < 1 || isBlank(source.charCodeAt(commandEnd - 1))) return undefined;
  const command = readSimple(source.slice(0, commandEnd));
  // The constructs of ADR 0087 are proven at the top of a line only (extended): not before a heredoc operator.
  if (command === undefined || command.extended || command.listOperators !== 0 || command.wrapped !== 0 || command.pipelines.length !== 1) return undefined;
  // The command must run to the operator: a `;` after it (`grep; <<EOF`) makes the operator a statement of its own.
  const only = command.pipelines[0]!.commands;
  if (only.length !== 1 || only[0]!.end !== commandEnd) return undefined;
  return { command, commandEnd, operator };
}

/**
 * Whether source[i…] is exactly ` > name` or ` >> name`: one space, the operator, one space, a name that starts with a
 * letter, `_`, `.` or `/` and holds letters, digits and `_ . / -` (no reserved word, no descriptor-like digits). Other
 * tails (`| sh`, `&& x`, `2 &&`, `-1 &&`) are recovered from in more than one way, and take the tree-sitter path.
 */
function fileRedirection(source: string, i: number): boolean {
  if (source.charCodeAt(i) !== Ch.Space || source.charCodeAt(i + 1) !== Ch.Gt) return false;
  i += 2;
  if (source.charCodeAt(i) === Ch.Gt) i++;
  if (source.charCodeAt(i) !== Ch.Space) return false;
  const from = ++i;
  const first = source.charCodeAt(i);
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a) || first === 0x5f || first === 0x2e || first === 0x2f)) return false;
  while (i < source.length && isTargetChar(source.charCodeAt(i))) i++;
  return i === source.length && !NOT_PLAIN_NAME.has(source.slice(from));
}

function isBlank(c: number): boolean {
  return c === Ch.Space || c === Ch.Tab;
}
