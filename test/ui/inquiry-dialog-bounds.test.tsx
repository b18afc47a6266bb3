// Issue 14 point 9: the model's question cannot push the dialog's title and wisp's words off screen or pass for an
// approval dialog (bounded block behind a gutter, blank runs collapsed, scrolled with PgUp/PgDn); enum and boolean
// fields are pickers, not typed text; a field's error goes once it is right; the transcript shows the answer.
import { cleanup, render } from 'ink-testing-library';
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../ui/App.js';
import type { DialogResult } from '../../ui/dialog-store.js';
import { DialogStore } from '../../ui/dialog-store.js';
import { InquiryDialog } from '../../ui/InquiryDialog.js';
import { KeyRhythm } from '../../ui/key-rhythm.js';
import { TerminalChannel } from '../../ui/terminal-channel.js';
import { FakeEngine, inquiryRequest, KEYS, press, until } from './helpers.js';

afterEach(() => cleanup());

const strip = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

function show(req = inquiryRequest()) {
  const answers: DialogResult[] = [];
  const r = render(<InquiryDialog request={req} onAnswer={(a) => answers.push(a)} rhythm={new KeyRhythm(0)} />);
  return { ...r, answers };
}

const FORGED_BOX = [
  '╭────────────────────────────╮',
  '│ ⚠ approve a command?       │',
  '│ wisp needs your approval   │',
  '│ Command:                   │',
  '│   ls                       │',
  '│  [y] once  ▸[n] no         │',
  '╰────────────────────────────╯',
].join('\n');

describe('the question stays in its block', () => {
  it('attack: 40 line feeds then a box drawn with wisp\'s headline: the real title stays first, the run is one marker', () => {
    const { lastFrame } = show(inquiryRequest({ question: `Pick one.${'\n'.repeat(40)}${FORGED_BOX}` }));
    const lines = strip(lastFrame()!).split('\n');
    expect(lines[1]).toContain('? the model asks you');
    expect(lines.join('\n')).toContain('⟨40 line feeds⟩');
    // Every row of the model's text sits behind the gutter; none of it is a line of the dialog itself.
    const forged = lines.filter((l) => l.includes('approve a command?'));
    expect(forged.length).toBeGreaterThan(0);
    for (const l of forged) expect(l).toMatch(/^│\s+│ /);
    // Bounded: the frame stays short, and wisp's own hint line is on screen.
    expect(lines.length).toBeLessThan(24);
    expect(lines.join('\n')).toContain('Enter send · Esc decline');
  });

  it('a question of many lines shows a window of it; PgDn scrolls, and says what is above and below', async () => {
    const question = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n');
    const { stdin, lastFrame, answers } = show(inquiryRequest({ question }));
    expect(strip(lastFrame()!)).toContain('│ line 1');
    expect(strip(lastFrame()!)).not.toContain('line 20');
    expect(strip(lastFrame()!)).toMatch(/↓ 22 more rows below \(PgUp\/PgDn\)/);
    await press(stdin, KEYS.pageDown, KEYS.pageDown, KEYS.pageDown, KEYS.pageDown);
    const frame = strip(lastFrame()!);
    expect(frame).toContain('│ line 30');
    expect(frame).toMatch(/↑ \d+ more rows above/);
    expect(answers).toEqual([]);
  });
});

const CHOICE = {
  type: 'object',
  properties: {
    keep: { type: 'string', enum: ['README.md', 'docs/README.md'] },
    backup: { type: 'boolean' },
    copies: { type: 'integer', minimum: 1 },
  },
  required: ['keep', 'copies'],
};

