/** Single-quotes a string for POSIX sh: the only thing that needs escaping inside '…' is the quote itself. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
