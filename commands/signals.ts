// SIGTERM and SIGHUP: main ends the process with 143 or 129, which runs the 'exit' hooks (the process groups of
// running commands are killed, the session ends and settles what waits). A face with an orderly end of its own
// (wisp mcp: close the threads, then the transport) takes the signal instead, and main only makes sure the process
// is gone a few seconds later (ADR 0102). A module of its own, importing nothing, so main and a face share it.

export type TerminationSignal = 'SIGTERM' | 'SIGHUP';

let orderlyEnd: ((signal: TerminationSignal) => void) | undefined;

/** Called by a face that ends in order on a termination signal; main then leaves the ending to it. */
export function onTermination(handler: (signal: TerminationSignal) => void): void {
  orderlyEnd = handler;
}

/** main's side: the face's own end when there is one (bounded), else exit now with the signal's status. */
export function terminate(signal: TerminationSignal): void {
  const status = signal === 'SIGTERM' ? 143 : 129;
  if (orderlyEnd === undefined) process.exit(status);
  setTimeout(() => process.exit(status), 5000).unref();
  orderlyEnd(signal);
}
