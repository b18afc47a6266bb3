// Recognisable credentials in a command's output or a file's text, hidden before a model reads what ran unasked
// (ADR 0096). A secret under an ordinary name (`config/database.yml`, a token in `git remote -v`) is not known by the
// file's name, so the text is read for what a credential looks like: a URL's password, a private key block, a token
// with a known prefix, a value given to a secret-named key. A scanner of plain loops and bounded expressions: the text
// is a project's or a program's, so nothing here may backtrack (ADR 0038).

/** What stands where a credential was. */
export const HIDDEN = '[hidden by wisp]';

export interface HiddenText {
  readonly text: string;
  /** How many credentials were hidden. */
  readonly hidden: number;
}

/**
 * Token prefixes and the least number of token characters (letters, digits, `_`, `-`) after them: GitHub's, GitLab's,
 * Slack's, OpenAI's and Anthropic's, AWS access key ids, Google API keys, npm, PyPI, Hugging Face, Stripe, and others.
 */
const TOKEN_PREFIXES: ReadonlyArray<readonly [string, number]> = [
  ['ghp_', 30], ['gho_', 30], ['ghu_', 30], ['ghs_', 30], ['ghr_', 30], ['github_pat_', 30],
  ['glpat-', 16], ['glptt-', 16], ['gldt-', 16], ['xoxb-', 10], ['xoxp-', 10], ['xoxa-', 10], ['xoxr-', 10], ['xoxs-', 10], ['xapp-', 10],
  ['sk-ant-', 20], ['sk-proj-', 20], ['sk-', 32], ['AKIA', 16], ['ASIA', 16], ['AIza', 30], ['npm_', 30], ['pypi-', 40], ['hf_', 30],
  ['sk_live_', 16], ['rk_live_', 16], ['sk_test_', 16], ['dop_v1_', 40], ['shpat_', 20], ['shpss_', 20], ['AGE-SECRET-KEY-1', 40],
];

/** Words one of which a secret-holding key name holds (lower case): where the scan for keys starts. */
const KEY_ANCHORS = ['pass', 'secret', 'token', 'key', 'auth', 'credential'];

/**
 * How a secret-holding key name ends, once lower-cased with `_`, `-` and `.` taken out: `DB_PASSWORD`, `SECRET_KEY`,
 * `apiKey`, `_authToken`, `aws_secret_access_key`, `client_secret`, `Authorization`. `author`, `tokenizer`,
 * `password_confirmation` and `secrets` end otherwise.
 */
const SECRET_KEY_ENDINGS = ['password', 'passwd', 'secret', 'secretkey', 'token', 'apikey', 'accesskey', 'privatekey', 'credentials', 'credential', 'authorization', 'auth', 'encryptionkey', 'signingkey', 'masterkey'];

/** The longest value read as a secret: a longer run is not one (and each value's scan stays bounded). */
const MAX_VALUE = 2048;

/** Values that are not a secret: placeholders, empty values and types in code (`password: string`). */
const NOT_SECRET_VALUES: ReadonlySet<string> = new Set([
  'null', 'none', 'nil', 'true', 'false', 'undefined', 'string', 'str', 'number', 'int', 'bool', 'boolean', 'any', 'unknown',
  'optional', 'required', 'bytes', 'text', 'varchar', 'redacted', 'xxx', 'changeme', '***', '*****', '********', HIDDEN,
]);

function isTokenChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45;
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** Hides the recognisable credentials in `text`. Text without one comes back as the same string. */
export function hideCredentials(text: string): HiddenText {
  let hidden = 0;
  const spans: Array<readonly [number, number]> = [];
  const add = (from: number, to: number): void => {
    if (to > from) spans.push([from, to]);
  };
  privateKeys(text, add);
  urlPasswords(text, add);
  tokens(text, add);
  keyValues(text, add);
  if (spans.length === 0) return { text, hidden: 0 };
  spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let out = '';
  let at = 0;
  for (const [from, to] of spans) {
    if (to <= at) continue; // inside a span already hidden
    out += text.slice(at, Math.max(from, at)) + HIDDEN;
    at = to;
    hidden++;
  }
  return { text: out + text.slice(at), hidden };
}

