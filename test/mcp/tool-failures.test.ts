// A tool call that fails without a refusal (an edit whose find text is absent, a missing file or working directory)
// is said in wisp's own words, not only in the model's reply, which may claim the edit was made (ADR 0097).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accept, say, startHarness, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

describe('respond: tool failures that are not refusals', () => {
  it('attack: a reply claiming an edit that failed — the result lists the failure in receipt.errors and a second text', async () => {
    const h = await startHarness({
      responses: [
        {
          toolCalls: [
            { name: 'edit_file', arguments: { path: 'a.txt', mode: 'replace', find: 'not-there', content: 'x' } },
            { name: 'read_file', arguments: { path: 'missing.txt' } },
            { name: 'run_command', arguments: { command: 'sudo ls' } },
          ],
        },
        say('I changed a.txt'),
      ],
      elicit: accept('once'),
    });
    open.push(h);
    writeFileSync(join(h.dirs.work, 'a.txt'), 'hello\n');
    const progress: string[] = [];
    const r = await h.respond({ prompt: 'edit it' }, { onprogress: (p) => void (p.message && progress.push(p.message)) });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.receipt.errors).toEqual([
      { tool: 'edit_file', error: expect.stringMatching(/^find text not found in /) as unknown as string },
      { tool: 'read_file', error: expect.stringMatching(/^no such file: .*missing\.txt$/) as unknown as string },
    ]);
    const note = (r.content as Array<{ text: string }>)[1]!.text;
    expect(note).toMatch(/wisp: edit_file failed: find text not found in /);
    expect(note).toMatch(/wisp: read_file failed: no such file: /);
    expect(note).not.toMatch(/run_command failed/); // said once, as a refusal
    expect(note).toMatch(/wisp: refused sudo ls/);
    expect(progress.some((m) => m.startsWith('edit_file failed: find text not found'))).toBe(true);
    expect(readFileSync(join(h.dirs.work, 'a.txt'), 'utf8')).toBe('hello\n');
  });
});
