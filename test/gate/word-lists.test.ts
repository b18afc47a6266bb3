// ListIndex (ADR 0085) finds word lists as a Map keyed by `words.join('\u0000')` did: the same value for every list,
// also where a NUL inside a word or an empty list makes different words join alike, and past the lists it compares
// one by one.
import { describe, expect, it } from 'vitest';
import { ListIndex, joinedLength } from '../../src/gate/word-lists.js';
import { prng } from '../helpers/prng.js';

/** The old way: the first value of each joined key. */
class Keyed<T> {
  private readonly map = new Map<string, T>();
  add(words: readonly string[], value: T): boolean {
    const key = words.join('\u0000');
    if (this.map.has(key)) return false;
    this.map.set(key, value);
    return true;
  }
  get(words: readonly string[]): T | undefined {
    return this.map.get(words.join('\u0000'));
  }
}

const WORDS = ['a', 'b', 'ab', '', 'sudo', 'su', 'do', 'x y', '\u0000', 'a\u0000b', 'a\u0000', '\u0000b', 'sudo\u0000ls', 'ls'];

function list(r: () => number): string[] {
  const n = Math.floor(r() * 4);
  return Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]!);
}

describe('ListIndex finds lists by their NUL-joined key', () => {
  it('joinedLength is the length of the joined list', () => {
    const r = prng(8501);
    for (let i = 0; i < 2_000; i++) {
      const words = list(r);
      expect(joinedLength(words)).toBe(words.join('\u0000').length);
    }
  });

  it('gives what a Map keyed by the joined words gives, add by add, over generated lists', () => {
    const r = prng(8502);
    const wrong: string[] = [];
    for (let run = 0; run < 3_000; run++) {
      const fast = new ListIndex<number>();
      const full = new Keyed<number>();
      // Up to 40 lists: past the 16 compared one by one, the index keys them.
      const count = 1 + Math.floor(r() * 40);
      for (let i = 0; i < count; i++) {
        const words = list(r);
        const asked = list(r);
        if (fast.get(asked) !== full.get(asked)) wrong.push(JSON.stringify(['get', asked]));
        const a = fast.add(words, i);
        const b = full.add(words, i);
        if (a !== b || fast.get(words) !== full.get(words)) wrong.push(JSON.stringify(['add', words]));
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('a word holding a NUL that joins like two words is found as those words were (sudo\\0ls, sudo ls)', () => {
    const index = new ListIndex<true>();
    expect(index.add(['sudo\u0000ls'], true)).toBe(true);
    // The joined keys are equal, so the old way took the second list as seen: kept so, not changed by the shortcut.
    expect(index.add(['sudo', 'ls'], true)).toBe(false);
    expect(index.has(['sudo', 'ls'])).toBe(true);
    expect(index.has(['sudo', 'l'])).toBe(false);
  });

  it('an empty list and a list of one empty word join alike', () => {
    const index = new ListIndex<number>();
    index.add([], 1);
    expect(index.get([''])).toBe(1);
    expect(index.get(['', ''])).toBeUndefined();
  });

  it('lists of the same joined length with different words are different lists', () => {
    const index = new ListIndex<number>();
    index.add(['echo', 'ok'], 1);
    expect(index.get(['echo', 'hi'])).toBeUndefined();
    expect(index.get(['echo', 'ok'])).toBe(1);
    expect(index.get(['echo ok'])).toBeUndefined();
  });
});