/** `-----BEGIN … PRIVATE KEY-----` … `-----END …-----`: the body (to the end of the text when no end line follows). */
function privateKeys(text: string, add: (from: number, to: number) => void): void {
  for (let i = text.indexOf('-----BEGIN '); i >= 0; i = text.indexOf('-----BEGIN ', i + 1)) {
    const close = text.indexOf('-----', i + 11);
    if (close < 0) return;
    if (!text.slice(i + 11, close).includes('PRIVATE KEY')) continue;
    const end = text.indexOf('-----END ', close + 5);
    add(close + 5, end < 0 ? text.length : end);
    if (end < 0) return;
    i = end;
  }
}

/**
 * A URL's user information: `scheme://user:PASSWORD@host` keeps the user, and a user part alone that is a token
 * (`https://TOKEN@github.com`: 20 characters or more, or a known prefix) is hidden whole.
 */
function urlPasswords(text: string, add: (from: number, to: number) => void): void {
  for (let i = text.indexOf('://'); i >= 0; i = text.indexOf('://', i + 3)) {
    const start = i + 3;
    let j = start;
    let colon = -1;
    for (; j < text.length; j++) {
      const ch = text.charCodeAt(j);
      // The user information ends at `@`; a `/`, `?`, `#`, blank or quote first means there is none.
      if (ch === 0x40 || ch === 0x2f || ch === 0x3f || ch === 0x23 || ch <= 0x20 || ch === 0x22 || ch === 0x27 || ch === 0x3c || ch === 0x3e) break;
      if (ch === 0x3a && colon < 0) colon = j;
    }
    if (text.charCodeAt(j) !== 0x40 || j === start) continue;
    if (colon >= 0) add(colon + 1, j);
    else if (j - start >= 20 || TOKEN_PREFIXES.some(([p]) => text.startsWith(p, start))) add(start, j);
  }
}

/** Tokens with a known prefix, starting a word, with enough token characters after the prefix. */
function tokens(text: string, add: (from: number, to: number) => void): void {
  for (const [prefix, least] of TOKEN_PREFIXES) {
    for (let i = text.indexOf(prefix); i >= 0; i = text.indexOf(prefix, i + 1)) {
      if (i > 0 && isWordChar(text.charCodeAt(i - 1))) continue;
      let j = i + prefix.length;
      while (j < text.length && isTokenChar(text.charCodeAt(j))) j++;
      if (j - i - prefix.length >= least) {
        add(i, j);
        i = j - 1;
      }
    }
  }
}

/**
 * `password: hunter2`, `DB_PASSWORD=hunter2`, `"apiKey": "…"`, `Password=…;` in a connection string, `_authToken=…`,
 * `Authorization: Bearer …`: a key holding one of SECRET_KEY_WORDS, then `:`, `=` or `=>`, then a value — quoted, or a
 * bare word. A bare value that reads as code (`password = request.form["p"]`, `token: getToken()`,
 * `secret: process.env.X`) or as a placeholder (`${X}`, `<token>`, `%(x)s`) is left: it holds no secret.
 */
function keyValues(text: string, add: (from: number, to: number) => void): void {
  const lower = text.toLowerCase();
  // Every place an anchor starts, in order, so that one pass reads each key once and skips keys inside a value read.
  const starts: number[] = [];
  for (const anchor of KEY_ANCHORS) for (let i = lower.indexOf(anchor); i >= 0; i = lower.indexOf(anchor, i + 1)) starts.push(i);
  starts.sort((a, b) => a - b);
  let readUntil = 0;
  for (const i of starts) {
    if (i < readUntil) continue;
    // The whole key name around the anchor: word characters, `-` and `.` (at most 64 back).
    let b = i;
    while (b > readUntil && i - b < 64 && isKeyChar(text.charCodeAt(b - 1))) b--;
    let k = i;
    while (k < text.length && isKeyChar(text.charCodeAt(k))) k++;
    readUntil = k;
    let name = '';
    for (let x = b; x < k && name.length < 80; x++) {
      const ch = lower.charCodeAt(x);
      if (ch !== 0x5f && ch !== 0x2d && ch !== 0x2e) name += lower[x];
    }
    if (!SECRET_KEY_ENDINGS.some((e) => name.endsWith(e))) continue;
    // Inside a URL's user information (`https://x-access-token:…@host`): urlPasswords reads it.
    if (insideUrl(text, b)) continue;
    let j = k;
    if (text.charCodeAt(j) === 0x22 || text.charCodeAt(j) === 0x27) j++; // the key's closing quote
    while (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09) j++;
    const sep = text.charCodeAt(j);
    if (sep === 0x3d) j += text.charCodeAt(j + 1) === 0x3e ? 2 : 1; // `=`, `=>`
    else if (sep === 0x3a && text.charCodeAt(j + 1) !== 0x3a) j++; // `:`, not `::`
    else continue;
    if (text.charCodeAt(j) === 0x3d) continue; // `==`: a comparison
    while (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09) j++;
    const value = valueAt(text, j);
    if (value === undefined) continue;
    add(value[0], value[1]);
    readUntil = value[1];
  }
}

