// ADR 0083: the classifier tests its secret and wisp-state expressions on the pieces of the text a rule may look at
// (the part's text, its words joined when that differs, each redirection) instead of on one string that joins them
// with newlines — a plain part's words joined are its text, so the joined string held it twice. That is exact only
// while no match can use a joint; these tests check it on the expressions themselves, then compare both ways.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeLine } from '../../src/gate/analyze.js';
import { CREDENTIALS, SENSITIVE, WISP_STATE, joinsTo, mayNameSecrets } from '../../src/gate/classify.js';
import { defaultConfig } from '../../src/config/schema.js';
import { type Places, fileWordReason } from '../../src/gate/locations.js';
import { initParser, parseLine } from '../../src/gate/parse.js';
import { shortcuts } from '../../src/gate/shortcuts.js';
import { prng } from '../helpers/prng.js';
import { goldenLines } from './golden/lines.js';

const config = defaultConfig();
const tidy = (t: string): string => t.replace(/\/+(?:\.\/+)*/g, '/');

beforeAll(async () => {
  await initParser();
});

/** Texts that hold a match of each expression, and near-misses, to cut at every place. */
const SEEDS = [
  'cat ~/.ssh/id_rsa', 'x id_ed25519', '.aws/credentials', '~/.netrc', 'a.gnupg b', 'keychain', 'login.keychain-db', '.git-credentials',
  '.npmrc', '.pypirc', '.kube/config', '.docker/config.json', '.config/gh/hosts.yml', '.config/gcloud', '.s3cfg', '.azure/x', '.pgpass',
  '.vault-token', '/etc/shadow', '/etc/sudoers', '.password-store', '.gem/credentials', '.cargo/credentials', '.terraformrc', '.boto',
  '.env', 'x=.env.local', 'SECRET', 'api_key', 'API-KEY', 'my_token', 'passwd', 'credential', 'a.pem', 'b.key', 'c.p12', 'x.pfx', 'y.jks',
  'private', '.bash_history', 'k.kdbx', 'app.db', 'x.sqlite3', 'cookies', '/proc/1/environ', '.wisp', '~/.wisp/config.json', '$WISP_HOME',
  '${WISP_HOME}/x', "'.wisp'", '=.wisp', '"id_rsa"', '@id_dsa', ':.env', '//etc//shadow', '/./etc/./shadow', '~/.config//gh/x',
  'idrsa', 'id_rsax', 'keychainz', '.envrc', 'xapi', 'wisp', 'WISP_HOMES', '.sshx', 'a.b', '/', '.', ' ', '\t', '',
];

