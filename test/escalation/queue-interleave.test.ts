// Every interleaving of the queue protocol's file operations for one asker and two answerers, with up to one
// preemption (test/helpers/queue-interleave.ts; the stress run explores two). ADR 0026 gives the argument.
import * as fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explore, scratchRoot } from '../helpers/queue-interleave.js';

let root: string;
beforeAll(() => {
  root = scratchRoot();
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('queue protocol: every interleaving of two answerers and the asker (up to one preemption)', () => {
  it('waiting asker: the applied answer and every report agree', () => {
    const { runs, outcomes } = explore(root, { mode: 'waiting', bound: 1 });
    // Every way it can end was reached: A taken, B taken, nothing taken (timeout), each with the others' reports.
    const keys = [...outcomes.keys()];
    expect(keys.some((k) => k.startsWith('approved:once A=taken'))).toBe(true);
    expect(keys.some((k) => k.startsWith('declined') && k.endsWith('B=taken'))).toBe(true);
    expect(keys.some((k) => k.startsWith('unanswered'))).toBe(true);
    expect(keys.some((k) => k.includes('=not-taken'))).toBe(true);
    expect(keys.some((k) => k.includes('=other'))).toBe(true);
    expect(keys.some((k) => k.includes('=exists'))).toBe(true);
    expect(runs).toBeGreaterThan(500);
  }, 180_000);

  it('deferred asker: recorded answers, collected or withdrawn; reports agree', () => {
    const { outcomes } = explore(root, { mode: 'deferred', bound: 1 });
    const keys = [...outcomes.keys()];
    expect(keys.some((k) => k.startsWith('approved:once'))).toBe(true);
    expect(keys.some((k) => k.includes('=recorded'))).toBe(true);
    expect(keys.some((k) => k.startsWith('unanswered'))).toBe(true);
  }, 180_000);

  it('a forged answer beside a genuine one: refused in every interleaving, the genuine one still decides', () => {
    const { outcomes } = explore(root, { mode: 'waiting', forgedB: true, bound: 1 });
    const keys = [...outcomes.keys()];
    expect(keys.some((k) => k.startsWith('approved:once A=taken'))).toBe(true);
    expect(keys.every((k) => !k.includes('B=taken'))).toBe(true);
  }, 180_000);
});
