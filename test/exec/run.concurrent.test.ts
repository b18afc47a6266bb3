// Two approved runs at once in one project (ADR 0101 part 1): the stand-ins for missing protected folders are shared,
// and the first run to end must not remove one the other still has mounted (removing a mount point in another
// mount namespace unmounts it there, and the protected name is then free to create). With the real bwrap.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/exec/run.js';
import { dirOutsideTmp, removeAll, runOptions } from './helpers.js';

const made: string[] = [];
afterAll(() => removeAll(made));

function world(): { project: string; wispHome: string } {
  const base = dirOutsideTmp('concurrent');
  made.push(base);
  const project = join(base, 'project');
  const wispHome = join(base, 'wisp-home');
  for (const d of [project, wispHome]) mkdirSync(d, { recursive: true });
  writeFileSync(join(project, 'README.md'), 'readme\n');
  return { project, wispHome };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('two approved runs at once in one project', () => {
  it('the first to end leaves the stand-in the other holds: the later run still cannot create .claude/settings.json', async () => {
    const w = world();
    const opts = runOptions(w.project, w.wispHome, { timeoutMs: 20_000 });
    // The first run makes the stand-in for the missing .claude and ends once the second has started.
    const first = runCommand('while [ ! -e started ]; do sleep 0.05; done; echo first-done', opts);
    await until(() => existsSync(join(w.project, '.claude')));
    const second = runCommand(
      'touch started; while [ ! -e go ]; do sleep 0.05; done; mkdir -p .claude; echo "{\\"hooks\\":{}}" > .claude/settings.json && echo WROTE',
      opts,
    );
    const a = await first;
    expect(a.stdout).toContain('first-done');
    // The first run is over: the stand-in is still there, held by the second.
    expect(existsSync(join(w.project, '.claude'))).toBe(true);
    writeFileSync(join(w.project, 'go'), '');
    const b = await second;
    expect(b.sandboxed).toBe('bwrap');
    expect(b.stdout).not.toContain('WROTE');
    expect(existsSync(join(w.project, '.claude', 'settings.json'))).toBe(false);
    // The last run to end removed it.
    expect(existsSync(join(w.project, '.claude'))).toBe(false);
    expect(readdirSync(w.project).sort()).toEqual(['README.md', 'go', 'started']);
  }, 30_000);

  it('a stand-in left by a wisp that died during its run is removed by the next run', async () => {
    const w = world();
    // What a killed wisp leaves: an empty stand-in, named in the ledger, claimed by a process that is gone.
    mkdirSync(join(w.project, '.vscode'));
    mkdirSync(join(w.wispHome, 'sandbox'), { mode: 0o700 });
    const gone = 2 ** 22 + 7; // above pid_max: no such process
    writeFileSync(
      join(w.wispHome, 'sandbox', 'held.json'),
      JSON.stringify({ runs: [{ id: 'x', pid: gone, holds: [join(w.project, '.vscode')] }], placeholders: [join(w.project, '.vscode')] }),
    );
    const r = await runCommand('true', runOptions(w.project, w.wispHome));
    expect(r.exitStatus).toBe(0);
    expect(readdirSync(w.project)).toEqual(['README.md']);
  });
});
