// The classifier skips its credential and secret expressions for a text that holds no `.`, no `/` and none of a few
// words (ADR 0066). That is only right while every alternative of both expressions holds one of them: checked here
// on the expressions' source, and by generated texts that match an expression.
import { describe, expect, it } from 'vitest';
import { CREDENTIALS, SENSITIVE, mayNameSecrets } from '../../src/gate/classify.js';
import { prng } from '../helpers/prng.js';

/** The top-level alternatives of a regular expression's source. */
function alternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      continue;
    }
    if (ch === '[') inClass = true;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === '|' && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}

describe('the secret expressions are skipped only for texts they cannot match', () => {
  it.each([
    ['CREDENTIALS', CREDENTIALS],
    ['SENSITIVE', SENSITIVE],
  ])('every alternative of %s needs a dot, a slash or an anchor word', (_name, re) => {
    const alts = alternatives(re.source);
    expect(alts.length).toBeGreaterThan(10);
    for (const alt of alts) {
      // The literal part of the alternative, as the text would hold it: an escaped `.` or `/`, or plain letters.
      const literal = alt.replace(/\\([./-])/g, '$1');
      expect(mayNameSecrets(literal.replace(/\(\^\|\[[^\]]*\]\)/, '').replace(/[()?\\]|\|.*$/g, '')), alt).toBe(true);
    }
  });

  it('a text either expression matches is never skipped (generated texts, any case)', () => {
    const r = prng(67);
    const pieces = [
      'ls', ' ', '-la', 'ID_RSA', 'id_ed25519', 'KeyChain', 'keychains', 'SECRET', 'Token', 'PASSWD', 'passw', 'Credential', 'PRIVATE',
      'bash_history', '_HISTORY', 'API-KEY', 'apikey', 'Cookies', '=', '@', ':', "'", '"', 'x', 'ssh', 'env', 'pem', 'db', '\n', 'é', 'ſ',
    ];
    let matched = 0;
    for (let i = 0; i < 20_000; i++) {
      const n = 1 + Math.floor(r() * 6);
      let text = '';
      for (let k = 0; k < n; k++) text += pieces[Math.floor(r() * pieces.length)]!;
      if (CREDENTIALS.test(text) || SENSITIVE.test(text)) {
        matched++;
        expect(mayNameSecrets(text), text).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(1_000);
  });

  it('plain words without a dot, a slash or an anchor are skipped (`ls -la`)', () => {
    expect(mayNameSecrets('ls -la\nls -la')).toBe(false);
    expect(mayNameSecrets('git status')).toBe(false);
    expect(mayNameSecrets('cat TOKEN')).toBe(true);
    expect(mayNameSecrets('cat a.txt')).toBe(true);
  });
});
