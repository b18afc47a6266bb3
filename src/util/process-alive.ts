// Whether a process still exists, by signal 0. Only "no such process" means gone: any other refusal (EPERM, a
// process of another user) counts as alive, the side that keeps a lock, a stand-in or a request rather than
// taking it from a run that may still hold it.
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
