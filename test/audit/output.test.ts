// What the audit log keeps of output (issue 13.2): a secret read once with consent is kept as size and hash only,
// unless the operator turns `audit.recordOutput` on.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AutoChannel } from '../../src/escalation/channels.js';
import { call, makeRig, run } from '../helpers/conversation.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('output in the audit log', () => {
  it('by default: a file read and a command’s output are kept as bytes and SHA-256, not as text', async () => {
    const rig = await makeRig({ responses: [call('read_file', { path: '.env' }), run('cat .env'), { text: 'ok' }], channel: new AutoChannel() });
    writeFileSync(join(rig.dir, '.env'), 'TOKEN=s3cret-value\n');
    await rig.conversation.turn('read it');
    const log = JSON.stringify(rig.audit.events);
    expect(log).not.toContain('s3cret-value');
    const read = rig.audit.ofKind('tool.result').find((e) => e.details.tool === 'read_file')!.details;
    expect(read).not.toHaveProperty('output');
    expect(read.outputSha256).toBe(sha('1\tTOKEN=s3cret-value\n[end of file]'));
    const outcome = rig.audit.ofKind('command.outcome')[0]!.details;
    expect(outcome).not.toHaveProperty('stdout');
    expect(outcome).toHaveProperty('stdoutSha256');
  });

  it('with audit.recordOutput: true the text is kept', async () => {
    const rig = await makeRig({
      responses: [call('read_file', { path: 'notes.txt' }), run('echo visible-output'), { text: 'ok' }],
      channel: new AutoChannel(),
      config: { audit: { recordOutput: true } },
    });
    writeFileSync(join(rig.dir, 'notes.txt'), 'kept text\n');
    await rig.conversation.turn('read it');
    const read = rig.audit.ofKind('tool.result').find((e) => e.details.tool === 'read_file')!.details;
    expect(read.output).toBe('1\tkept text\n[end of file]');
    expect(read).not.toHaveProperty('outputSha256');
    expect(rig.audit.ofKind('command.outcome')[0]!.details.stdout).toContain('visible-output');
  });

  it('an error is wisp’s own words and is always kept', async () => {
    const rig = await makeRig({ responses: [call('read_file', { path: 'missing.txt' }), { text: 'ok' }], channel: new AutoChannel() });
    await rig.conversation.turn('read it');
    expect(rig.audit.ofKind('tool.result')[0]!.details.output).toMatch(/^error: no such file/);
  });
});