function isKeyChar(code: number): boolean {
  return isWordChar(code) || code === 0x2d || code === 0x2e;
}

/** Whether `at` follows a `://` in the same blank-free run (looked for at most 256 characters back). */
function insideUrl(text: string, at: number): boolean {
  for (let x = at - 1; x >= 2 && at - x < 256; x--) {
    const ch = text.charCodeAt(x);
    if (ch <= 0x20 || ch === 0x22 || ch === 0x27) return false;
    if (ch === 0x2f && text.charCodeAt(x - 1) === 0x2f && text.charCodeAt(x - 2) === 0x3a) return true;
  }
  return false;
}

/** The span of a secret value starting at `j`, or undefined when what follows is no literal secret. */
function valueAt(text: string, j: number): readonly [number, number] | undefined {
  const q = text.charCodeAt(j);
  if (q === 0x22 || q === 0x27 || q === 0x60) {
    let end = j + 1;
    while (end < text.length && end - j <= MAX_VALUE && text.charCodeAt(end) !== q && text.charCodeAt(end) !== 0x0a) end++;
    if (text.charCodeAt(end) !== q) return undefined;
    const inner = text.slice(j + 1, end);
    return plainSecret(inner) ? [j + 1, end] : undefined;
  }
  let end = j;
  for (; end < text.length && end - j <= MAX_VALUE; end++) {
    const ch = text.charCodeAt(end);
    if (ch <= 0x20 || ch === 0x3b || ch === 0x2c || ch === 0x22 || ch === 0x27 || ch === 0x7d || ch === 0x29) break;
  }
  let word = text.slice(j, end);
  // `Authorization: Bearer TOKEN`, `Basic …`, `token TOKEN`: the scheme stays, the word after it goes.
  if (/^(?:bearer|basic|token|digest)$/i.test(word) && text.charCodeAt(end) === 0x20) {
    const from = end + 1;
    let to = from;
    while (to < text.length && to - from <= MAX_VALUE && text.charCodeAt(to) > 0x20 && text.charCodeAt(to) !== 0x22 && text.charCodeAt(to) !== 0x27) to++;
    word = text.slice(from, to);
    return plainSecret(word) ? [from, to] : undefined;
  }
  if (!plainSecret(word)) return undefined;
  // Code, not a literal: a call, an index, a member or a name followed by an operator.
  if (/[([{]/.test(word) || /^[A-Za-z_$][\w$]*\.[A-Za-z_$]/.test(word)) return undefined;
  return [j, end];
}

/** Whether a value could be a secret: not empty, no placeholder, not a type or a common non-secret word. */
function plainSecret(value: string): boolean {
  if (value.length < 3 || value.length > MAX_VALUE) return false;
  if (NOT_SECRET_VALUES.has(value.toLowerCase())) return false;
  const first = value.charCodeAt(0);
  // `${X}`, `$X`, `<token>`, `{{ x }}`, `%(x)s`, `%X%`: placeholders filled elsewhere.
  if (first === 0x24 || first === 0x3c || first === 0x7b || first === 0x25) return false;
  return value !== HIDDEN && !value.includes(HIDDEN);
}
