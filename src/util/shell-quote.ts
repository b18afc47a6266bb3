/** Single-quotes a string for POSIX sh: the only thing that needs escaping inside '…' is the quote itself. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A word as sh reads it: as it is when it holds nothing special, else single-quoted. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : shellQuote(s);
}
