// `wisp chat` in a real pseudo-terminal for issue 14's points 4 (live output, the spinner's words) and 8 (layout:
// the status line at 60 and 80 columns, a resize while a dialog is open, NO_COLOR). Needs the build first.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatSetup as setup, READY, usePtyChats } from '../helpers/pty-chat.js';

const run = (command: string) => ({ toolCalls: [{ name: 'run_command', arguments: { command } }] });
const chat = usePtyChats();

describe('live command output in a real terminal', () => {
  it('streams a running command into a box while it runs, escapes shown, then the tail stays in the transcript', async () => {
    // The command prints two lines (one with a screen-clearing escape), then waits for a file the test writes only
    // once the box has shown them: the output must be on screen while the command still runs.
    const command =
      "echo compiling-one; printf 'evil\\033[2Jtext\\n'; for i in $(seq 300); do [ -e go ] && break; sleep 0.1; done; echo finished-$([ -e go ] && echo ok || echo late)";
    const s = setup([run(command), { text: 'Built.' }]);
    const t = chat(s, { args: ['-y'] });
    await t.waitFor(READY);
    await t.typeLine('build it');
    const live = await t.waitFor(/running `echo compiling-one[\s\S]*evil\\x1b\[2Jtext/);
    expect(live).toMatch(/running `echo compiling-one.*` · \d+s · Esc interrupts\n/);
    expect(live).toMatch(/│ compiling-one\s+│/);
    expect(live).not.toMatch(/│ finished-/);
    writeFileSync(join(s.work, 'go'), '');
    const after = await t.waitFor('Built.');
    expect(after).toContain('  │ finished-ok');
    expect(after).not.toContain('running `');
    expect(t.raw).not.toContain('evil\x1b[2J');
  });
});

describe('layout in a real terminal', () => {
  /** The rows from the input line down: the status line and anything under it. */
  const statusRows = (screen: string) => {
    const rows = screen.split('\n');
    const input = rows.findLastIndex((r) => r.startsWith('›'));
    return rows.slice(input + 1).filter((r) => r.trim() !== '');
  };

  for (const cols of [60, 80]) {
    it(`a resize to ${cols} columns while a dialog is open leaves one frame, not two`, async () => {
      const s = setup([run('touch marker-t'), { text: 'Done.' }]);
      const t = chat(s, { cols: 110, rows: 50 });
      await t.waitFor(READY);
      await t.typeLine('make a marker');
      await t.waitFor(/approve a command\?[\s\S]*left, then refused/);
      await t.resize(cols, 50);
      // Wait for the redraw at the new width (its bottom border is exactly as wide as the window).
      const screen = await t.waitFor(new RegExp(`╰─{${cols - 2}}╯`));
      const all = await t.text();
      expect(all.split('approve a command?').length - 1).toBe(1);
      expect(all.split('╭').length - 1).toBe(1);
      expect(screen.split('\n').every((r) => [...r].length <= cols)).toBe(true);
      expect(existsSync(join(s.work, 'marker-t'))).toBe(false);
    });

    it(`the status line fits ${cols} columns: a long model spec shortened in the middle, rows broken between parts`, async () => {
      const s = setup([{ text: 'hi' }]);
      // A long script path stands for a long model spec (`openai:…` with a long name).
      const long = join(s.dir, 'a-very-long-model-name-for-the-status-line-qwen2.5-coder-32b-instruct-q4_K_M.json');
      writeFileSync(long, JSON.stringify({ responses: [{ text: 'hi' }] }));
      const t = chat({ ...s, script: long }, { cols, rows: 30 });
      const screen = await t.waitFor(READY);
      // The status line says `sandbox starting…` until the session is open behind the drawn input line (ADR 0056).
      const rows = statusRows(await t.waitFor(/sandbox (?!starting)[\s\S]*(no requests pending|none pending)/));
      expect(rows.length).toBeGreaterThanOrEqual(1);
      expect(rows.length).toBeLessThanOrEqual(2);
      for (const r of rows) expect([...r].length).toBeLessThan(cols);
      const joined = rows.join(' · ');
      expect(joined).toMatch(/script:\/.*….*q4_K_M\.json/); // the kind and the tail of the spec stay
      expect(joined).toContain('sandbox bwrap');
      expect(joined).toContain('terminal');
      // Every row starts with a whole part, not the rest of one cut by the terminal.
      for (const r of rows) expect(r).toMatch(/^(script:|terminal|sandbox |no requests|none pending)/);
      expect(screen).toContain(READY);
    });
  }

  it('NO_COLOR (any non-empty value) turns colour off; empty, it does not', async () => {
    const colour = /\x1b\[(?:3[0-7]|9[0-7]|38;[0-9;]+)m/;
    const s = setup([{ text: 'hi' }], { sandbox: { enabled: false } }); // "sandbox off" is drawn red
    const plain = chat(s, { env: { NO_COLOR: 'yes' } });
    await plain.waitFor(READY);
    await plain.typeLine('hello');
    await plain.waitFor('hi');
    expect(plain.raw).not.toMatch(colour);

    const coloured = chat(s, { env: { NO_COLOR: '' } });
    await coloured.waitFor(READY);
    expect(coloured.raw).toMatch(colour);
  });
});
