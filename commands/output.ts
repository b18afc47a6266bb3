// Listings for the operator commands: an aligned table with a header on a terminal, tab-separated values without
// a header when piped (one record a line, ready for cut/awk). Cells must already be safe to print (visible()).

export interface TableOptions {
  /** Draw the aligned table; default: stdout is a terminal. */
  readonly tty?: boolean;
}

export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, opts: TableOptions = {}): string {
  const tty = opts.tty ?? process.stdout.isTTY === true;
  if (!tty) return rows.map((r) => r.map(tsvCell).join('\t') + '\n').join('');
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd() + '\n';
  return line(headers) + rows.map(line).join('');
}

/** A tab or line break inside a cell would split the record: show it as an escape. */
function tsvCell(cell: string): string {
  return cell.replace(/\t/g, '\\t').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
}

/** Writes to stdout; a reader that went away (`wisp logs | head`) ends the command quietly. */
export function out(text: string): void {
  process.stdout.write(text);
}

let epipeHandled = false;

/** Makes EPIPE on stdout exit 0 quietly instead of crashing with a stack. */
export function quietOnClosedPipe(): void {
  if (epipeHandled) return;
  epipeHandled = true;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
}
