// ADR 0089: the classifier's echo/printf rule finds a secret variable's reference by a scan instead of matchAll. The
// scan must say what the expression says, on generated texts, and the attack spellings must still be dangerous.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine } from '../../src/gate/analyze.js';
import { defaultConfig } from '../../src/config/schema.js';
import { initParser } from '../../src/gate/parse.js';
import { printsSecretName } from '../../src/gate/rules-net.js';
import { shortcuts } from '../../src/gate/shortcuts.js';
import { prng } from '../helpers/prng.js';

const SECRET_NAME = /(PASSWORD|PASSWD|TOKEN|SECRET|CREDENTIAL|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|_KEY)\b/i;

function byExpression(text: string): boolean {
  return [...text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)(:\+)?/g)].filter((m) => m[2] === undefined).some((m) => SECRET_NAME.test(m[1]!));
}

const PIECES = ['$', '$', '${', '{', '}', ':+', ':-', ':', '+', 'TOKEN', 'token', 'API_KEY', 'APIKEY', 'my_key', '_KEY', 'KEY', 'X', 'x1', '1', '_', 'PASSWORD', 'passwd2', 'SECRET_', 'é', ' ', '"', "'", '\\', '$$', '-', '/', 'A'];

beforeAll(async () => {
  await initParser();
});

describe('printsSecretName (ADR 0089)', () => {
  it('says what the expression says on 60,000 generated texts', () => {
    const r = prng(89003);
    const differences: string[] = [];
    for (let i = 0; i < 60_000 && differences.length < 5; i++) {
      let text = '';
      const n = 1 + Math.floor(r() * 10);
      for (let k = 0; k < n; k++) text += PIECES[Math.floor(r() * PIECES.length)]!;
      if (printsSecretName(text) !== byExpression(text)) differences.push(JSON.stringify(text));
    }
    expect(differences).toEqual([]);
  });

  it('echoing a credential through a brace, a prefix or a second dollar is still dangerous, both ways', () => {
    const config = defaultConfig();
    for (const line of ['echo ${GITHUB_TOKEN}', 'echo "x$API_KEY"', 'printf %s $$AWS_SECRET_ACCESS_KEY', 'echo ${X:-$NPM_TOKEN}', 'echo "${DB_PASSWORD}"']) {
      for (const on of [true, false]) {
        shortcuts.on = on;
        try {
          const a = analyzeLine(line, config, '/w', { home: '/home/u' });
          expect(a.parts.some((p) => p.reasons.includes('prints a credential')), `${line} ${on}`).toBe(true);
        } finally {
          shortcuts.on = true;
        }
      }
    }
    expect(printsSecretName('echo ${TOKEN:+set}')).toBe(false);
  });
});
