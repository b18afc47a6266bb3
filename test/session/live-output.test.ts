// The live hook through the tool loop: run_command announces the command, hands over its output as it comes and
// says when it ended — and none of it reaches the model or the audit log beyond what the result already holds.
import { describe, expect, it } from 'vitest';
import { AutoChannel, DenyChannel } from '../../src/escalation/channels.js';
import type { LiveEvent } from '../../src/tools/types.js';
import { call, makeRig } from '../helpers/conversation.js';

const run = (command: string) => call('run_command', { command });

describe('Conversation onLive', () => {
  it('start, the output in order, then end, for the call that ran', async () => {
    const rig = await makeRig({
      responses: [run('echo one; echo two >&2; echo three'), { text: 'done' }],
      channel: new AutoChannel(),
      config: { sandbox: { enabled: false } },
    });
    const live: LiveEvent[] = [];
    await rig.conversation.turn('go', { onLive: (e) => live.push(e) });
    expect(live[0]).toMatchObject({ type: 'command-start', command: 'echo one; echo two >&2; echo three' });
    expect(live[live.length - 1]).toEqual({ type: 'command-end', callId: live[0]!.callId });
    const text = (s: string) =>
      live.flatMap((e) => (e.type === 'command-output' && e.stream === s ? [e.text] : [])).join('');
    expect(text('stdout')).toBe('one\nthree\n');
    expect(text('stderr')).toBe('two\n');
    expect(new Set(live.map((e) => e.callId)).size).toBe(1);
  });

  it('a refused command announces nothing: nothing ran', async () => {
    const rig = await makeRig({ responses: [run('touch marker'), { text: 'ok' }], channel: new DenyChannel() });
    const live: LiveEvent[] = [];
    await rig.conversation.turn('go', { onLive: (e) => live.push(e) });
    expect(live).toEqual([]);
  });
});
