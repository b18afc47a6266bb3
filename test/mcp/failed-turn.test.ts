// A turn that fails after it ran something (ADR 0094): the isError result says what ran, so a calling agent does not
// take the failure for nothing having happened and send the same prompt again.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accept, run, startHarness, type Harness } from './helpers.js';

const open: Harness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

describe('a respond turn that fails after running a command', () => {
  it('is isError and names the command that ran', async () => {
    // The script ends after the tool call: the model fails on its next call, after `touch` ran.
    const h = await startHarness({ responses: [run('touch ran-once')], elicit: accept('once') });
    open.push(h);
    const r = await h.respond({ prompt: 'make it' });
    expect(existsSync(join(h.dirs.work, 'ran-once'))).toBe(true);
    expect(r.isError).toBe(true);
    const texts = (r.content as Array<{ type: string; text: string }>).map((c) => c.text);
    expect(texts[0]).toMatch(/^wisp could not finish this turn: .*no response left/);
    expect(texts[1]).toBe('Before it stopped, this turn ran a command: `touch ran-once` (exit 0). That is not undone: check it before asking again.');
  });

  it('that ran nothing (its one command refused) says only that it failed', async () => {
    const h = await startHarness({ responses: [run('sudo touch x')], elicit: accept('once') });
    open.push(h);
    const r = await h.respond({ prompt: 'hi' });
    expect(r.isError).toBe(true);
    expect(r.content).toHaveLength(1);
  });
});