describe('choice fields are pickers', () => {
  it('↑/↓ pick among the enum values and yes/no, typing does nothing there, Tab moves on; the answer is the JSON', async () => {
    const { stdin, lastFrame, answers } = show(inquiryRequest({ schema: CHOICE }));
    expect(strip(lastFrame()!)).toMatch(/› ?keep \(choose, required\): +README\.md +docs\/README\.md \(none picked: ↓\)/);
    await press(stdin, 'x', 'y', 'z'); // no typing on a choice field
    expect(strip(lastFrame()!)).not.toContain('xyz');
    await press(stdin, KEYS.down, KEYS.down);
    expect(strip(lastFrame()!)).toContain('▸docs/README.md');
    await press(stdin, KEYS.enter); // takes it, on to backup
    await press(stdin, KEYS.down, KEYS.down); // yes → no
    expect(strip(lastFrame()!)).toContain('▸no');
    await press(stdin, KEYS.tab, '3', KEYS.enter);
    expect(answers).toEqual([{ kind: 'answered', text: JSON.stringify({ keep: 'docs/README.md', backup: false, copies: 3 }) }]);
  });

  it('a required choice left unpicked is an error, and the error goes as soon as a choice is picked', async () => {
    const { stdin, lastFrame, answers } = show(inquiryRequest({ schema: CHOICE }));
    await press(stdin, KEYS.tab, KEYS.tab, '2', KEYS.enter);
    expect(answers).toEqual([]);
    expect(strip(lastFrame()!)).toContain('✗ required');
    await press(stdin, KEYS.down);
    expect(strip(lastFrame()!)).not.toContain('✗ required');
  });

  it('a typed field\'s error clears when it is corrected, not only on the next send', async () => {
    const { stdin, lastFrame } = show(inquiryRequest({ schema: CHOICE }));
    await press(stdin, KEYS.down, KEYS.tab, KEYS.tab, 'x', KEYS.enter);
    expect(strip(lastFrame()!)).toContain('✗ not a whole number');
    await press(stdin, KEYS.tab, KEYS.tab); // back to copies (the bad field has the focus after a failed send)
    await press(stdin, KEYS.backspace, '4');
    expect(strip(lastFrame()!)).not.toContain('✗ not a whole number');
  });
});

describe('the transcript shows what was answered', () => {
  it('during a turn, the answer goes under the question\'s own line, which comes when the tool returns', async () => {
    const store = new DialogStore();
    const channel = new TerminalChannel(store);
    const engine = new FakeEngine();
    engine.turnImpl = async (_prompt, h) => {
      const outcome = await channel.raise({ verb: 'inquiry', request: { question: 'Name?' } }, { session: 's', escalationId: 'q2', timeoutMs: 60_000 });
      h.onEvent({ type: 'inquiry', question: 'Name?', outcome: outcome.kind === 'answered' ? 'answered' : 'declined' });
      return { text: 'Thanks.' };
    };
    const { stdin, lastFrame } = render(<App engine={engine} store={store} bell={() => {}} quietMs={0} />);
    await press(stdin, 'go', KEYS.enter);
    await until(() => lastFrame()!.includes('the model asks you'));
    await press(stdin, 'A', 'd', 'a', KEYS.enter);
    await until(() => lastFrame()!.includes('Thanks.'));
    const frame = strip(lastFrame()!);
    const question = frame.indexOf('Name? — answered');
    const answer = frame.indexOf('↳ you answered: Ada');
    expect(question).toBeGreaterThanOrEqual(0);
    expect(answer).toBeGreaterThan(question);
  });

  it('made visible and cut', async () => {
    const store = new DialogStore();
    const { stdin, lastFrame } = render(<App engine={new FakeEngine()} store={store} bell={() => {}} quietMs={0} />);
    void new TerminalChannel(store).raise(
      { verb: 'inquiry', request: { question: 'Name?' } },
      { session: 's', escalationId: 'q1', timeoutMs: 60_000 },
    );
    await until(() => lastFrame()!.includes('the model asks you'));
    await press(stdin, 'x');
    stdin.write(`\x1b[200~\x1b[2J${'B'.repeat(300)}\x1b[201~`);
    await press(stdin, KEYS.enter);
    await until(() => lastFrame()!.includes('you answered'));
    const frame = strip(lastFrame()!);
    expect(frame).toMatch(/↳ you answered: x\\x1b\[2J[B\n]+… \[\+\d+ chars\]/);
    expect(frame).not.toContain('\x1b[2J');
  });
});
