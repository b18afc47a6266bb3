// The download offer's keys (commands/models-offer.ts): Enter is consent to a download only as a reaction to the
// question — after it was shown and after a pause — never a key that was already on its way.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readOfferKey } from '../../commands/models-offer.js';

function harness() {
  const input = new PassThrough() as unknown as NodeJS.ReadStream;
  const out: string[] = [];
  const output = new PassThrough();
  output.on('data', (b: Buffer) => out.push(b.toString()));
  let t = 1_000;
  const clock = { now: () => t, at: (ms: number) => (t = 1_000 + ms) };
  let result: string | undefined;
  const p = readOfferKey(input, output, clock.now).then((k) => (result = k));
  const key = async (ms: number, s: string) => {
    clock.at(ms);
    (input as unknown as PassThrough).write(s);
    await new Promise((r) => setImmediate(r));
  };
  return { key, out, p, result: () => result };
}

describe('the download offer', () => {
  it('attack: an Enter that arrives with the question (typed during start-up) is not taken', async () => {
    const h = harness();
    await h.key(5, '\r');
    expect(h.result()).toBeUndefined();
    expect(h.out.join('')).toContain('press Enter again');
  });

  it('attack: an Enter right after other typing is not taken, even late', async () => {
    const h = harness();
    await h.key(2_000, 'x');
    await h.key(2_100, '\r');
    expect(h.result()).toBeUndefined();
  });

  it('an Enter after a pause downloads', async () => {
    const h = harness();
    await h.key(5, '\r');
    await h.key(900, '\r');
    await h.p;
    expect(h.result()).toBe('enter');
  });

  it('Esc quits at once: quitting needs no pause', async () => {
    const h = harness();
    await h.key(1, '\x1b');
    await h.p;
    expect(h.result()).toBe('quit');
  });
});
