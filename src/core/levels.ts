// Risk levels and approval thresholds: the one ordering every layer uses (issue 18). The gate asks about a part whose
// level is at or above the threshold; a config change that raises the threshold asks less and so weakens the gate.

export const LEVELS = ['safe', 'moderate', 'dangerous'] as const;
export type Level = (typeof LEVELS)[number];

/** `never` sits above every level: nothing reaches it, so nothing is asked. */
export const THRESHOLDS = [...LEVELS, 'never'] as const;
export type Threshold = (typeof THRESHOLDS)[number];

export function levelRank(level: Level): number {
  return LEVELS.indexOf(level);
}

export function maxLevel(a: Level, b: Level): Level {
  return levelRank(a) >= levelRank(b) ? a : b;
}

/** Position of a threshold in THRESHOLDS; -1 for a string that is none (so callers fail closed on their own terms). */
export function thresholdRank(threshold: string): number {
  return (THRESHOLDS as readonly string[]).indexOf(threshold);
}

/** Does a part of this level need a person under this threshold? */
export function thresholdAsks(level: Level, threshold: Threshold): boolean {
  return levelRank(level) >= thresholdRank(threshold);
}
