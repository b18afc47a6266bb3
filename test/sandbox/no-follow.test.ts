// The no-follow walk on its own, in both forms: through /proc/self/fd (Linux) and by full names re-checked before a
// write is committed (the form used where there is no /proc, e.g. macOS).
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Dir, NoFollowError } from '../../src/sandbox/no-follow.js';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'wisp-nofollow-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));
let n = 0;
function tree(): string {
  const root = join(base, `t${n++}`);
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  mkdirSync(join(root, 'elsewhere'));
  writeFileSync(join(root, 'a', 'b', 'f.txt'), 'one');
  return root;
}

const forms = process.platform === 'linux' ? ([['through /proc/self/fd', true], ['by full names, re-checked', false]] as const) : ([['by full names, re-checked', false]] as const);

describe.each(forms)('Dir %s', (_name, viaProc) => {
  it('opens and commits below the root', async () => {
    const root = tree();
    const dir = await Dir.open(root, join(root, 'a', 'b'), { viaProc });
    const f = await dir.openFile('f.txt');
    expect(f?.id.kind).toBe('file');
    await f!.handle.close();
    await dir.commit('f.txt', '.f.tmp', 'two', 0o600, f!.id);
    await dir.close();
    expect(readFileSync(join(root, 'a', 'b', 'f.txt'), 'utf8')).toBe('two');
  });

  it('refuses a link as a directory component', async () => {
    const root = tree();
    symlinkSync(join(root, 'a', 'b'), join(root, 'l'));
    await expect(Dir.open(root, join(root, 'l'), { viaProc })).rejects.toThrow(NoFollowError);
  });

  it('refuses to commit over a file that changed after it was opened', async () => {
    const root = tree();
    const dir = await Dir.open(root, join(root, 'a', 'b'), { viaProc });
    const f = await dir.openFile('f.txt');
    await f!.handle.close();
    writeFileSync(join(root, 'a', 'b', 'f.txt'), 'someone else, longer');
    await expect(dir.commit('f.txt', '.f.tmp', 'two', 0o600, f!.id)).rejects.toThrow(/changed while wisp was writing/);
    await dir.close();
    expect(readFileSync(join(root, 'a', 'b', 'f.txt'), 'utf8')).toBe('someone else, longer');
  });

  it('a directory swapped for a link after opening: the commit never lands in the link target', async () => {
    const root = tree();
    const dir = await Dir.open(root, join(root, 'a', 'b'), { viaProc });
    renameSync(join(root, 'a'), join(root, 'a.old'));
    symlinkSync(join(root, 'elsewhere'), join(root, 'a'));
    mkdirSync(join(root, 'elsewhere', 'b'));
    let refused = false;
    try {
      await dir.commit('new.txt', '.new.tmp', 'x', 0o644, undefined);
    } catch (err) {
      refused = err instanceof NoFollowError;
    }
    await dir.close();
    // Bound to the descriptor, the write lands in the directory that was checked (now a.old/b); by names, it is refused.
    expect(() => readFileSync(join(root, 'elsewhere', 'b', 'new.txt'))).toThrow();
    if (viaProc) expect(readFileSync(join(root, 'a.old', 'b', 'new.txt'), 'utf8')).toBe('x');
    else expect(refused).toBe(true);
  });

  it('refuses a path that is not below the root', async () => {
    const root = tree();
    await expect(Dir.open(join(root, 'a'), join(root, 'elsewhere'), { viaProc })).rejects.toThrow(/not inside/);
  });
});
