// Recognisable credentials in text a model reads of what ran unasked (ADR 0096): what is hidden, and what is left.
import { describe, expect, it } from 'vitest';
import { HIDDEN, hideCredentials } from '../../src/core/credentials-in-text.js';

const hidden = (text: string): string => hideCredentials(text).text;

describe('hideCredentials', () => {
  it("hides a URL's password and a token given as its user, keeping the rest of the URL", () => {
    expect(hidden('origin\thttps://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/a/b.git (fetch)')).toBe(
      `origin\thttps://${HIDDEN}@github.com/a/b.git (fetch)`,
    );
    expect(hidden('https://x-access-token:ghs_abcdefghijklmnopqrstuvwxyz0123@github.com/a/b')).toBe(`https://x-access-token:${HIDDEN}@github.com/a/b`);
    expect(hidden('DATABASE_URL=postgres://app:s3cr3t-pw@db.example:5432/app')).toBe(`DATABASE_URL=postgres://app:${HIDDEN}@db.example:5432/app`);
  });

  it('hides values given to secret-named keys in YAML, env files, JSON, INI and connection strings', () => {
    expect(hidden('production:\n  username: app\n  password: hunter2\n  host: db')).toBe(`production:\n  username: app\n  password: ${HIDDEN}\n  host: db`);
    expect(hidden('DB_PASSWORD=hunter2\nOTHER=1')).toBe(`DB_PASSWORD=${HIDDEN}\nOTHER=1`);
    expect(hidden('{"apiKey": "abc123def456", "name": "x"}')).toBe(`{"apiKey": "${HIDDEN}", "name": "x"}`);
    expect(hidden('SECRET_KEY = "django-insecure-abc123"')).toBe(`SECRET_KEY = "${HIDDEN}"`);
    expect(hidden('aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toBe(`aws_secret_access_key = ${HIDDEN}`);
    expect(hidden('Server=x;User Id=u;Password=P@ssw0rd!;')).toBe(`Server=x;User Id=u;Password=${HIDDEN};`);
    expect(hidden('//registry.npmjs.org/:_authToken=abcdef123456')).toBe(`//registry.npmjs.org/:_authToken=${HIDDEN}`);
    expect(hidden('Authorization: Bearer abc.def.ghi')).toBe(`Authorization: Bearer ${HIDDEN}`);
  });

  it('hides tokens with a known prefix wherever they stand, and private key blocks', () => {
    expect(hidden('key is AKIAIOSFODNN7EXAMPLE.')).toBe(`key is ${HIDDEN}.`);
    expect(hidden('use sk-proj-abcdefghijklmnopqrstuvwxyz now')).toBe(`use ${HIDDEN} now`);
    expect(hidden('-----BEGIN RSA PRIVATE KEY-----\nMIIE\nAAAA\n-----END RSA PRIVATE KEY-----')).toBe(
      `-----BEGIN RSA PRIVATE KEY-----${HIDDEN}-----END RSA PRIVATE KEY-----`,
    );
    expect(hideCredentials('a ghp_abcdefghijklmnopqrstuvwxyz0123456789 b glpat-abcdefghijklmnopqrst').hidden).toBe(2);
  });

  it('leaves code, placeholders, types, certificates and plain prose as they are (the same string)', () => {
    for (const text of [
      "password = request.form['password']",
      'const token = getToken();',
      'token: string;',
      'if (password == other) {',
      'secret: ${{ secrets.TOKEN }}',
      'password: <%= ENV["DB_PASSWORD"] %>',
      'author: Jane',
      'tokenizer: bert',
      'passwords are hashed with bcrypt',
      'https://github.com/a/b.git',
      'git@github.com:a/b.git',
      '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      'the task-runner uses sk-abc',
    ]) {
      const r = hideCredentials(text);
      expect(r.text, text).toBe(text);
      expect(r.hidden, text).toBe(0);
    }
  });

  it('is linear: a third of a megabyte of key-like text is read at once (a quadratic scan took over two minutes)', () => {
    const text = 'password=password:token:'.repeat(10_000) + 'x://'.repeat(10_000) + '-----BEGIN '.repeat(5_000) + 'password:"'.repeat(10_000);
    const t0 = performance.now();
    hideCredentials(text);
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});
