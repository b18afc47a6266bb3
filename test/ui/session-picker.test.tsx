// The list `wisp chat --resume` picks from (issue 14 point 7): ↑/↓ and Enter choose, Esc leaves, a paste or keys
// read together choose nothing; the first prompt is drawn made visible.
import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SavedSummary } from '../../src/session/saved-chat.js';
import { SessionPicker } from '../../ui/SessionPicker.js';
import { KEYS, press, settle } from './helpers.js';

afterEach(() => cleanup());

const chat = (n: number, title: string): SavedSummary => ({
  file: `/h/sessions/2026120${n}T100000-0000000${n}.jsonl`,
  header: { id: `2026120${n}T100000-0000000${n}`, directory: '/work/p', model: 'm', startedAt: '2026-12-01T10:00:00.000Z' },
  title,
  prompts: n,
  modifiedAt: Date.UTC(2026, 11, n, 10, 0),
});

function start(unreadable = 0) {
  const picked: Array<SavedSummary | undefined> = [];
  const chats = [chat(3, 'newest'), chat(2, 'middle\x1b[2J'), chat(1, 'oldest')];
  const r = render(<SessionPicker chats={chats} unreadable={unreadable} onPick={(c) => picked.push(c)} />);
  return { ...r, picked };
}

describe('SessionPicker', () => {
  it('↓ then Enter resumes the second; titles are made visible', async () => {
    const { stdin, lastFrame, picked } = start();
    await settle();
    expect(lastFrame()).toContain('▸ 2026-12-03 10:00 · /work/p · 3 prompts · newest');
    expect(lastFrame()).toContain('middle\\x1b[2J');
    await press(stdin, KEYS.down);
    expect(lastFrame()).toContain('▸ 2026-12-02');
    await press(stdin, KEYS.enter);
    expect(picked.map((c) => c?.title)).toEqual(['middle\x1b[2J']);
  });

  it('Esc leaves without a choice; files that failed their checks are counted', async () => {
    const { stdin, lastFrame, picked } = start(2);
    await settle();
    expect(lastFrame()).toContain('2 saved files left out');
    await press(stdin, KEYS.escape);
    expect(picked).toEqual([undefined]);
  });

  it('a paste or Enter read together with other keys chooses nothing', async () => {
    const { stdin, picked } = start();
    await settle();
    stdin.write('\x1b[200~\r\x1b[201~');
    await settle(50);
    stdin.write('x\r');
    await settle(50);
    expect(picked).toEqual([]);
  });
});
