// Writes a command's result to stdout without `process.stdout`: creating that stream on first use loads Node's
// stream modules, about 8 ms of a fresh `wisp check -- ls` (docs/performance.md, ADR 0066). For a command whose
// stdout is written only here: bytes queued in process.stdout by other code could be overtaken.
import { writeSync } from 'node:fs';

/** Set once a write went through process.stdout: later ones follow it there, so nothing overtakes queued bytes. */
let viaStream = false;

/**
 * Writes `text` to file descriptor 1; what a direct write cannot take (a full non-blocking pipe…) goes the usual way.
 * `beforeStream` runs before process.stdout is first used here (to attach its error handling).
 */
export function writeStdout(text: string, beforeStream?: () => void): void {
  if (viaStream) {
    beforeStream?.();
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done, bytes.length - done);
  } catch {
    // EAGAIN, EPIPE, …: process.stdout waits for the reader, or reports the error, as every other command does.
    viaStream = true;
    beforeStream?.();
    process.stdout.write(bytes.subarray(done));
  }
}
