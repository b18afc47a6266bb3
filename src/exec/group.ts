// Process groups wisp started and has not yet seen die, so they can be killed whole — on timeout, on abort, and
// when wisp itself exits. A command runs as the leader of its own group (spawned detached, which calls setsid), so
// `kill(-pgid)` reaches every process it forked that did not leave the group.

const live = new Set<number>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous; process.kill is. A wisp killed by an unhandled signal never gets here —
  // the bwrap sandbox covers that case with --die-with-parent; the CLI should turn SIGINT/SIGTERM into an exit.
  process.on('exit', killAllGroups);
}

/** Starts tracking a group (its leader's pid). */
export function trackGroup(pgid: number): void {
  installExitHook();
  live.add(pgid);
}

/** Stops tracking a group: its members are known to be gone (or were sent SIGKILL). */
export function untrackGroup(pgid: number): void {
  live.delete(pgid);
}

/** Sends `signal` to every process in the group; false when the group no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    // ESRCH: nobody left in the group. EPERM: the only members left are not ours to signal.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ESRCH' || code === 'EPERM') return false;
    throw err;
  }
}

/** Number of groups still tracked (for tests and `wisp doctor`-style reporting). */
export function liveGroupCount(): number {
  return live.size;
}

/** SIGKILLs every tracked group. Safe to call more than once; used by the exit hook and by the CLI on shutdown. */
export function killAllGroups(): void {
  for (const pgid of live) signalGroup(pgid, 'SIGKILL');
  live.clear();
}
