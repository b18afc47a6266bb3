// Whether a text could give a command name of interest, without parsing it (ADR 0073). Any word the parser or the
// rough reading takes from a text is the text's own characters in order, with only quotes, backslashes and
// line continuations taken out between them — unless the text has an expansion, a substitution, `$'…'`, a brace
// list or a backtick, or a character whose lower case changes the text's length or leaves ASCII; such texts are
// answered "yes" here. A word starts after a separator (a blank, an operator, any other character that is not a
// letter, digit or `_`) or where the parser broke it at a quote (error recovery on unbalanced quotes), and a
// program name is the word from its last `/` on, possibly cut at `@` or `.`: so each run of letters, digits and `_`
// in a name is a piece of the text that starts and ends at a separator, a removed quote or backslash, the start or
// the end — which is what is tried here, in lower case, every such piece.

/** Characters that make a word differ from the text's characters in order; and a continuation (`\` newline). */
const UNREADABLE = /[$`{}!]|\\[\r\n]|[^\x00-\x7f]/;
/** More breaks than this in one run: answered "yes" rather than trying every piece. */
const MAX_BREAKS = 24;

function isTokenChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f; // a-z 0-9 _
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Whether some run of letters, digits and `_` in a name taken from `text` could be one `isPiece` accepts. False only
 * when no reading of the text can give such a name (see the module's comment); true whenever in doubt.
 */
export function mayHoldName(text: string, isPiece: (piece: string) => boolean): boolean {
  if (UNREADABLE.test(text)) return true;
  const lower = text.toLowerCase();
  let run = '';
  // Where a piece may start or end inside `run`: a removed quote or backslash, and a letter/digit change (a file
  // descriptor's digits read apart from a word is a case the parser might make).
  let breaks: number[] = [];
  const tryRun = (): boolean => {
    if (run === '') return false;
    if (breaks.length > MAX_BREAKS) return true;
    const at = [0, ...breaks, run.length];
    for (let i = 0; i < at.length; i++) {
      for (let j = i + 1; j < at.length; j++) {
        if (at[j]! > at[i]! && isPiece(run.slice(at[i], at[j]))) return true;
      }
    }
    return false;
  };
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (isTokenChar(c)) {
      if (run.length > 0 && isDigit(c) !== isDigit(run.charCodeAt(run.length - 1))) breaks.push(run.length);
      run += lower[i];
    } else if (c === 0x27 || c === 0x22 || c === 0x5c) {
      // `'`, `"`, `\`: taken out of a word, or where the parser broke one.
      if (run.length > 0 && breaks[breaks.length - 1] !== run.length) breaks.push(run.length);
    } else {
      if (tryRun()) return true;
      run = '';
      breaks = [];
    }
  }
  return tryRun();
}
