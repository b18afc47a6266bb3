// read_file follows the same no-follow rules as edit_file (ADR 0043): the file judged is the file read, a hard link
// to a secret is asked about, and nothing but a regular file is opened (a FIFO would hang wisp's own process).
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EscalationOutcome } from '../../src/escalation/types.js';
import type { ChatMessage } from '../../src/model/types.js';
import { GIT_CONFIG, HARD_LINKED } from '../../src/tools/read-file.js';
import { CountingChannel } from '../helpers/counting-channel.js';
import { call, makeRig, type Rig } from '../helpers/conversation.js';

const lastTool = (messages: ChatMessage[]) => [...messages].reverse().find((m) => m.role === 'tool') as Extract<ChatMessage, { role: 'tool' }>;

const outer = mkdtempSync(join(tmpdir(), 'wisp-read-attack-'));
const idRsa = join(outer, 'home', '.ssh', 'id_rsa');
mkdirSync(join(outer, 'home', '.ssh'), { recursive: true });
writeFileSync(idRsa, 'PRIVATE KEY\n');
afterAll(() => rmSync(outer, { recursive: true, force: true }));

async function read(path: string, channel: CountingChannel, before: (dir: string) => void): Promise<{ rig: Rig; said: string }> {
  const rig = await makeRig({ responses: [call('read_file', { path }), { text: 'ok' }], channel });
  before(rig.dir);
  await rig.conversation.turn('read');
  return { rig, said: lastTool(rig.seen[1]!).content };
}

const approveAfter = (attack: () => void): CountingChannel =>
  new CountingChannel((): EscalationOutcome => {
    attack();
    return { kind: 'approved', scope: 'once' };
  });

describe('read_file: the file judged is the file read', () => {
  it('a link to ~/.ssh/id_rsa swapped in while the person is asked: the judged file is read, not the key', async () => {
    let dir = '';
    const channel = approveAfter(() => {
      unlinkSync(join(dir, '.env'));
      symlinkSync(idRsa, join(dir, '.env'));
    });
    const { said } = await read('.env', channel, (d) => {
      dir = d;
      writeFileSync(join(d, '.env'), 'DEBUG=1\n');
    });
    expect(channel.asked).toHaveLength(1);
    expect(said).toBe('1\tDEBUG=1\n[end of file]');
  });

  it('a directory swapped for a link to ~/.ssh while the person is asked: the key is not read', async () => {
    let dir = '';
    const channel = approveAfter(() => {
      renameSync(join(dir, 'keys'), join(dir, 'keys.old'));
      symlinkSync(join(outer, 'home', '.ssh'), join(dir, 'keys'));
    });
    const { said } = await read('keys/id_rsa', channel, (d) => {
      dir = d;
      mkdirSync(join(d, 'keys'));
      writeFileSync(join(d, 'keys', 'id_rsa'), 'a test fixture\n');
    });
    expect(said).not.toContain('PRIVATE KEY');
    expect(said).toBe('1\ta test fixture\n[end of file]');
  });

  it('a hard link in the project to ~/.ssh/id_rsa, innocently named, is asked about', async () => {
    const channel = new CountingChannel({ kind: 'declined', reason: 'no' });
    const { said } = await read('notes.md', channel, (d) => linkSync(idRsa, join(d, 'notes.md')));
    expect(channel.asked).toHaveLength(1);
    const asked = channel.asked[0]!;
    expect(asked.verb === 'approval' && asked.request.reasons).toContain(HARD_LINKED);
    expect(said).toMatch(/^error: read not approved/);
  });

  it(".git/config holding a clone's token is asked about (a contained cat sees it cleaned, ADR 0098)", async () => {
    const channel = new CountingChannel({ kind: 'declined', reason: 'no' });
    const { said } = await read('.git/config', channel, (d) => {
      execFileSync('git', ['init', '-q', d]);
      execFileSync('git', ['-C', d, 'remote', 'add', 'origin', 'https://u:ghp_TOKEN@github.com/o/r']);
    });
    expect(channel.asked).toHaveLength(1);
    const asked = channel.asked[0]!;
    expect(asked.verb === 'approval' && asked.request.reasons).toContain(GIT_CONFIG);
    expect(said).not.toContain('ghp_TOKEN');
  });

  it("a separate git directory's config (git init --separate-git-dir) is asked about too", async () => {
    const channel = new CountingChannel({ kind: 'declined', reason: 'no' });
    const { said } = await read('.repo/config', channel, (d) => {
      execFileSync('git', ['init', '-q', `--separate-git-dir=${join(d, '.repo')}`, d]);
    });
    expect(channel.asked).toHaveLength(1);
    expect(said).toMatch(/^error: read not approved/);
  });

  it.each(['.env/prod', 'secrets/api.txt', 'credentials/aws', 'config/.secrets/token', 'private_keys/deploy', 'site.pem/chain'])(
    'a file in a folder named like a secret (%s) is asked about (ADR 0101)',
    async (rel) => {
      const channel = new CountingChannel({ kind: 'declined', reason: 'no' });
      const { said } = await read(rel, channel, (d) => {
        mkdirSync(join(d, rel, '..'), { recursive: true });
        writeFileSync(join(d, rel), 'DB_PASSWORD=hunter2\n');
      });
      expect(channel.asked).toHaveLength(1);
      expect(said).not.toContain('hunter2');
    },
  );

  it('an ordinary project file with one name is still read unasked', async () => {
    const channel = new CountingChannel({ kind: 'declined', reason: 'no' });
    const { said } = await read('plain.txt', channel, (d) => writeFileSync(join(d, 'plain.txt'), 'hi\n'));
    expect(channel.asked).toHaveLength(0);
    expect(said).toBe('1\thi\n[end of file]');
  });

  it('a FIFO is refused at once, without blocking wisp', async () => {
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await read('pipe', channel, (d) => execFileSync('mkfifo', [join(d, 'pipe')]));
    expect(said).toMatch(/not a regular file \(it is a fifo\)/);
    expect(channel.asked).toHaveLength(0);
  });

  it('a directory is refused', async () => {
    const channel = new CountingChannel({ kind: 'approved', scope: 'once' });
    const { said } = await read('sub', channel, (d) => mkdirSync(join(d, 'sub')));
    expect(said).toMatch(/not a regular file \(it is a directory\)/);
  });
});
