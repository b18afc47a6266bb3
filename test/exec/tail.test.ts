import { describe, expect, it } from 'vitest';
import { decodeOutput, TailBuffer } from '../../src/exec/tail.js';

describe('TailBuffer', () => {
  it('keeps everything while under the limit', () => {
    const t = new TailBuffer(10);
    t.push(Buffer.from('abc'));
    t.push(Buffer.from('def'));
    expect(t.bytes().toString()).toBe('abcdef');
    expect(t.truncated).toBe(false);
  });

  it('keeps exactly the last `limit` bytes across chunk boundaries', () => {
    const t = new TailBuffer(5);
    for (const c of ['abc', 'def', 'ghi']) t.push(Buffer.from(c));
    expect(t.bytes().toString()).toBe('efghi');
    expect(t.truncated).toBe(true);
  });

  it('keeps the end of a single chunk larger than the limit', () => {
    const t = new TailBuffer(4);
    t.push(Buffer.from('0123456789'));
    expect(t.bytes().toString()).toBe('6789');
    expect(t.truncated).toBe(true);
  });

  it('holds at most the limit plus one chunk, however much is written', () => {
    const t = new TailBuffer(4096);
    const chunk = Buffer.alloc(65536, 'x');
    let peak = 0;
    for (let i = 0; i < 80; i++) {
      t.push(chunk); // 5 MiB in all
      t.push(Buffer.from('y'.repeat(100)));
      peak = Math.max(peak, t.retainedBytes);
    }
    expect(peak).toBeLessThanOrEqual(4096 + 100);
    expect(t.bytes().length).toBe(4096);
  });

  it('with a zero limit keeps nothing but still notices the loss', () => {
    const t = new TailBuffer(0);
    t.push(Buffer.from('abc'));
    expect(t.bytes().length).toBe(0);
    expect(t.truncated).toBe(true);
  });
});

describe('decodeOutput', () => {
  it('turns invalid UTF-8 and NUL into U+FFFD', () => {
    expect(decodeOutput(Buffer.from([0x61, 0x00, 0x62, 0xff, 0x63]))).toBe('a\uFFFDb\uFFFDc');
  });

  it('skips a character cut in half at the start of a tail', () => {
    const euro = Buffer.from('€uro'); // e2 82 ac …
    expect(decodeOutput(euro.subarray(1), true)).toBe('uro');
    expect(decodeOutput(euro.subarray(1), false)).toMatch(/^\uFFFD/);
  });

  it('keeps valid multi-byte text intact', () => {
    expect(decodeOutput(Buffer.from('naïve — 日本'), true)).toBe('naïve — 日本');
  });
});
