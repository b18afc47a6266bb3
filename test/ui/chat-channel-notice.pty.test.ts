// A user config that names a channel `wisp chat` cannot use (escalation.channel elicitation, set for `wisp mcp`): the
// chat used to fall back to its dialogs without a word. Now its transcript says which channel it uses and why, and
// session.start records both (ADR 0102). Needs the build.
import { auditLog } from '../helpers/cli.js';
import { describe, expect, it } from 'vitest';
import { chatSetup, READY, usePtyChats } from '../helpers/pty-chat.js';

const start = usePtyChats();

describe('wisp chat with escalation.channel it cannot use', () => {
  it('attack: escalation.channel elicitation fell back to dialogs silently — the transcript names terminal and why', async () => {
    const s = chatSetup([{ text: 'hi' }], { escalation: { channel: 'elicitation' } });
    const t = start(s);
    const screen = await t.waitFor(READY);
    expect(screen.replace(/\n/g, ' ').replace(/\s+/g, ' ')).toContain(
      'escalation.channel elicitation (config) is not available in wisp chat; using terminal, its default',
    );
    t.write('/quit\r');
    await t.exited;
    const start0 = auditLog(s.home).find((e) => e.kind === 'session.start');
    expect(start0?.details).toMatchObject({ channel: 'terminal', channelConfigured: 'elicitation' });
  }, 60_000);
});
