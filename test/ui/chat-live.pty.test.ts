// `wisp chat` in a real pseudo-terminal for issue 14's points 4 (live output, the spinner's words) and 8 (layout:
// the status line at 60 and 80 columns, a resize while a dialog is open, NO_COLOR). Needs the build first.
import { writeFileSync } from 'node:fs';
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
