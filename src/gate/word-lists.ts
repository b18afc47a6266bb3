// Word lists found by their words, as the deny scan's NUL-joined keys found them, without joining every list
// (ADR 0085). Joining a list and hashing the key cost about a third of a microsecond per list the scan visited.

/** How many lists are compared one by one before the set keys them by their joined words, as before. */
const LINEAR = 16;

/** The length of `words.join('\u0000')`, without building it. */
export function joinedLength(words: readonly string[]): number {
  let n = words.length > 0 ? words.length - 1 : 0;
  for (let i = 0; i < words.length; i++) n += words[i]!.length;
  return n;
}

/**
 * Whether two lists' joined keys can be equal while their words differ: only when a word holds a NUL, or a list is
 * empty (`[]` and `['']` both join to ''). A non-empty list without a NUL is its joined key split at NUL, so two of
 * them have equal keys exactly when they have equal words.
 */
function mayAlias(words: readonly string[]): boolean {
  if (words.length === 0) return true;
  for (let i = 0; i < words.length; i++) if (words[i]!.includes('\u0000')) return true;
  return false;
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Lists with a value each, looked up by `words.join('\u0000')` equality: `get` gives the value of the first list added
 * whose joined key equals the asked list's. The first few are compared by joined length and then word by word (the
 * key only where a NUL or an empty list could make different words join alike); past LINEAR lists, by joined key in a
 * Map, as a Set of keys did. `keyed` from the start is the old way, kept for the differential test.
 */
interface Entry<T> {
  readonly words: readonly string[];
  readonly length: number;
  /** mayAlias(words), found when first needed (a list of the same joined length and other words). */
  aliased: boolean | undefined;
  readonly value: T;
}

export class ListIndex<T> {
  private readonly entries: Entry<T>[] = [];
  private byKey: Map<string, T> | undefined;

  constructor(keyed = false) {
    if (keyed) this.byKey = new Map();
  }

  get(words: readonly string[]): T | undefined {
    if (this.byKey !== undefined) return this.byKey.get(words.join('\u0000'));
    const length = joinedLength(words);
    let aliased: boolean | undefined;
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      if (e.length !== length) continue;
      if (sameWords(e.words, words)) return e.value;
      if ((e.aliased ??= mayAlias(e.words)) || (aliased ??= mayAlias(words))) {
        if (e.words.join('\u0000') === words.join('\u0000')) return e.value;
      }
    }
    return undefined;
  }

  has(words: readonly string[]): boolean {
    return this.get(words) !== undefined;
  }

  /**
   * Adds `words` with `value` (never undefined) and returns true; where a list with the same key is there, its value
   * stays and this returns false. The list is kept, not copied: it must not change afterwards.
   */
  add(words: readonly string[], value: T): boolean {
    if (this.byKey !== undefined) {
      const key = words.join('\u0000');
      if (this.byKey.has(key)) return false;
      this.byKey.set(key, value);
      return true;
    }
    if (this.get(words) !== undefined) return false;
    if (this.entries.length >= LINEAR) {
      // Many lists (a long line): keyed from here on, the first list of each key keeping its value.
      const byKey = new Map<string, T>();
      for (const e of this.entries) {
        const key = e.words.join('\u0000');
        if (!byKey.has(key)) byKey.set(key, e.value);
      }
      this.byKey = byKey;
      return this.add(words, value);
    }
    this.entries.push({ words, length: joinedLength(words), aliased: undefined, value });
    return true;
  }
}
