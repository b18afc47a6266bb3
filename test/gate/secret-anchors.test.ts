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
    ['CREDENTIALS', [CREDENTIALS]],
    ['SENSITIVE', SENSITIVE.parts],
  ])('every alternative of %s needs a dot, a slash or an anchor word', (_name, res) => {
    const alts = res.flatMap((re) => alternatives(re.source));
    expect(alts.length).toBeGreaterThan(10);
    for (const alt of alts) {
      // The literal part of the alternative, as the text would hold it: an escaped `.` or `/`, or plain letters.
      const literal = alt.replace(/\\([./-])/g, '$1');
      expect(mayNameSecrets(literal.replace(/\((?:\?:)?\^\|\[[^\]]*\]\)/, '').replace(/[()?\\]|\|.*$/g, '')), alt).toBe(true);
    }
  });

  // SENSITIVE was one alternation; its two halves must match exactly the texts it matched (generated from its pieces).
  it('SENSITIVE split in two matches what the single expression matched', () => {
    const single =
      /(^|[/\s'"=@:])\.env|secret|token|passw|credential|\.pem\b|\.key\b|\.p12\b|\.pfx\b|\.ppk\b|\.p8\b|\.jks\b|private|id_(rsa|dsa|ecdsa|ed25519)|_history\b|keychain|\.kdbx\b|\.tfstate\b|\.tfvars\b|wp-config\.php|\.dockercfg\b|\.db\b|\.sqlite3?\b|\.netrc|\.npmrc|\.pypirc|api[_-]?key|cookies|\/environ\b/i;
    const r = prng(131);
    const pieces = [
      '.env', '.ENV', 'x.env', ' ', '/', "'", '"', '=', '@', ':', '.pem', '.key', '.keys', '.p12', '.pfx', '.ppk', '.p8', '.p80', '.jks', '.kdbx',
      '.tfstate', '.tfvars', 'wp-config.php', 'wp-configXphp', '.dockercfg', '.db', '.dbx', '.sqlite', '.sqlite3', '.sqlite4', '.netrc',
      '.npmrc', '.pypirc', '/environ', '/environs', 'secret', 'Token', 'passw', 'credential', 'private', 'id_rsa', 'id_ed', 'ID_ECDSA',
      '_history', '_historyx', 'keychain', 'api_key', 'API-KEY', 'apikey', 'api.key', 'cookies', 'a', '-', '_', '\n', 'ſ', 'K',
    ];
    let matched = 0;
    for (let i = 0; i < 40_000; i++) {
      const n = 1 + Math.floor(r() * 4);
      let text = '';
      for (let k = 0; k < n; k++) text += pieces[Math.floor(r() * pieces.length)]!;
      const want = single.test(text);
      if (want) matched++;
      expect(SENSITIVE.test(text), text).toBe(want);
    }
    expect(matched).toBeGreaterThan(5_000);
    expect(40_000 - matched).toBeGreaterThan(5_000);
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
