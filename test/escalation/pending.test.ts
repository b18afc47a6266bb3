import { describe, expect, it } from 'vitest';
import { PendingEscalations } from '../../src/escalation/pending.js';

describe('PendingEscalations (result channel inquiries)', () => {
  const make = (now: { t: number }) => new PendingEscalations(60_000, () => now.t);

  it('redeems an inquiry once, on its own thread', () => {
    const now = { t: 1000 };
    const p = make(now);
    p.file('q1', { question: 'Which file?' }, 'thread-a', 'call_1');
    const first = p.redeem('q1', 'thread-a', 'notes.txt');
    expect(first).toMatchObject({ ok: true, text: 'notes.txt', entry: { question: 'Which file?', toolCallId: 'call_1' } });
    expect(p.redeem('q1', 'thread-a', 'again')).toMatchObject({ ok: false, code: 'used' });
  });

  it('refuses an id from another thread and keeps it for its own', () => {
    const p = make({ t: 0 });
    p.file('q2', { question: 'Overwrite?' }, 'a');
    expect(p.redeem('q2', 'b', 'yes')).toMatchObject({ ok: false, code: 'other-thread' });
    expect(p.redeem('q2', 'a', 'yes')).toMatchObject({ ok: true });
  });

  it('refuses unknown ids and approval ids', () => {
    const p = make({ t: 0 });
    p.noteApprovalId('ap1');
    expect(p.redeem('nope', 'a', 'x')).toMatchObject({ ok: false, code: 'unknown' });
    const r = p.redeem('ap1', 'a', 'yes');
    expect(r).toMatchObject({ ok: false, code: 'approval' });
    if (!r.ok) expect(r.reason).toContain('wisp approvals approve ap1');
  });

  it('expires ids after pendingSeconds and reports each once', () => {
    const now = { t: 0 };
    const p = make(now);
    p.file('q3', { question: 'Which?' }, 'a');
    now.t = 59_999;
    expect(p.expire()).toHaveLength(0);
    now.t = 60_000;
    expect(p.expire().map((e) => e.id)).toEqual(['q3']);
    expect(p.expire()).toHaveLength(0);
    expect(p.redeem('q3', 'a', 'late')).toMatchObject({ ok: false, code: 'used' });
  });

  it('refuses an expired id at redeem time even before a sweep', () => {
    const now = { t: 0 };
    const p = make(now);
    p.file('q4', { question: 'Which?' }, 'a');
    now.t = 61_000;
    expect(p.redeem('q4', 'a', 'late')).toMatchObject({ ok: false, code: 'expired' });
  });

  it('refuses answers longer than 4 KiB without using the id', () => {
    const p = make({ t: 0 });
    p.file('q5', { question: 'Paste it' }, 'a');
    expect(p.redeem('q5', 'a', 'x'.repeat(4097))).toMatchObject({ ok: false, code: 'too-long' });
    expect(p.redeem('q5', 'a', 'short')).toMatchObject({ ok: true });
  });

  it('drops a closed thread\'s ids for good', () => {
    const p = make({ t: 0 });
    p.file('q6', { question: '?' }, 'a');
    p.file('q7', { question: '?' }, 'b');
    expect(p.dropThread('a').map((e) => e.id)).toEqual(['q6']);
    expect(p.redeem('q6', 'a', 'x')).toMatchObject({ ok: false, code: 'used' });
    expect(p.list().map((e) => e.id)).toEqual(['q7']);
  });
});
