// When a key counts as an answer. A dialog must never be answered by keys meant for something else: text typed
// while the model thought, a sentence that was still being typed when the dialog opened, a paste. Timing from the
// dialog's opening alone is not enough (a typist's next key simply lands after any fixed grace), so every key is
// judged by the pause before it: a key less than `quietMs` after the previous key — whichever place that key went
// to — is part of typing, and is not an answer; nor is a key less than `seeMs` after the dialog was drawn, sooner than
// anyone can see it and react. One KeyRhythm per chat sees every key.

/** How long a pause makes the next key deliberate. Typing runs at 5–15 keys a second; a pause of half a second is
 * a person stopping to read. */
export const QUIET_MS = 500;

/** How long after a dialog is drawn before a key can be a reaction to it: a person's quickest response to something
 * appearing on screen takes about a quarter of a second, so a key sooner than that was on its way already. */
export const SEE_MS = 250;

/** While a dialog is open it ticks this often, to notice when the process itself was not running (see `tick`). */
export const TICK_MS = 50;
/** A tick this late means the process was stalled (a busy machine): the stall counts as a key. */
export const STALL_MS = 300;

export class KeyRhythm {
  private last = Number.NEGATIVE_INFINITY;
  private lastTick: number | undefined;

  constructor(
    readonly quietMs: number = QUIET_MS,
    readonly seeMs: number = Math.min(SEE_MS, quietMs),
  ) {}

  /**
   * Called every TICK_MS while a dialog is open. A key is timed when the process reads it, not when it was pressed;
   * a process that was not scheduled for a while reads keys late and would take a key pressed right after the
   * dialog appeared for one pressed after a pause. Timers run before input is read when the process wakes, so a
   * late tick marks the stall first, and the stall counts as a key: a pause wisp did not see is no pause.
   */
  tick(now: number = Date.now()): void {
    if (this.lastTick !== undefined && now - this.lastTick > STALL_MS) this.last = Math.max(this.last, now);
    this.lastTick = now;
  }

  /** The dialog closed: no ticks until the next one opens. */
  rest(): void {
    this.lastTick = undefined;
  }

  /** A key went to the input line (or anywhere but a dialog's answer): remember when. */
  typed(now: number = Date.now()): void {
    this.last = now;
  }

  /**
   * A key reached a dialog that opened at `openedAt`: true when it came after a pause (so it may answer), false
   * when it is part of typing. Either way it is remembered, so the next key needs a pause after this one.
   */
  deliberate(openedAt: number, now: number = Date.now()): boolean {
    const ok = now - this.last >= this.quietMs && now - openedAt >= this.seeMs;
    this.last = now;
    return ok;
  }

  /** ms until a key would count again for a dialog opened at `openedAt` (0: it would count now). */
  waitLeft(openedAt: number, now: number = Date.now()): number {
    return Math.max(0, this.quietMs - (now - this.last), this.seeMs - (now - openedAt));
  }
}
