import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, freshHome, ROOT, wisp, wispInPty } from '../helpers/cli.js';

describe('wisp chat, the command module', () => {
  it('imports neither Ink nor React until the command runs (other commands start fast)', () => {
    const source = readFileSync(join(ROOT, 'commands/chat.ts'), 'utf8');
    const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.filter((m) => /ink|react|ui\//.test(m!))).toEqual([]);
    expect(source).toContain("await import('./chat-run.js')");
  });

  it.skipIf(!existsSync(BIN))('--help lists the flags', () => {
    const { dir, home } = freshHome();
    const r = wisp(['chat', '--help'], { cwd: dir, home });
    expect(r.status).toBe(0);
    for (const flag of ['-m, --model', '--escalation', '-y, --yes', '--tool', '--no-tools']) expect(r.stdout).toContain(flag);
  });

  it.skipIf(!existsSync(BIN))('refuses an escalation channel the chat does not offer (exit 64)', () => {
    const { dir, home } = freshHome();
    const r = wispInPty(['chat', '--escalation', 'result', '-m', 'script:/nonexistent.json'], { cwd: dir, home });
    expect(r.status).toBe(64);
    expect(r.stdout).toMatch(/--escalation result is not available in wisp chat; choose one of terminal, queue, auto, deny/);
  });
});
