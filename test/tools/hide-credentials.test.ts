// attack (session 12): a secret under an ordinary name was read unasked and shown to the model — a password in
// config/database.yml, a token in the URL `git remote -v` prints. What runs or is read unasked is given to no one, so
// its recognisable credentials are hidden before the model reads it (ADR 0096); what the person approved is theirs
// to give.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AutoChannel } from '../../src/escalation/channels.js';
import type { ChatMessage } from '../../src/model/types.js';
import { call, makeRig, run } from '../helpers/conversation.js';

const YAML = 'production:\n  adapter: postgresql\n  username: app\n  password: hunter2-s3cret\n';
const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

/** The text of every tool result the model was given on its last call. */
function toolResults(seen: ChatMessage[][]): string {
  const last = seen[seen.length - 1] ?? [];
  return last.map((m) => (m.role === 'tool' ? String(m.content) : '')).join('\n');
}

describe('attack: a secret under an ordinary name, read unasked, reached the model', () => {
  it('run_command: `cat config/database.yml` and a token in a remote URL run unasked, and the model sees them hidden', async () => {
    const rig = await makeRig({
      responses: [run('cat config/database.yml'), run('cat .git/config'), call('read_file', { path: 'config/database.yml' }), { text: 'ok' }],
      channel: new AutoChannel(),
    });
    mkdirSync(join(rig.dir, 'config'));
    mkdirSync(join(rig.dir, '.git'));
    writeFileSync(join(rig.dir, 'config', 'database.yml'), YAML);
    writeFileSync(join(rig.dir, '.git', 'config'), `[remote "origin"]\n\turl = https://${TOKEN}@github.com/a/b.git\n`);
    await rig.conversation.turn('show the database settings');
    const seen = toolResults(rig.seen);
    expect(seen).toContain('username: app');
    expect(seen).toContain('github.com/a/b.git');
    expect(seen).not.toContain('hunter2-s3cret');
    expect(seen).not.toContain(TOKEN);
    expect(seen).toContain('[hidden by wisp]');
    expect(seen).toMatch(/wisp hid a credential/);
    // Each ran unasked: none was a question to the person.
    expect(rig.audit.ofKind('approval.requested')).toHaveLength(0);
  });

  it('what the person approved is theirs to give: an approved read of .env is shown as it is', async () => {
    const rig = await makeRig({ responses: [run('cat .env'), { text: 'ok' }], channel: new AutoChannel() });
    writeFileSync(join(rig.dir, '.env'), 'DB_PASSWORD=hunter2-s3cret\n');
    await rig.conversation.turn('read .env');
    expect(rig.audit.ofKind('approval.requested')).toHaveLength(1);
    expect(toolResults(rig.seen)).toContain('DB_PASSWORD=hunter2-s3cret');
  });
});
