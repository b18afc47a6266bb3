// A dialog's side of KeyRhythm: when it opened, whether it is holding keys back right now (so it can say so), and
// one call per key that says whether that key may act. The hold notice stays up until the typing pauses.
import { useEffect, useRef, useState } from 'react';
import { TICK_MS, type KeyRhythm } from './key-rhythm.js';

export interface KeyGuard {
  /** True while keys are being ignored; the dialog says so. */
  readonly holding: boolean;
  /** Call once per key: true when the key came after a pause and may act. */
  readonly judge: () => boolean;
}

export function useKeyGuard(rhythm: KeyRhythm): KeyGuard {
  const openedAt = useRef(Date.now());
  const [holding, setHolding] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The dialog counts as open from when its frame has been written (passive effects run after Ink's write), not
  // from when React began to render it: on a busy machine the two can be far apart, and the person can only react
  // to what is on the screen.
  useEffect(() => {
    openedAt.current = Math.max(openedAt.current, Date.now());
    rhythm.tick();
    const ticker = setInterval(() => rhythm.tick(), TICK_MS);
    return () => {
      clearInterval(ticker);
      rhythm.rest();
      clearTimeout(timer.current);
    };
  }, [rhythm]);

  const judge = (): boolean => {
    if (rhythm.deliberate(openedAt.current)) {
      setHolding(false);
      return true;
    }
    setHolding(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setHolding(false), rhythm.waitLeft(openedAt.current));
    return false;
  };
  return { holding, judge };
}
