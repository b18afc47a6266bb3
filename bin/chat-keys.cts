// The chat's keys from its first moment (ADR 0056). Loaded by the entry for `wisp chat` on a terminal, before anything
// else: the terminal goes to raw mode at once, so keys typed while wisp starts wait, untouched and unechoed, for the
// input line. Keys typed even earlier — while Node itself was starting — met the terminal's line editing: it echoed
// them and turned Enter into a line break. Those are read now, their echo is erased, and they are handed to the chat
// as a paste: they land in the input line, line breaks kept, and nothing is sent until Enter is pressed with the
// text on screen (an Enter of that time cannot be told from a pasted line break).
import { closeSync, constants, fstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import type { ReadStream, WriteStream } from 'node:tty';

const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** More than anyone types in a second; the terminal's own line buffer holds 4 KiB. */
const MAX_EARLY = 64 * 1024;

export function takeTerminal(stdin: ReadStream, stdout: WriteStream): void {
  stdin.setRawMode(true);
  const early = readPending();
  if (early === undefined || early.length === 0) return;
  const text = early.toString('utf8');
  if (stdout.isTTY) eraseEcho(text, stdout);
  const kept = text.replace(/\n+$/, '');
  if (kept !== '') stdin.unshift(Buffer.from(PASTE_START + kept + PASTE_END, 'utf8'));
}

/**
 * What the terminal holds for us right now, read without waiting: through a second, non-blocking descriptor of the
 * terminal stdin is (stdin itself may block), found by its name in /proc (Linux; elsewhere nothing is taken early,
 * and the keys of that moment reach the chat as the terminal edited them).
 */
function readPending(): Buffer | undefined {
  let fd: number | undefined;
  try {
    const name = readlinkSync('/proc/self/fd/0');
    if (!name.startsWith('/dev/')) return undefined;
    fd = openSync(name, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const [ours, theirs] = [fstatSync(fd), fstatSync(0)];
    if (!ours.isCharacterDevice() || ours.rdev !== theirs.rdev) return undefined;
    const buf = Buffer.alloc(MAX_EARLY);
    let off = 0;
    while (off < buf.length) {
      let n: number;
      try {
        n = readSync(fd, buf, off, buf.length - off, null);
      } catch {
        break; // EAGAIN: nothing more
      }
      if (n <= 0) break;
      off += n;
    }
    return buf.subarray(0, off);
  } catch {
    return undefined; // no /proc, or the terminal cannot be opened again: nothing is taken early
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Takes back the rows the terminal's echo of `text` used (it began at the start of a row), so the chat draws there. */
function eraseEcho(text: string, stdout: WriteStream): void {
  const cols = Math.max(1, stdout.columns || 80);
  // Control characters are echoed as ^X: two columns.
  const width = (line: string) => line.replace(/[\x00-\x1f\x7f]/g, '^X').length;
  const lines = text.split('\n');
  let up = 0;
  for (let i = 0; i < lines.length - 1; i++) up += Math.max(1, Math.ceil(width(lines[i]!) / cols));
  up += Math.floor(width(lines[lines.length - 1]!) / cols);
  stdout.write('\r' + (up > 0 ? `\x1b[${up}A` : '') + '\x1b[J');
}
