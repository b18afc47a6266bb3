// basename and isAssignment without their slower first forms (ADR 0085): the same answer on every word, checked
// against those forms over the golden lines' words and generated words of slashes, names, `=`, brackets and NULs.
import { beforeAll, describe, expect, it } from 'vitest';
import { ASSIGNMENT_RE, basename, isAssignment, trimTrailingSlashes } from '../../src/gate/words.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { prng } from '../helpers/prng.js';
import { goldenLines } from './golden/lines.js';

beforeAll(async () => {
  await initParser();
});

function referenceBasename(word: string): string {
  const trimmed = trimTrailingSlashes(word);
  const i = trimmed.lastIndexOf('/');
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}

function words(): string[] {
  const out = ['', '/', '//', 'a/', '/a', 'a//', '/usr/bin/sudo', '/usr/bin/sudo/', 'sudo', 'A=1', '_=1', 'a[1]=x', 'a+=1', '1A=1', '=x', 'a=', 'é=1', 'a b=1', 'a\u0000=1'];
  for (const line of goldenLines().slice(0, 6_000)) for (const p of parseLine(line).parts) out.push(...p.words);
  const r = prng(8503);
  const alphabet = ['a', 'Z', '_', '0', '/', '/', '=', '+', '[', ']', '.', '-', ' ', '$', '\u0000', 'é', '\ud83d'];
  for (let i = 0; i < 40_000; i++) {
    let w = '';
    const n = Math.floor(r() * 10);
    for (let k = 0; k < n; k++) w += alphabet[Math.floor(r() * alphabet.length)]!;
    out.push(w);
  }
  return out;
}

describe('the word helpers answer as their first forms did', () => {
  it('basename by character code is the last component as lastIndexOf found it', () => {
    const all = words();
    expect(all.filter((w) => basename(w) !== referenceBasename(w)).slice(0, 10)).toEqual([]);
  });

  it('isAssignment with its quick refusal is the assignment expression', () => {
    const all = words();
    expect(all.filter((w) => isAssignment(w) !== ASSIGNMENT_RE.test(w)).slice(0, 10)).toEqual([]);
    // Both kinds were tried.
    expect(all.filter((w) => isAssignment(w)).length).toBeGreaterThan(1_000);
  });
});
