// The dialogs waiting for the person, one shown at a time (peers.md §6: queue, never replace under the cursor).
// Plain data and timers, no React: the terminal channel and the queue watcher put requests in; the App subscribes
// and answers by id. The store owns each request's deadline, so a dialog ends within its bound even if nothing is
// drawn — the bar on screen only shows the time the store is already counting.
import type { ApprovalRequest, InquiryRequest } from '../src/escalation/types.js';
import type { Scope } from '../src/core/scopes.js';

/** Where a request came from: this chat's own turn, or another wisp process through `$WISP_HOME/pending/`. */
export type DialogSource =
  | { readonly kind: 'local' }
  | { readonly kind: 'queue'; readonly client: string; readonly thread: string | null; readonly pid: number };

export type DialogBody =
  | { readonly verb: 'approval'; readonly request: ApprovalRequest }
  | { readonly verb: 'inquiry'; readonly request: InquiryRequest };

/**
 * Why the chat itself withdrew a turn (Ctrl+C, quitting): an AbortError, as any abort is, whose message a dialog the
 * turn had open is closed with, so the refusal says what happened instead of "withdrawn" (ADR 0102).
 */
export class Interruption extends DOMException {
  constructor(why: string) {
    super(why, 'AbortError');
  }
}

/** How a dialog ended. `closed` is for endings nobody here chose: withdrawn, answered elsewhere. */
export type DialogResult =
  | { readonly kind: 'approved'; readonly scope: Scope }
  | { readonly kind: 'answered'; readonly text: string }
  | { readonly kind: 'declined'; readonly reason: string }
  | { readonly kind: 'unanswered'; readonly waitedMs: number }
  | { readonly kind: 'closed'; readonly reason: string };

export type DialogRequest = DialogBody & {
  readonly id: string;
  readonly source: DialogSource;
  /** When the request was raised (ms since the epoch). */
  readonly raisedAt: number;
  /** When it ends unanswered (ms since the epoch); undefined waits for as long as it takes. */
  readonly deadline?: number;
};

export interface DialogSnapshot {
  /** The dialog on screen, if any. */
  readonly active: DialogRequest | undefined;
  /** How many more are queued behind it. */
  readonly waiting: number;
}

export interface OpenOptions {
  readonly id: string;
  readonly source?: DialogSource;
  /** Bounded wait in ms; 0 or undefined = no bound. Ignored when `deadline` is given. */
  readonly timeoutMs?: number;
  /** An absolute deadline (a queue request's `expiresAt`). */
  readonly deadline?: number;
  /** Withdraws the request: it closes (or leaves the queue) with "withdrawn". */
  readonly signal?: AbortSignal;
}

interface Slot {
  readonly request: DialogRequest;
  readonly resolve: (result: DialogResult) => void;
  readonly cleanup: () => void;
}

/** Timers are taken at call time, so tests with fake timers (installed after import) still drive them. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

// setTimeout holds at most 2^31-1 ms; longer deadlines are re-armed in steps.
const MAX_TIMER_MS = 2_147_483_647;

export class DialogStore {
  private readonly slots: Slot[] = [];
  private readonly listeners = new Set<() => void>();
  private snap: DialogSnapshot = { active: undefined, waiting: 0 };

  constructor(private readonly clock: Clock = realClock) {}

  /** Queues a dialog; the promise settles exactly once, with the person's answer or why it closed. */
  open(body: DialogBody, opts: OpenOptions): Promise<DialogResult> {
    const raisedAt = this.clock.now();
    const deadline =
      opts.deadline !== undefined ? opts.deadline : opts.timeoutMs && opts.timeoutMs > 0 ? raisedAt + opts.timeoutMs : undefined;
    const request = {
      ...body,
      id: opts.id,
      source: opts.source ?? { kind: 'local' as const },
      raisedAt,
      ...(deadline !== undefined ? { deadline } : {}),
    } as DialogRequest;

    if (opts.signal?.aborted) return Promise.resolve({ kind: 'closed', reason: 'withdrawn' });
    if (this.slots.some((s) => s.request.id === opts.id)) {
      return Promise.resolve({ kind: 'closed', reason: `a dialog with id ${opts.id} is already open` });
    }

    return new Promise<DialogResult>((resolve) => {
      let timer: unknown;
      const arm = () => {
        if (deadline === undefined) return;
        const left = deadline - this.clock.now();
        if (left <= 0) {
          this.settle(opts.id, { kind: 'unanswered', waitedMs: this.clock.now() - raisedAt });
          return;
        }
        timer = this.clock.setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      };
      const onAbort = () => {
        const why: unknown = opts.signal?.reason;
        this.settle(opts.id, { kind: 'closed', reason: why instanceof Interruption ? why.message : 'withdrawn' });
      };
      const cleanup = () => {
        if (timer !== undefined) this.clock.clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      this.slots.push({ request, resolve, cleanup });
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.publish();
      arm();
    });
  }

  /** Ends a dialog (the person answered, or it was closed from outside). False when it was no longer open. */
  settle(id: string, result: DialogResult): boolean {
    const index = this.slots.findIndex((s) => s.request.id === id);
    if (index < 0) return false;
    const [slot] = this.slots.splice(index, 1);
    slot!.cleanup();
    slot!.resolve(result);
    this.publish();
    return true;
  }

  /** Closes every dialog (the chat is quitting): each ends as withdrawn, which the gate counts as a refusal. */
  closeAll(reason = 'the chat closed'): void {
    for (const slot of [...this.slots]) this.settle(slot.request.id, { kind: 'closed', reason });
  }

  has(id: string): boolean {
    return this.slots.some((s) => s.request.id === id);
  }

  ids(): string[] {
    return this.slots.map((s) => s.request.id);
  }

  snapshot = (): DialogSnapshot => this.snap;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private publish(): void {
    const active = this.slots[0]?.request;
    const waiting = Math.max(0, this.slots.length - 1);
    if (active !== this.snap.active || waiting !== this.snap.waiting) this.snap = { active, waiting };
    for (const l of [...this.listeners]) l();
  }
}