describe('an expression matches a + "\\n" + b exactly when it matches a or b', () => {
  const expressions: [string, (t: string) => boolean][] = [
    ['CREDENTIALS', (t) => CREDENTIALS.test(t)],
    ['SENSITIVE', (t) => SENSITIVE.test(t)],
    ['WISP_STATE', (t) => WISP_STATE.test(t)],
    ['the anchors', mayNameSecrets],
    ['CREDENTIALS on the tidied text', (t) => CREDENTIALS.test(tidy(t))],
    ['SENSITIVE on the tidied text', (t) => SENSITIVE.test(tidy(t))],
  ];

  it.each(expressions)('%s: every seed cut at every place, and generated pairs', (_name, test) => {
    const r = prng(83);
    const pairs: [string, string][] = [];
    for (const seed of SEEDS) for (let k = 0; k <= seed.length; k++) pairs.push([seed.slice(0, k), seed.slice(k)]);
    const pick = (): string => SEEDS[Math.floor(r() * SEEDS.length)]!;
    for (let i = 0; i < 20_000; i++) {
      const a = pick() + (r() < 0.5 ? ' ' : '') + pick();
      const b = pick() + (r() < 0.5 ? '/' : '') + pick();
      pairs.push([a.slice(0, Math.floor(r() * (a.length + 1))), b.slice(Math.floor(r() * (b.length + 1)))]);
    }
    const wrong = pairs.filter(([a, b]) => test(`${a}\n${b}`) !== (test(a) || test(b)));
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});

describe('joinsTo: the words joined are the text, without joining them', () => {
  it('agrees with join on every part of the golden lines and on generated lists', { timeout: 120_000 }, () => {
    const wrong: string[] = [];
    for (const line of goldenLines()) {
      for (const p of parseLine(line).parts) if (joinsTo(p.words, p.text) !== (p.words.join(' ') === p.text)) wrong.push(line);
    }
    const r = prng(830);
    const bits = ['a', 'b', ' ', '', 'ab', 'a b', '  '];
    for (let i = 0; i < 20_000; i++) {
      const words = Array.from({ length: Math.floor(r() * 4) }, () => bits[Math.floor(r() * bits.length)]!);
      let text = words.join(' ');
      if (r() < 0.5) text = [...text].map((ch) => (r() < 0.1 ? bits[Math.floor(r() * bits.length)]! : ch)).join('');
      if (joinsTo(words, text) !== (words.join(' ') === text)) wrong.push(JSON.stringify([words, text]));
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});

describe('the pieces say what the joined text says', () => {
  it('on generated lines that put secrets and wisp state in quotes, joints and redirections', { timeout: 120_000 }, () => {
    const r = prng(8383);
    const programs = ['cat', 'ls', 'grep -r x', 'echo', 'head -n 1', 'wc -l', 'git log', 'npm run', 'python3', 'cp', 'tee'];
    const words = [
      'a', '"a b"', "'c d'", '"id_"rsa', '.ss"h"/x', '~/.ssh', "'.env'", '".wisp/x"', 'x\\ y', '$WISP_HOME', '"$WISP_HOME"', '.aws/credentials',
      '"/etc//shadow"', '/./etc/./shadow', 'key', 'to"ken"', 'README.md', '-la', '--color=auto', 'api"_key"', '"a\nb"',
    ];
    const redirections = ['', ' > out.txt', ' 2>/dev/null', ' > ~/.ssh/config', ' >> .wisp/log', ' < .env', ' > "a b"', ' 2> id_rsa'];
    const pick = (xs: readonly string[]): string => xs[Math.floor(r() * xs.length)]!;
    const differences: string[] = [];
    for (let i = 0; i < 4000 && differences.length < 10; i++) {
      let line = pick(programs);
      for (let k = Math.floor(r() * 4); k >= 0; k--) line += ' ' + pick(words);
      line += pick(redirections);
      if (r() < 0.2) line += ' | ' + pick(programs) + ' ' + pick(words);
      shortcuts.on = true;
      const fast = JSON.stringify(analyzeLine(line, config, '/work/project', { home: '/home/person' }));
      shortcuts.on = false;
      const full = JSON.stringify(analyzeLine(line, config, '/work/project', { home: '/home/person' }));
      shortcuts.on = true;
      if (fast !== full) differences.push(`${line}: ${fast} vs ${full}`);
    }
    expect(differences).toEqual([]);
  });
});

describe('a secret below the root read from the components at hand', () => {
  it('says what isSecretPath on the joined path says, for generated words in odd places', () => {
    const r = prng(8384);
    const pieces = [
      '.ssh', '.SSH', '.Aws', '.gnupg', '.password-store', '.terraform.d', '.vault', '.config', 'id_rsa', 'ID_RSA', 'id_rsa.pub', 'id_ed25519_sk',
      'id_rsa-old', '.env', '.ENV', '.env.local', 'prod.env', 'x.pem', 'X.PEM', 'a.key.pub', 'credentials', 'Credentials.json', 'secrets.yml',
      '.netrc', '_netrc', '.npmrc', '.envrc', 'src', 'a', '*', '*.pem', 's*', '..', '.', '', 'README.md', 'work', 'project', 'home', 'person',
    ];
    const places: Places[] = [
      { cwd: '/work/project', project: '/work/project', home: '/home/person' },
      { cwd: '/', project: '/', home: '/' },
      { cwd: '/home/person/.ssh', project: '/home/person', home: '/home/person' },
    ];
    const differences: string[] = [];
    for (let i = 0; i < 6000 && differences.length < 10; i++) {
      let w = r() < 0.3 ? '/' : r() < 0.1 ? '~/' : '';
      for (let k = Math.floor(r() * 5); k >= 0; k--) w += pieces[Math.floor(r() * pieces.length)]! + (k > 0 ? '/' : '');
      for (const at of places) {
        for (const shape of ['literal', 'glob'] as const) {
          for (const recursive of [false, true]) {
            shortcuts.on = true;
            const fast = fileWordReason(w, shape, at, recursive) ?? null;
            shortcuts.on = false;
            const full = fileWordReason(w, shape, at, recursive) ?? null;
            shortcuts.on = true;
            if (fast !== full) differences.push(`${w} ${shape} ${recursive} in ${JSON.stringify(at)}: ${fast} vs ${full}`);
          }
        }
      }
    }
    expect(differences).toEqual([]);
  });
});
