import { describe, expect, it } from 'vitest';
import { safeJson } from '../../src/core/safe-json.js';

describe('safeJson', () => {
  const hostile = 'rm\u202e -rf \u009b2J\u200b~\u{E0041}\u2066x\u2069\ufeff';

  it('writes bidi, C1, zero-width and tag characters as \\u escapes', () => {
    const text = safeJson({ command: hostile });
    expect(text).not.toMatch(/[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/);
    expect(text).not.toMatch(/\udb40/);
    expect(text).toContain('\\u202e');
    expect(text).toContain('\\udb40\\udc41');
  });

  it('round-trips to exactly the same strings', () => {
    const value = { a: hostile, b: ['plain', 'é ü 日本'], n: 1 };
    expect(JSON.parse(safeJson(value, 2))).toEqual(value);
  });

  it('leaves ordinary text alone', () => {
    expect(safeJson({ a: 'ls -la é' })).toBe(JSON.stringify({ a: 'ls -la é' }));
  });
});
